#include "results/sentence_counts.hpp"

#include <fmt/format.h>

#include <climits>
#include <nlohmann/json.hpp>

#include "util/json_document.hpp"

namespace ptxcts {

using Json = nlohmann::ordered_json;

SentenceCount sentence_total(const std::vector<SentenceCount>& counts) {
  SentenceCount t{.section = "all", .source = "every section"};
  for (auto const& c : counts) {
    t.sentences += c.sentences;
    t.descriptive += c.descriptive;
    t.by_ptxas += c.by_ptxas;
    t.by_gpu += c.by_gpu;
    t.judged += c.judged;
    t.elsewhere += c.elsewhere;
    t.not_judgeable += c.not_judgeable;
    t.not_yet += c.not_yet;
    for (auto const& [why, n] : c.reasons) t.reasons[why] += n;
  }
  return t;
}

Json sentence_counts_json(const std::vector<SentenceCount>& counts) {
  Json out = Json::array();
  for (auto const& c : counts) {
    Json reasons = Json::object();
    for (auto const& [why, n] : c.reasons) reasons[why] = n;
    out.push_back({{"section", c.section},
                   {"source", c.source},
                   {"sentences", c.sentences},
                   {"descriptive", c.descriptive},
                   {"checkable", c.checkable()},
                   {"judged", c.judged},
                   {"by_ptxas", c.by_ptxas},
                   {"by_gpu", c.by_gpu},
                   {"elsewhere", c.elsewhere},
                   {"not_judgeable", c.not_judgeable},
                   {"not_yet", c.not_yet},
                   {"reasons", reasons}});
  }
  return out;
}

namespace {

SentenceCount read_count(const JsonNode& n) {
  n.object({"section", "source", "sentences", "descriptive", "checkable", "judged", "by_ptxas", "by_gpu", "elsewhere",
            "not_judgeable", "not_yet", "reasons"});
  auto count = [&n](const char* key) { return static_cast<std::size_t>(n.at(key).integer(0, INT32_MAX)); };
  SentenceCount c{.section = n.at("section").str(), .source = n.at("source").str(), .sentences = count("sentences"),
                  .descriptive = count("descriptive"), .by_ptxas = count("by_ptxas"), .by_gpu = count("by_gpu"),
                  .judged = count("judged"), .elsewhere = count("elsewhere"), .not_judgeable = count("not_judgeable"),
                  .not_yet = count("not_yet")};
  if (c.descriptive > c.sentences || count("checkable") != c.checkable())
    n.at("checkable").fail(fmt::format("expected sentences less descriptive ({} - {})", c.sentences, c.descriptive));
  if (c.judged + c.elsewhere + c.not_judgeable + c.not_yet != c.checkable())
    n.fail(fmt::format("expected judged + elsewhere + not_judgeable + not_yet = checkable ({}), got {} + {} + {} + {}",
                       c.checkable(), c.judged, c.elsewhere, c.not_judgeable, c.not_yet));
  if (c.by_ptxas > c.judged || c.by_gpu > c.judged || c.by_ptxas + c.by_gpu < c.judged)
    n.at("judged").fail("expected by_ptxas and by_gpu each at most judged, and together at least judged");
  const JsonNode reasons = n.at("reasons");
  if (!reasons.json().is_object()) reasons.fail("expected an object: why -> how many sentences");
  for (auto const& [why, v] : reasons.json().items())
    c.reasons[why] = static_cast<std::size_t>(reasons.at(why.c_str()).integer(1, INT32_MAX));
  return c;
}

}  // namespace

std::vector<SentenceCount> read_sentence_counts(const JsonNode& n) {
  std::vector<SentenceCount> out;
  for (auto const& item : n.items()) out.push_back(read_count(item));
  return out;
}

std::string sentence_counts_line(const std::vector<SentenceCount>& counts, const char* elsewhere_words) {
  if (counts.empty()) return "";
  const SentenceCount t = sentence_total(counts);
  return fmt::format(
      "Sentences of the manual's sections: {} checkable (of {}, {} descriptive); {} judged ({} by ptxas, {} by the "
      "GPU), {} {}, {} not judgeable on any machine, {} not yet judged",
      t.checkable(), t.sentences, t.descriptive, t.judged, t.by_ptxas, t.by_gpu, t.elsewhere, elsewhere_words,
      t.not_judgeable, t.not_yet);
}

}  // namespace ptxcts

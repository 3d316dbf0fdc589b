#include "spec/sentences.hpp"

#include <fmt/format.h>

#include <set>
#include <string>

#include "spec/spec_error.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {
namespace {

std::vector<std::string> read_ids(const YamlReader& r, const char* key) {
  std::vector<std::string> out;
  for (auto const& item : r.at(key).items(fmt::format("'{}'", key)))
    out.push_back(read_identifier(item, "a statement id of the specs"));
  if (out.empty()) r.at(key).fail(fmt::format("expected at least one id in '{}'", key));
  return out;
}

Sentence read_sentence(YamlReader r) {
  r.expect_map({"text", "ptxas", "gpu", "descriptive", "not_judgeable", "not_yet", "note"});
  Sentence s{.text = r.at("text").str(), .where = r.at("text").where()};
  if (s.text.empty()) r.at("text").fail("expected the sentence, verbatim");
  if (r.has("ptxas")) s.ptxas = read_ids(r, "ptxas");
  if (r.has("gpu")) s.gpu = read_ids(r, "gpu");
  int marks = 0;
  for (auto [key, cls] : {std::pair{"descriptive", SentenceClass::Descriptive},
                          std::pair{"not_judgeable", SentenceClass::NotJudgeable},
                          std::pair{"not_yet", SentenceClass::NotYet}})
    if (r.has(key)) {
      ++marks;
      s.cls = cls;
      s.reason = r.at(key).str();
      if (s.reason.empty()) r.at(key).fail("expected why, in a sentence");
    }
  const bool judged = !s.ptxas.empty() || !s.gpu.empty();
  if (judged) s.cls = SentenceClass::Judged;
  if (marks + (judged ? 1 : 0) != 1)
    r.fail("expected what judges the sentence ('ptxas' and/or 'gpu': ids) or exactly one of 'descriptive', "
           "'not_judgeable', 'not_yet' (with why)");
  if (r.has("note")) s.note = r.at("note").str();
  return s;
}

SentenceSection read_section(YamlReader r) {
  r.expect_map({"section", "source", "file", "sentences"});
  SentenceSection sec{.section = r.at("section").str(), .source = r.at("source").str(),
                      .file = r.at("file").str(), .where = r.at("section").where()};
  if (sec.source.rfind("PTX ISA ", 0) != 0 || sec.source.find(sec.section) == std::string::npos)
    r.at("source").fail(fmt::format("expected 'PTX ISA 9.0, {} <title>', as the specs' sources cite a section",
                                    sec.section));
  std::set<std::string> seen;
  for (auto const& item : r.at("sentences").items("'sentences'")) {
    Sentence s = read_sentence(item);
    if (!seen.insert(s.text).second)
      item.at("text").fail("this sentence is listed twice in its section; expected each sentence once "
                           "(a sentence the section repeats is one entry)");
    sec.sentences.push_back(std::move(s));
  }
  return sec;
}

// The ids each judge's statements go by.
struct StatementIds {
  std::set<std::string> ptxas, gpu;
};

StatementIds statement_ids(const SpecSet& specs) {
  StatementIds ids;
  for (auto const& r : specs.rules) ids.ptxas.insert(r.id);
  for (auto const& c : specs.register_claims) ids.ptxas.insert(c.id);
  for (auto const& m : specs.register_minimums) ids.ptxas.insert(m.id);
  for (auto const& e : specs.examples) ids.ptxas.insert(e.id);
  for (auto const& b : specs.grammar) ids.ptxas.insert(b.id);
  for (auto const& f : specs.forms) ids.ptxas.insert(f.name);
  for (auto const& v : specs.version_spellings) ids.ptxas.insert(v.id);
  for (auto const& v : specs.variants) {
    ids.ptxas.insert(v.name);  // its requirements: targets and PTX ISA version
    ids.gpu.insert(v.name);    // its cases
  }
  for (auto const& c : specs.claims)
    (c.check.kind == ClaimCheckKind::Requirements ? ids.ptxas : ids.gpu).insert(c.id);
  return ids;
}

void check_ids(const Sentence& s, const std::vector<std::string>& ids, const std::set<std::string>& known,
               const char* judge, const char* kinds) {
  for (auto const& id : ids)
    if (!known.count(id))
      throw SpecError(s.where, fmt::format("'{}' names no statement {} judges; expected the id of {}", id, judge,
                                           kinds));
}

}  // namespace

std::vector<SentenceSection> read_sentences(YamlReader r) {
  r.expect_map({"sections"});
  std::vector<SentenceSection> out;
  for (auto const& item : r.at("sections").items("'sections'")) {
    SentenceSection sec = read_section(item);
    for (auto const& prev : out)
      if (prev.section == sec.section)
        item.at("section").fail(fmt::format("section {} is listed twice (first at {})", sec.section, prev.where.str()));
    out.push_back(std::move(sec));
  }
  return out;
}

void check_sentences(const SpecSet& specs) {
  const StatementIds ids = statement_ids(specs);
  for (auto const& sec : specs.sentences)
    for (auto const& s : sec.sentences) {
      check_ids(s, s.ptxas, ids.ptxas, "ptxas",
                "a rule, register claim, register minimum, example, syntax block, hand-listed form, version spelling, variant "
                "(its requirements) or claim checked by 'requirements'");
      check_ids(s, s.gpu, ids.gpu, "the GPU", "a claim checked by cases or a round trip, or a variant (its cases)");
    }
}

}  // namespace ptxcts

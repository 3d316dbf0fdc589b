// Every quote of the documents in the specs (a rule's, register claim's, version spelling's or claim's text, an
// instruction's words on its address and state spaces, a syntax
// block's `manual` line, an example's lines, a sparse fragment table's words, the title of a fragment
// section a source cites) and every literal `.words` of
// judge/'s sources appears verbatim in the reference text of the section it cites (markdown marks
// and runs of blanks aside), or says why not (`paraphrase: <why>`). The reference text the test reads
// is harness/tests/data/quoted-text/excerpts.txt, the quoted lines of ../shared/reference and
// ../shared/seeds (harness/scripts/quoted_excerpts.py copies them), so that it runs on a fresh clone
// without ../shared; where ../shared is at hand, each excerpt is checked to be that text's own. A
// quote the reference text does not hold ('paraphrase: not checked: ...') carries the public address
// where the manual's words can be read, so that no statement rests on words nobody can find.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/reference_text.hpp"

namespace {

namespace fs = std::filesystem;
using ptxcts::test::norm;
using ptxcts::test::read_all;

const fs::path kSource = PTXCTS_SOURCE_DIR;
const fs::path kShared = kSource.parent_path() / "shared";

struct Excerpt {
  std::string file, document, section, text;
};

std::vector<Excerpt> read_excerpts() {
  std::vector<Excerpt> out;
  std::istringstream in(read_all(kSource / "harness/tests/data/quoted-text/excerpts.txt"));
  Excerpt head;
  std::string body;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("=== ", 0) == 0) {
      std::smatch m;
      if (std::regex_match(line, m, std::regex(R"(=== (\S+) \| (\S+) \| ?(\S*))"))) head = {m[1], m[2], m[3], ""};
    } else if (line == "@@") {
      out.push_back({head.file, head.document, head.section, body});
      body.clear();
    } else if (line.rfind('#', 0) != 0 || !head.file.empty()) {
      body += (body.empty() ? "" : "\n") + line;
    }
  }
  return out;
}

struct Quote {
  std::string where, document, source;
  std::vector<std::string> words;
};

// A syntax line as the specs give it: each statement (up to ';'), a heading ("... loads:") apart.
std::vector<std::string> statements(const std::string& manual) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= manual.size(); ++i) {
    const bool end = i == manual.size() || (manual[i] == ';' && i + 1 < manual.size() && manual[i + 1] == ' ');
    if (!end) continue;
    std::string part = manual.substr(start, i == manual.size() ? std::string::npos : i + 1 - start);
    std::smatch m;
    if (std::regex_match(part, m, std::regex(R"(([A-Z][^{};]*:)\s+(.*))"))) {
      out.push_back(m[1]);
      out.push_back(m[2]);
    } else if (!part.empty()) {
      out.push_back(part);
    }
    start = i + 2;
  }
  return out;
}

void spec_quotes(const fs::path& file, std::vector<Quote>& out) {
  const YAML::Node d = YAML::LoadFile(file.string());
  const std::string name = file.filename().string();
  auto text_of = [&](const char* key, const char* id, const char* field) {
    for (auto const& r : d[key])
      if (!r["paraphrase"])
        out.push_back({name + " " + r[id].as<std::string>(), r["document"].as<std::string>(),
                       r["source"].as<std::string>(), {r[field].as<std::string>()}});
  };
  text_of("rules", "rule", "text");
  text_of("register_claims", "claim", "text");
  text_of("register_minimums", "minimum", "text");
  text_of("version_spellings", "spelling", "text");
  for (auto const& b : d["grammar"])
    if (!b["paraphrase"])
      out.push_back({name + " " + b["block"].as<std::string>(), b["document"].as<std::string>(),
                     b["source"].as<std::string>(), statements(b["manual"].as<std::string>())});
  for (auto const& e : d["examples"]) {
    if (e["paraphrase"]) continue;
    Quote q{name + " " + e["example"].as<std::string>(), e["document"].as<std::string>(),
            e["source"].as<std::string>(), {}};
    std::istringstream lines(e["text"].as<std::string>());
    for (std::string l; std::getline(lines, l);)
      if (l.find_first_not_of(" \t") != std::string::npos) q.words.push_back(l);
    out.push_back(q);
  }
  for (auto const& s : d["sparse_fragments"])
    for (const char* op : {"a", "b", "cd", "metadata"})
      if (s[op] && s[op]["words"] && !s[op]["paraphrase"])
        out.push_back({name + " " + s["name"].as<std::string>() + " " + op, "manual",
                       s["section"].as<std::string>(), {s[op]["words"].as<std::string>()}});
  // An instruction's section on its address operand and its state spaces (`address_words:`).
  for (auto const& a : d["address_words"])
    for (const char* part : {"address", "state_spaces"})
      if (!a[part]["paraphrase"])
        out.push_back({name + " " + a["mnemonic"].as<std::string>() + " " + part,
                       a[part]["document"].as<std::string>(), a[part]["source"].as<std::string>(),
                       {a[part]["words"].as<std::string>()}});
  // A claim's text: quoted from its document (the manual unless it names a seed).
  for (auto const& c : d["claims"])
    if (!c["paraphrase"])
      out.push_back({name + " " + c["id"].as<std::string>(),
                     c["document"] ? c["document"].as<std::string>() : std::string("manual"),
                     c["source"].as<std::string>(), {c["text"].as<std::string>()}});
}

// The titles of the fragment sections of one shape the specs cite ("9.7.14.5.2 Matrix Fragments for
// mma.m8n8k4 with .f64 floating point type, Figure 53"), read as judge/fragment_sections reads them
// and quoted in its findings: in every "source" or "section" of the file, at any depth.
void fragment_titles(const YAML::Node& n, const std::string& where, std::vector<Quote>& out) {
  static const std::regex title(
      R"((\d+(?:\.\d+)+)\.? (Matrix Fragments for (?:sparse )?[A-Za-z.]+?\.m\d+n\d+k\d+(?: with [^,;()]*[^,;() ])?))");
  if (n.IsMap()) {
    for (auto const& kv : n) {
      const std::string key = kv.first.as<std::string>();
      if ((key == "source" || key == "section") && kv.second.IsScalar()) {
        const std::string text = kv.second.as<std::string>();
        for (std::sregex_iterator it(text.begin(), text.end(), title), e; it != e; ++it)
          out.push_back({where + " (a title it cites)", "manual", (*it)[1].str(), {(*it)[2].str()}});
      } else {
        fragment_titles(kv.second, where, out);
      }
    }
  } else if (n.IsSequence()) {
    for (auto const& x : n) fragment_titles(x, where, out);
  }
}

// The string literals (adjacent ones joined) at `at`, or "" if there are none.
std::string literal_at(const std::string& src, std::size_t at, std::size_t* end = nullptr) {
  std::string out;
  bool any = false;
  for (;;) {
    while (at < src.size() && std::isspace(static_cast<unsigned char>(src[at]))) ++at;
    if (at >= src.size() || src[at] != '"') break;
    any = true;
    for (++at; at < src.size() && src[at] != '"'; ++at) out += src[at] == '\\' ? src[++at] : src[at];
    ++at;
  }
  if (end) *end = at;
  return any ? out : "";
}

// judge/'s `.words = "..."` (or a `const char* NAME = "..."` of the same file) with its `.source`,
// unless a `.paraphrase` that is not "" says why not.
void judge_quotes(const fs::path& file, std::vector<Quote>& out) {
  const std::string src = read_all(file);
  for (std::size_t at = src.find(".words = "); at != std::string::npos; at = src.find(".words = ", at + 1)) {
    std::size_t end = 0;
    std::string words = literal_at(src, at + 9, &end);
    if (words.empty()) {  // a name: its definition in the file
      std::smatch m;
      const std::string rest = src.substr(at + 9, 64);
      if (!std::regex_search(rest, m, std::regex(R"(^(\w+)\s*[,}])"))) continue;
      const std::size_t def = src.find("const char* " + m[1].str() + " = ");
      if (def == std::string::npos) continue;
      words = literal_at(src, def + 15 + m[1].length());
      end = at + 9 + m[1].length();
    }
    while (end < src.size() && std::isspace(static_cast<unsigned char>(src[end]))) ++end;
    if (words.empty() || end >= src.size() || (src[end] != ',' && src[end] != '}')) continue;  // built, not quoted
    const std::size_t close = src.find('}', end), source = src.find(".source = ", at);
    if (source == std::string::npos || source > close) continue;
    const std::string cited = literal_at(src, source + 10);
    const std::size_t para = src.find(".paraphrase = ", at);
    if (cited.rfind("PTX ISA", 0) != 0 || (para < close && src.compare(para + 14, 2, "\"\"") != 0)) continue;
    out.push_back({file.filename().string() + ": " + words.substr(0, 40), "manual", cited, {words}});
  }
}

std::vector<std::string> cited_sections(const std::string& source) {
  std::vector<std::string> out;
  static const std::regex number(R"(\b\d+(?:\.\d+){2,}\b)");
  for (std::sregex_iterator it(source.begin(), source.end(), number), e; it != e; ++it) out.push_back(it->str());
  return out;
}

bool covers(const std::string& file_section, const std::string& cited) {
  return !file_section.empty() && (file_section == cited || cited.rfind(file_section + ".", 0) == 0 ||
                                   file_section.rfind(cited + ".", 0) == 0);
}

bool found(const Quote& q, const std::string& words, const std::vector<Excerpt>& excerpts) {
  std::string w = norm(words);
  const std::vector<std::string> cited = q.document == "manual" ? cited_sections(q.source) : std::vector<std::string>{};
  for (auto const& e : excerpts) {
    if (e.document != q.document) continue;
    bool fits = cited.empty();
    for (auto const& c : cited) fits = fits || covers(e.section, c);
    if (!fits) continue;
    const std::string text = norm(e.text);
    // A statement's closing ';' may be the specs' separator where the manual's line has none.
    if (text.find(w) != std::string::npos || (w.back() == ';' && text.find(w.substr(0, w.size() - 1)) != std::string::npos))
      return true;
  }
  return false;
}

}  // namespace

TEST(QuotedWords, EveryQuoteIsInTheTextOfTheSectionItCitesOrSaysWhyNot) {
  std::vector<Quote> quotes;
  for (auto const& f : fs::directory_iterator(kSource / "specs"))
    if (f.path().extension() == ".yaml") {
      spec_quotes(f.path(), quotes);
      fragment_titles(YAML::LoadFile(f.path().string()), f.path().filename().string(), quotes);
    }
  for (auto const& f : fs::directory_iterator(kSource / "harness/src/judge"))
    if (f.path().extension() == ".cpp") judge_quotes(f.path(), quotes);
  const std::vector<Excerpt> excerpts = read_excerpts();
  ASSERT_GT(quotes.size(), 100u) << "the specs quote far more than this: the reading of them is broken";
  std::size_t words = 0;
  for (auto const& q : quotes)
    for (auto const& w : q.words) {
      ++words;
      EXPECT_TRUE(found(q, w, excerpts))
          << q.where << " (" << q.document << ", " << q.source << "): \"" << w
          << "\" is not in the reference text of the section it cites; expected the words verbatim there, or "
             "'paraphrase: <why>' (then run harness/scripts/quoted_excerpts.py where ../shared is)";
    }
  EXPECT_GT(words, 300u);
}

// Where a statement's words are not checked here (`paraphrase: "not checked: ..."`), what it cites can
// still be read: its paraphrase or source carries the manual's public address. Every such statement
// of the specs, at any depth (a claim, rule, syntax block, register claim, example).
void unchecked_without_address(const YAML::Node& n, const std::string& where, std::vector<std::string>& out) {
  static const std::string kAddress = "https://docs.nvidia.com/cuda/parallel-thread-execution/#";
  if (n.IsMap()) {
    if (n["paraphrase"] && n["paraphrase"].IsScalar() && n["paraphrase"].as<std::string>().rfind("not checked", 0) == 0) {
      const std::string said = n["paraphrase"].as<std::string>() + " " +
                               (n["source"] && n["source"].IsScalar() ? n["source"].as<std::string>() : "");
      if (said.find(kAddress) == std::string::npos) out.push_back(where + ": " + n["paraphrase"].as<std::string>());
    }
    for (auto const& kv : n) unchecked_without_address(kv.second, where, out);
  } else if (n.IsSequence()) {
    for (auto const& x : n) unchecked_without_address(x, where, out);
  }
}

TEST(QuotedWords, EveryQuoteNotCheckedHereCarriesTheAddressWhereTheManualSaysIt) {
  std::vector<std::string> bare;
  std::size_t files = 0;
  for (auto const& f : fs::directory_iterator(kSource / "specs"))
    if (f.path().extension() == ".yaml") {
      ++files;
      unchecked_without_address(YAML::LoadFile(f.path().string()), f.path().filename().string(), bare);
    }
  EXPECT_GE(files, 5u);
  for (auto const& b : bare)
    ADD_FAILURE() << b
                  << ": words not checked against the reference text and no address where they can be read; "
                     "expected https://docs.nvidia.com/cuda/parallel-thread-execution/#<section> in its paraphrase or source";
  // The check can fail: a paraphrase without an address is caught.
  std::vector<std::string> caught;
  unchecked_without_address(YAML::Load("{claims: [{text: t, source: s, paraphrase: 'not checked: gone'}]}"), "test",
                            caught);
  EXPECT_EQ(caught.size(), 1u);
}

// A quote the text does not hold is caught: the check can fail.
TEST(QuotedWords, AWordChangedIsNotFound) {
  const std::vector<Excerpt> excerpts = read_excerpts();
  const Quote q{"test", "manual", "PTX ISA 9.0, 9.7.14.5.16 stmatrix, Description", {}};
  EXPECT_TRUE(found(q, ".m16n8 shape is valid only for .b8 type.", excerpts));
  EXPECT_FALSE(found(q, ".m8n8 shape is valid only for .b16 type.", excerpts));
  // The right words, but cited to a section that does not say them.
  const Quote elsewhere{"test", "manual", "PTX ISA 9.0, 9.7.14.5.15 ldmatrix, Description", {}};
  EXPECT_FALSE(found(elsewhere, ".m16n8 shape is valid only for .b8 type.", excerpts));
}

TEST(QuotedWords, EachExcerptIsTheReferenceTextsOwn) {
  if (!fs::is_directory(kShared / "reference/ptx-isa"))
    GTEST_SKIP() << kShared << " is not here (a fresh clone): the excerpts are checked where it is";
  for (auto const& e : read_excerpts())
    EXPECT_NE(read_all(kShared / e.file).find(e.text), std::string::npos)
        << e.file << " does not hold the excerpt \"" << e.text.substr(0, 120) << "\"";
}

// The sentence inventory (specs/sentences.yaml, spec/sentences): every sentence is verbatim in the
// prose of the section it is listed under, the sentences of a section cover all of its prose (no
// sentence left out), that prose is the reference text's own (where ../shared, or PTXCTS_SHARED, is
// at hand: read again from the manual's files, the way harness/scripts/sentence_inventory.py reads
// them), every id a sentence names is a statement of the specs of the judge it is listed under (bad
// input: one error at file:line:column), and the counts per section (judge/sentence_counts) are the
// inventory's own.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "judge/sentence_counts.hpp"
#include "spec/spec_error.hpp"
#include "support/reference_text.hpp"
#include "support/spec_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using ptxcts::test::spec_files;

const fs::path kSentencesSource = PTXCTS_SOURCE_DIR;

struct ProseSection {
  std::string file, section, part;
  std::vector<std::string> paragraphs;
};

// harness/tests/data/sentences/prose.txt, by section.
std::map<std::string, ProseSection> read_prose() {
  std::map<std::string, ProseSection> out;
  std::istringstream in(ptxcts::test::read_all(kSentencesSource / "harness/tests/data/sentences/prose.txt"));
  ProseSection* at = nullptr;
  std::string para;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, std::regex(R"(=== (\S+) \| (\S+) \| (\S+))"))) {
      at = &out[m[2]];
      *at = {m[1], m[2], m[3], {}};
    } else if (line == "@@" && at) {
      at->paragraphs.push_back(para);
      para.clear();
    } else if (at) {
      para += line;
    }
  }
  return out;
}

std::string sentences_trimmed(std::string s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  s = s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
  return std::regex_replace(s, std::regex(R"(^(>\s*)+)"), "");
}

// A section's prose as sentence_inventory.py's `prose` reads it from the manual's file.
std::vector<std::string> prose_of(const std::string& text, const std::string& part) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<std::string> out;
  if (part == "seed") {
    bool inside = false;
    for (auto const& l : lines) {
      if (l == "Examples") break;
      if (inside && !ptxcts::test::norm(l).empty()) out.push_back(ptxcts::test::norm(l));
      inside = inside || (l.size() >= 11 && l.ends_with("Description"));
    }
    return out;
  }
  if (part == "intro")
    for (std::size_t i = 1; i < lines.size(); ++i)
      if (lines[i].starts_with("#")) {
        lines.resize(i);
        break;
      }
  lines.push_back("");
  std::string para;
  bool fenced = false;
  for (auto const& line : lines) {
    std::string s = sentences_trimmed(line);
    if (s.starts_with("```")) {
      fenced = !fenced;
      s.clear();
    }
    const bool bullet = s.size() > 1 && (s[0] == '*' || s[0] == '+' || s[0] == '-') && s[1] == ' ';
    const bool skip = fenced || s.starts_with("#") || s.starts_with("|") || s.starts_with("![") ||
                      s.starts_with("Figure ");
    if (s.empty() || skip || bullet) {
      if (!ptxcts::test::norm(para).empty()) out.push_back(ptxcts::test::norm(para));
      para = bullet && !fenced ? s.substr(2) : "";
      continue;
    }
    para += (para.empty() ? "" : " ") + s;
  }
  return out;
}

TEST(Sentences, EverySentenceIsVerbatimInItsSection) {
  const auto prose = read_prose();
  const auto& specs = ptxcts::test::loaded_specs();
  ASSERT_FALSE(specs.sentences.empty()) << "specs/sentences.yaml was not loaded";
  std::size_t n = 0;
  for (auto const& sec : specs.sentences) {
    auto p = prose.find(sec.section);
    ASSERT_NE(p, prose.end()) << "section " << sec.section << " has no prose in prose.txt";
    EXPECT_EQ(p->second.file, sec.file) << sec.section;
    for (auto const& s : sec.sentences) {
      ++n;
      bool found = false;
      for (auto const& para : p->second.paragraphs) found = found || para.find(ptxcts::test::norm(s.text)) != std::string::npos;
      EXPECT_TRUE(found) << s.where.str() << ": not verbatim in " << sec.source << ": \"" << s.text << "\"";
    }
  }
  EXPECT_GT(n, 600u) << "the inventory holds every sentence of some 30 sections";
}

// The paragraph read as a run of the section's sentences, each in its place (the longest that fits
// there): "" where they cover it, else the words from where none fits.
std::string uncovered(const std::string& para, const std::vector<ptxcts::Sentence>& sentences) {
  std::size_t at = 0;
  while (at < para.size()) {
    at = para.find_first_not_of(' ', at);
    if (at == std::string::npos) break;
    std::size_t best = 0;
    for (auto const& s : sentences) {
      const std::string text = ptxcts::test::norm(s.text);
      if (text.size() > best && para.compare(at, text.size(), text) == 0) best = text.size();
    }
    if (best == 0) return para.substr(at);
    at += best;
  }
  return "";
}

TEST(Sentences, NoSentenceOfASectionIsLeftOut) {
  const auto prose = read_prose();
  const auto& specs = ptxcts::test::loaded_specs();
  EXPECT_EQ(prose.size(), specs.sentences.size()) << "every section of prose.txt is inventoried, and no other";
  for (auto const& sec : specs.sentences) {
    auto p = prose.find(sec.section);
    if (p == prose.end()) continue;
    for (auto const& para : p->second.paragraphs)
      EXPECT_EQ(uncovered(para, sec.sentences), "")
          << sec.source << ": words no sentence of the inventory holds, in \"" << para
          << "\" (run harness/scripts/sentence_inventory.py)";
  }
}

TEST(Sentences, TheProseIsTheReferenceTextsOwn) {
  const char* env = std::getenv("PTXCTS_SHARED");
  const fs::path shared = env ? fs::path(env) : kSentencesSource.parent_path() / "shared";
  if (!fs::is_directory(shared / "reference/ptx-isa"))
    GTEST_SKIP() << shared << " is not here (a fresh clone): prose.txt is checked against it where it is";
  for (auto const& [section, p] : read_prose()) {
    ASSERT_TRUE(fs::exists(shared / p.file)) << p.file;
    EXPECT_EQ(prose_of(ptxcts::test::read_all(shared / p.file), p.part), p.paragraphs)
        << section << " (" << p.file << "): prose.txt is not the reference text's prose; run "
        << "harness/scripts/sentence_inventory.py";
  }
}

// The loader's checks, each at the entry's file:line:column.
std::string sentences_load_error(const std::string& from, const std::string& to) {
  try {
    ptxcts::load_specs(spec_files("sentences.yaml", from, to));
  } catch (const ptxcts::SpecError& e) { return e.what(); }
  return "(loaded)";
}

TEST(Sentences, EveryIdNamesAStatementOfItsJudge) {
  const std::string rule = "ptxas: [ldmatrix-m16n16-num, ldmatrix-m16n16-fmt-num]";
  EXPECT_TRUE(std::regex_search(sentences_load_error(rule, "ptxas: [no-such-rule]"),
                                std::regex(R"(sentences\.yaml:\d+:\d+: 'no-such-rule' names no statement ptxas)")))
      << sentences_load_error(rule, "ptxas: [no-such-rule]");
  // A rule is ptxas's, never the GPU's.
  EXPECT_TRUE(std::regex_search(sentences_load_error(rule, "gpu: [ldmatrix-m16n16-num]"),
                                std::regex(R"(sentences\.yaml:\d+:\d+: 'ldmatrix-m16n16-num' names no statement the GPU)")))
      << sentences_load_error(rule, "gpu: [ldmatrix-m16n16-num]");
  EXPECT_TRUE(std::regex_search(sentences_load_error(rule, rule + "\n        not_yet: \"both\""),
                                std::regex(R"(sentences\.yaml:\d+:\d+: .*expected what judges the sentence)")))
      << sentences_load_error(rule, rule + "\n        not_yet: \"both\"");
}

// The counts, against the inventory read here with yaml-cpp: every id judged, every mapped sentence
// is judged; none judged, every mapped sentence is elsewhere.
TEST(Sentences, CountsPerSectionAreTheInventorys) {
  const YAML::Node doc = YAML::LoadFile((kSentencesSource / "specs/sentences.yaml").string());
  std::map<std::string, std::array<std::size_t, 6>> want;  // sentences, descriptive, mapped, ptxas, gpu, gap
  ptxcts::JudgedIds all;
  for (auto const& sec : doc["sections"]) {
    auto& w = want[sec["section"].as<std::string>()];
    for (auto const& s : sec["sentences"]) {
      ++w[0];
      w[1] += s["descriptive"].IsDefined();
      w[2] += s["ptxas"].IsDefined() || s["gpu"].IsDefined();
      w[3] += s["ptxas"].IsDefined();
      w[4] += s["gpu"].IsDefined();
      w[5] += s["not_yet"].IsDefined();
      for (auto const& id : s["ptxas"]) all.ptxas.insert(id.as<std::string>());
      for (auto const& id : s["gpu"]) all.gpu.insert(id.as<std::string>());
    }
  }
  const auto& specs = ptxcts::test::loaded_specs();
  const auto judged = ptxcts::count_sentences(specs, all), none = ptxcts::count_sentences(specs, {});
  ASSERT_EQ(judged.size(), want.size());
  for (std::size_t i = 0; i < judged.size(); ++i) {
    auto const& w = want.at(judged[i].section);
    EXPECT_EQ(judged[i].sentences, w[0]) << judged[i].section;
    EXPECT_EQ(judged[i].checkable(), w[0] - w[1]) << judged[i].section;
    EXPECT_EQ(judged[i].judged, w[2]) << judged[i].section;
    EXPECT_EQ(judged[i].by_ptxas, w[3]) << judged[i].section;
    EXPECT_EQ(judged[i].by_gpu, w[4]) << judged[i].section;
    EXPECT_EQ(judged[i].not_yet, w[5]) << judged[i].section;
    EXPECT_EQ(none[i].judged, 0u) << none[i].section;
    EXPECT_EQ(none[i].elsewhere, w[2]) << none[i].section;
  }
}

}  // namespace

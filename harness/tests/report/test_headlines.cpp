// Issue 41: headlines that add up. Every count line ("TOTAL NOUN: N1 PART1, N2 PART2, ...") on the
// console, the pages and the Markdown is parsed, and its parts must be disjoint, named, and sum to its
// total; the total and the parts are checked against the report data (counted here, from the JSON or
// the reports), never against the writer's own counts.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "commands/run_console.hpp"
#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/run/report_diff.hpp"
#include "report/run/report_markdown.hpp"
#include "report/run/report_merge.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;

namespace {

long long headline_number(std::string s) {
  std::erase(s, ',');
  return std::stoll(s);
}

// "357 findings: 0 not expected by the specs, 66 known, 291 for information": the total, its noun, and
// each part (its number and its words), the parts running to the next ';', '.' or '(' or the end.
struct CountLine {
  long long total = -1;
  std::string noun;
  std::vector<std::pair<long long, std::string>> parts;
  long long sum() const {
    long long s = 0;
    for (auto const& [n, _] : parts) s += n;
    return s;
  }
  std::vector<std::string> words() const {
    std::vector<std::string> w;
    for (auto const& [_, words] : parts) w.push_back(words);
    return w;
  }
};

// The count line of `text` whose noun starts with `noun`; total -1 where there is none.
CountLine count_line(const std::string& text, const std::string& noun) {
  static const std::regex head("([0-9][0-9,]*) ([a-z][a-z ]*?): ");
  // A part: its number, its words (to a ',' ';' '.' ':' '(' or the line's end), an aside in
  // parentheses after them, then ", " to the next part or anything else to the end of the line.
  static const std::regex part("^([0-9][0-9,]*) ([^,;.(:\n]*[^,;.(:\n ])(?: \\([^)]*\\))?(, |$|[;.\n]| )");
  CountLine c;
  for (std::sregex_iterator it(text.begin(), text.end(), head), end; it != end; ++it) {
    if (!(*it)[2].str().starts_with(noun)) continue;
    c.total = headline_number((*it)[1]);
    c.noun = (*it)[2];
    std::string rest = text.substr(static_cast<std::size_t>(it->position() + it->length()));
    std::smatch m;
    while (std::regex_search(rest, m, part)) {
      c.parts.emplace_back(headline_number(m[1]), m[2]);
      if (m[3] != ", ") break;
      rest = m.suffix();
    }
    break;
  }
  return c;
}

CaseResult headline_result(const std::string& kernel, Status s, const std::string& layout = "") {
  CaseResult r;
  r.kernel = kernel;
  r.family = "ldmatrix";
  r.case_name = "c";
  r.status = s;
  r.observed_layout = layout;
  return r;
}

ClaimVerdict headline_claim(const std::string& id, Verdict v) {
  return {.id = id,
          .family = "ldmatrix",
          .text = "",
          .source = "",
          .note = "",
          .verdict = v,
          .evidence = "",
          .checked = {}};
}

}  // namespace

TEST(Headlines, TheParserReadsACountLine) {
  CountLine c = count_line("As expected: 7 findings: 2 not expected by the specs, 5 known (x); more.", "finding");
  EXPECT_EQ(c.total, 7);
  EXPECT_EQ(c.words(), (std::vector<std::string>{"not expected by the specs", "known"}));
  EXPECT_EQ(c.sum(), 7);
  EXPECT_EQ(count_line("no count here", "finding").total, -1);
}

// The check can fail: the lines issue 41 quotes, as the console and the audit page wrote them before,
// do not add up (332 of 357 findings; the page's parts leave out the third).
TEST(Headlines, TheLinesIssue41QuotesDoNotAddUp) {
  CountLine console = count_line(
      "Toolkit audit (ptxas 13.0.88): 357 findings: 0 not expected by the specs, 66 known, 266 undocumented forms "
      "accepted",
      "finding");
  EXPECT_EQ(console.total, 357);
  EXPECT_NE(console.sum(), console.total);
  CountLine page = count_line(
      "As the specs expect: ...; none of its 357 findings: 66 known discrepancies, 291 for "
      "information is unexpected.",
      "finding");
  EXPECT_NE(page.words(),
            (std::vector<std::string>{"not expected by the specs", "known discrepancies", "for information"}));
}

// `ptxcts diff`: every kind of change once, each of the three count lines adds up to the changes the
// two reports differ by, counted here by comparing them.
TEST(Headlines, TheDiffsCountsAddUp) {
  RunReport a, b;
  a.results = {headline_result("worse", Status::Pass),
               headline_result("lost", Status::Fail),
               headline_result("gone", Status::Pass),
               headline_result("other", Status::Fail),
               headline_result("same", Status::Pass),
               headline_result("wmma1", Status::Pass, "lane 0\n"),
               headline_result("wmma2", Status::Pass, "lane 0\n")};
  b.results = {headline_result("worse", Status::Crash), headline_result("other", Status::Pass),
               headline_result("new", Status::Pass),    headline_result("same", Status::Pass),
               headline_result("wmma1", Status::Pass),  headline_result("wmma2", Status::Pass, "lane 1\n")};
  b.withdrawn = {{.what = "gone / c", .reason = "renamed"}};
  a.claims = {headline_claim("c1", Verdict::Confirmed), headline_claim("c2", Verdict::Contradicted),
              headline_claim("c3", Verdict::Confirmed), headline_claim("c4", Verdict::Observed)};
  b.claims = {headline_claim("c1", Verdict::Contradicted), headline_claim("c2", Verdict::Confirmed),
              headline_claim("c4", Verdict::Confirmed), headline_claim("c5", Verdict::Confirmed)};
  // What differs, counted from the reports: a case present in either with another outcome or absent.
  std::map<std::string, std::pair<std::string, std::string>> cases, claims;
  for (auto const& r : a.results) cases[r.kernel].first = token(outcome_of(r));
  for (auto const& r : b.results) cases[r.kernel].second = token(outcome_of(r));
  for (auto const& c : a.claims) claims[c.id].first = to_string(c.verdict);
  for (auto const& c : b.claims) claims[c.id].second = to_string(c.verdict);
  auto differing = [](auto const& m) {
    long long n = 0;
    for (auto const& [_, v] : m) n += v.first != v.second;
    return n;
  };
  const std::string text = format_diff(diff_reports(a, b), {.quiet = true, .gate_docs = false});
  CountLine c = count_line(text, "changed");
  EXPECT_EQ(c.total, differing(cases)) << text;
  EXPECT_EQ(c.sum(), c.total) << text;
  EXPECT_EQ(c.words(), (std::vector<std::string>{"worse", "lost", "withdrawn", "new", "other"}));
  CountLine k = count_line(text.substr(text.find("Claims: ")), "changed");
  EXPECT_EQ(k.total, differing(claims)) << text;
  EXPECT_EQ(k.sum(), k.total) << text;
  CountLine l = count_line(text.substr(text.find("Layouts: ")), "changed");
  EXPECT_EQ(l.total, 2) << text;  // wmma1's lost, wmma2's differs
  EXPECT_EQ(l.sum(), l.total) << text;
  // The verdict: the regressions are the cases worse or lost and the layouts lost: 1 + 1 + 1.
  CountLine v = count_line(text, "case regression");
  EXPECT_EQ(v.total, 3) << text;
  EXPECT_EQ(v.sum(), v.total) << text;
}

// The audit page's verdict, of the committed audit report: its findings in three named parts, each
// counted here from the JSON (fails_audit; known_discrepancy; the rest), adding up to all of them.
TEST(Headlines, TheAuditPagesFindingsAddUp) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/audit-cuda13.0.json.gz";
  const nlohmann::json audit = nlohmann::json::parse(read_file_text(path));
  long long unexpected = 0, known = 0;
  for (auto const& f : audit["findings"]) {
    unexpected += f["fails_audit"].get<bool>();
    known += !f["fails_audit"].get<bool>() && !f.value("known_discrepancy", std::string()).empty();
  }
  pugi::xml_document doc;
  const std::string html = audit_html(parse_audit_report(read_file_text(path), path));
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  const std::string verdict = doc.select_node("//p[@id='verdict']").node().child_value();
  CountLine c = count_line(verdict, "finding");
  EXPECT_EQ(c.total, static_cast<long long>(audit["findings"].size())) << verdict;
  EXPECT_EQ(c.words(),
            (std::vector<std::string>{"not expected by the specs", "known discrepancies", "for information"}))
      << verdict;
  ASSERT_EQ(c.parts.size(), 3u) << verdict;
  EXPECT_EQ(c.parts[0].first, unexpected);
  EXPECT_EQ(c.parts[1].first, known);
  EXPECT_EQ(c.sum(), c.total) << verdict;
}

// The toolkits page opens with its verdict: the toolkits of the committed matrix, as the specs expect
// or not, counted here from the JSON's toolkits (their findings that fail the audit).
TEST(Headlines, TheToolkitsPageOpensWithItsVerdictThatAddsUp) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/toolkits.json.gz";
  const std::string text = read_file_text(path);
  const nlohmann::json j = nlohmann::json::parse(text);
  const std::string html = toolkit_matrix_html(parse_matrix_file(text, path));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  pugi::xml_node first = doc.select_node("//body/*[not(self::h1)][1]").node();
  EXPECT_EQ(std::string(first.attribute("id").value()), "verdict");
  const std::string verdict = first.child_value();
  CountLine c = count_line(verdict, "toolkit");
  EXPECT_EQ(c.total, static_cast<long long>(j["toolkits"].size())) << verdict;
  long long failing = 0;
  for (auto const& t : j["toolkits"]) failing += t["contradictions"].get<long long>() > 0;
  ASSERT_EQ(c.parts.size(), 2u) << verdict;
  EXPECT_EQ(c.parts[1].first, failing) << verdict;
  EXPECT_EQ(c.sum(), c.total) << verdict;
}

// The console's audit line and a run without a GPU's last line: findings and claims, every verdict
// counted (an observed claim too), adding up.
TEST(Headlines, TheConsolesAuditAndToolkitSideLinesAddUp) {
  KnownDiscrepancy k;
  Audit audit;
  audit.ptxas_version = "13.0.88";
  audit.findings.resize(5);
  audit.findings[0].known = &k;                             // known
  audit.findings[1].undocumented = true;                    // for information
  audit.findings[2].cls = FindingClass::DocumentsDisagree;  // for information
  audit.findings[3].undocumented = true;                    // for information, and known
  audit.findings[3].known = &k;
  audit.findings[4].cls = FindingClass::DocumentError;  // not expected
  CountLine f = count_line(finding_counts(audit), "finding");
  EXPECT_EQ(f.total, 5);
  EXPECT_EQ(f.sum(), 5) << finding_counts(audit);
  EXPECT_EQ(f.parts[0].first, 1);  // the document error alone fails the audit

  std::vector<ClaimVerdict> claims = {
      headline_claim("a", Verdict::Confirmed), headline_claim("b", Verdict::Contradicted),
      headline_claim("c", Verdict::Observed), headline_claim("d", Verdict::NotCheckable),
      headline_claim("e", Verdict::NotCheckable)};
  std::FILE* out = std::tmpfile();
  ASSERT_TRUE(out);
  print_toolkit_side_end(out, claims, Verbosity::Quiet, "r/no-gpu-cuda13.0.xml");
  std::rewind(out);
  std::string said;
  for (int ch; (ch = std::fgetc(out)) != EOF;) said += static_cast<char>(ch);
  std::fclose(out);
  std::erase(said, '\n');
  while (said.find("  ") != std::string::npos) said.replace(said.find("  "), 2, " ");  // unwrapped
  CountLine c = count_line(said, "documentation claim");
  EXPECT_EQ(c.total, 5) << said;
  EXPECT_EQ(c.sum(), 5) << said;
}

// The fleet's verdict (the page's first line, `merge`'s console): the aligned runs in parts.
TEST(Headlines, TheFleetsVerdictAddsUp) {
  RunReport good, bad;
  good.results = {headline_result("k", Status::Pass)};
  bad.results = {headline_result("k", Status::Fail)};
  good.info.gpu_name = "A";
  bad.info.gpu_name = "B";
  RunReport other = good;
  other.info.gpu_name = "C";
  Fleet f = merge_reports({good, bad, other});
  const std::string verdict = fleet_verdict(f).first;
  CountLine c = count_line(verdict, "aligned run");
  EXPECT_EQ(c.total, static_cast<long long>(f.aligned_count())) << verdict;
  EXPECT_EQ(c.sum(), c.total) << verdict;
  EXPECT_EQ(c.parts[0].first, 1) << verdict;  // the one that fails needs action
}

// merge exits 1 for a column not aligned (another suite commit or specs), so the fleet's verdict
// never says "Conforms" then: two aligned runs that conform beside one of another commit read
// "Conforms: 2 aligned runs: ..." with exit 1 (the H200 merge of issue 41's note).
TEST(Headlines, AFleetWithARunNotAlignedDoesNotSayItConforms) {
  RunReport good;
  good.results = {headline_result("k", Status::Pass)};
  good.info.gpu_name = "A";
  RunReport twin = good, other = good;
  twin.info.gpu_name = "B";
  other.info.gpu_name = "C";
  other.info.suite_commit = "0000000";
  Fleet f = merge_reports({good, twin, other});
  ASSERT_EQ(f.aligned_count(), 2u);
  const auto [verdict, tone] = fleet_verdict(f);
  EXPECT_EQ(tone, VerdictTone::DoesNotConform) << verdict;
  EXPECT_TRUE(verdict.starts_with("Does not conform: 2 aligned runs: 0 need action, 2 conform, 0 checked nothing; "
                                  "1 run not aligned (another suite commit or specs: not compared); "))
      << verdict;
  CountLine c = count_line(verdict, "aligned run");
  EXPECT_EQ(c.sum(), c.total) << verdict;
  // And with every run aligned, the same two conform.
  EXPECT_EQ(fleet_verdict(merge_reports({good, twin})).second, VerdictTone::Conforms);
}

// The Markdown's cases line ("**Cases:** 5,415 (1,498 kernels, each with its cases): 4,443 passed, ...")
// of a report with every kind of outcome: the outcomes add up to the report's results.
TEST(Headlines, TheMarkdownsCasesAddUp) {
  const std::string path = std::string(PTXCTS_TEST_DATA) + "/reports/html-page.json";
  const RunReport report = parse_report_json(read_file_text(path), path);
  std::string md = report_markdown(report);
  md = md.substr(md.find("**Cases:** ") + 11);
  md = md.substr(0, md.find('\n'));
  const std::size_t open = md.find(" ("), close = md.find("):");
  ASSERT_NE(close, std::string::npos) << md;
  md = md.substr(0, open) + " cases" + md.substr(close + 1);  // "5,415 cases: 4,443 passed, ..."
  CountLine c = count_line(md, "cases");
  EXPECT_EQ(c.total, static_cast<long long>(report.results.size())) << md;
  EXPECT_GE(c.parts.size(), 3u) << md;
  EXPECT_EQ(c.sum(), c.total) << md;
}

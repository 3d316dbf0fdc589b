// The toolkit matrix: what changed between two toolkits' audits (by the definitions: a verdict
// compared only on targets both know, a target one lacks is no change of verdict, messages without
// what differs from probe to probe), the audit report read back exactly as written and refused with
// FILE:LINE:COLUMN where it is not an audit report, and the matrix's reports.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "report/audit/audit_report_reader.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "report/toolkits/toolkit_matrix_report.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;

namespace {

const std::string kAudits = std::string(PTXCTS_TEST_DATA) + "/audits/";

std::string read_report_text(const std::string& path) { return read_file_text(path); }  // the committed ones are .json.gz

AuditSummary audit(const std::string& release, std::vector<std::string> targets) {
  AuditSummary a;
  a.file = "audit-cuda" + release + ".json";
  a.cuda_release = release;
  a.ptxas_version = release + ".1";
  a.ptx_isa = "8.0";
  a.targets = targets;
  a.ptxas_targets = targets;
  return a;
}

std::vector<std::string> kinds(const PairChanges& c) {
  std::vector<std::string> out;
  for (auto const& x : c.changes) out.push_back(x.kind + " | " + x.what + " | " + x.before + " | " + x.after);
  return out;
}

std::string audit_error_of(const std::string& text) {
  try {
    parse_audit_report(text, "a.json");
  } catch (const JsonInputError& e) { return e.what(); }
  return "(accepted)";
}

}  // namespace

TEST(ToolkitMatrix, VerdictsAreComparedOnlyOnTargetsBothKnow) {
  AuditSummary a = audit("11.8", {"sm_70", "sm_75", "sm_90"});
  AuditSummary b = audit("12.0", {"sm_75", "sm_90", "sm_90a"});
  b.ptx_isa = "8.0";
  a.ptx_isa = "7.8";
  // Accepted on sm_70 (gone in b) and rejected on sm_90a (new in b): neither is a change of verdict.
  a.grammar.push_back({"blk", "form.one", "documented-valid", "++-", ""});
  b.grammar.push_back({"blk", "form.one", "documented-valid", "+--", "sm_90a: ptxas probe.ptx, line 4; error   : x"});
  // Rejected on sm_75 before, accepted after: newly accepted on sm_75 only.
  a.grammar.push_back(
      {"blk", "form.two", "undocumented", "---", "sm_70: ptxas probe.ptx, line 3; error   : Old words"});
  b.grammar.push_back(
      {"blk", "form.two", "undocumented", "+--", "sm_90: ptxas probe.ptx, line 9; error   : New  words"});
  a.findings.push_back({"f/gone", "document-error", "s", "rejected: sm_75: error   : no", "", false, true, 1, {}});
  b.findings.push_back({"f/new", "toolkit-accepts", "s", "accepted", "", true, false, 2, {}});
  a.statements.push_back({"r1", "rule", "confirmed", "all rejected"});
  b.statements.push_back({"r1", "rule", "contradicted", "one accepted"});
  a.forms.push_back(
      {"bad-form", "sm_100a", "x.y", "not-checkable", "sm_100a: not known to this toolkit", false, false});
  b.forms.push_back({"bad-form", "sm_100a", "x.y", "confirmed", "rejected as documented", true, false});
  PairChanges c = compare_audits(a, b);
  EXPECT_EQ(kinds(c),
            (std::vector<std::string>{
                "ptx isa | newest PTX ISA version | 7.8 | 8.0",
                "target added | sm_90a | not known | known",
                "target removed | sm_70 | known | not known",
                // form.one changed on no target both know; form.two on sm_75.
                "form newly accepted | form.two | rejected (undocumented) | accepted on sm_75",
                "message changed | 1 form, e.g. form.two | error : Old words | error : New words",
                "finding appeared | f/new | (none) | 2 forms: accepted",
                "finding fixed | f/gone | 1 form, fails the audit: rejected: error : no | (none)",
                "statement verdict | rule r1 | confirmed: all rejected | contradicted: one accepted",
                "hand-listed form | bad-form (x.y) | sm_100a not known to this toolkit | rejected (confirmed)",
            }));
  // The same audit twice: nothing changed.
  EXPECT_TRUE(compare_audits(b, b).changes.empty());
}

TEST(ToolkitMatrix, ColumnsByReleaseAndTwoOfOneReleaseRefused) {
  ToolkitMatrix m = build_matrix(
      {audit("13.0", {"sm_75"}), audit("11.8", {"sm_75"}), audit("12.10", {"sm_75"}), audit("12.9", {"sm_75"})});
  std::vector<std::string> order;
  for (auto const& c : m.columns) order.push_back(c.cuda_release);
  EXPECT_EQ(order, (std::vector<std::string>{"11.8", "12.9", "12.10", "13.0"}));  // by number, not by text
  ASSERT_EQ(m.steps.size(), 3u);
  EXPECT_EQ(m.steps[1].from, "12.9");
  EXPECT_EQ(m.steps[1].to, "12.10");
  EXPECT_THROW(build_matrix({audit("12.4", {}), audit("12.4", {})}), std::invalid_argument);
}

TEST(AuditReportReader, ReadsTheCommittedReportAsItsSummarySays) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/audit-cuda13.0.json.gz";
  AuditSummary a = parse_audit_report(read_report_text(path), path);
  auto j = nlohmann::json::parse(read_report_text(path));  // the counts the report states of itself
  EXPECT_EQ(a.cuda_release, j["run"]["cuda_release"]);
  EXPECT_EQ(a.findings.size(), j["summary"]["findings"].get<std::size_t>());
  EXPECT_EQ(a.grammar.size(), j["grammar"].size());
  EXPECT_EQ(a.statements.size(), j["statements"].size());
  EXPECT_EQ(a.requirements.size(), j["requirements"].size());
  EXPECT_EQ(a.probes, j["summary"]["probes"].get<std::size_t>());
  for (auto const& g : a.grammar) EXPECT_EQ(g.verdicts.size(), a.targets.size());
}

TEST(AuditReportReader, RefusesWhatIsNotAnAuditReportWithItsPlace) {
  const std::string good = read_report_text(kAudits + "cuda13.0.json");
  EXPECT_EQ(audit_error_of(good), "(accepted)");
  EXPECT_EQ(audit_error_of(read_report_text(kAudits + "short-verdicts.json")),
            "a.json:240:16: grammar[1].verdicts: expected one verdict per target (3), got 2");
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_EQ(audit_error_of(variant("\"schema_version\": 3", "\"schema_version\": 7")),
            "a.json:2:20: schema_version: expected 2 to 6 (the audit report schemas this build reads), got 7");
  // Schema 4 has the coverage per kind of question: one without it is refused, at its place.
  EXPECT_EQ(audit_error_of(variant("\"schema_version\": 3", "\"schema_version\": 4")),
            "a.json:1:1: top level: missing key \"coverage\"");
  EXPECT_EQ(audit_error_of(variant("\"ptx_isa\": \"9.0\",", "\"ptx_isa\": \"9.0\", \"gpu\": 1,")),
            "a.json:6:28: run.gpu: unknown key \"gpu\"; expected one of cuda_release, ptxas_version, ptx_isa, "
            "targets, ptxas_targets, host, date, suite_version, suite_commit");
  EXPECT_EQ(audit_error_of(variant("\"fails_audit\": false", "\"fails_audit\": \"no\"")).substr(0, 55),
            "a.json:46:19: findings[0].fails_audit: expected true or");
  EXPECT_EQ(audit_error_of(variant("\"forms\": 1,", "\"forms\": 1e400,")).rfind("a.json:", 0), 0u);
  EXPECT_EQ(audit_error_of(std::string(100, '[')).substr(0, 38), "a.json:1:65: nested more than 64 deep;");
  EXPECT_EQ(audit_error_of(good.substr(0, 300)).rfind("a.json:", 0), 0u);
}

TEST(AuditReportReader, ReadsBackWhatTheWriterWrote) {
  Audit a;
  a.cuda_release = "12.4";
  a.ptxas_version = "12.4.131";
  a.toolkit_ptx = {8, 4};
  a.targets = {"sm_75", "sm_90"};
  a.ptxas_targets = {"sm_50", "sm_75", "sm_90"};
  a.findings.push_back({.id = "toolkit-accepts/rule/r",
                        .cls = FindingClass::ToolkitAccepts,
                        .undocumented = false,
                        .subject = "r",
                        .words = "w",
                        .source = "s",
                        .observed = "accepted",
                        .targets = {"sm_90"},
                        .forms = 4,
                        .example = "e",
                        .known = nullptr});
  a.statements.push_back({.id = "r",
                          .kind = "rule",
                          .family = "ldmatrix",
                          .words = "w",
                          .source = "s",
                          .verdict = Verdict::Contradicted,
                          .evidence = "ev",
                          .forms = 4});
  AuditPlan plan;
  AuditRun run{.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"};
  AuditSummary s = parse_audit_report(audit_json(a, plan, {}, run), "w.json");
  EXPECT_EQ(s.cuda_release, "12.4");
  EXPECT_EQ(s.ptx_isa, "8.4");
  EXPECT_EQ(s.ptxas_targets, a.ptxas_targets);
  ASSERT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0].forms, 4u);
  EXPECT_TRUE(s.findings[0].fails);
  ASSERT_EQ(s.statements.size(), 1u);
  EXPECT_EQ(s.statements[0].verdict, "contradicted");
}

TEST(ToolkitMatrixReport, OpensWithWhatChangedThenSideBySide) {
  AuditSummary a = parse_audit_report(read_report_text(kAudits + "cuda13.0.json"), "audit-cuda13.0.json");
  AuditSummary b = parse_audit_report(read_report_text(kAudits + "cuda13.5.json"), "audit-cuda13.5.json");
  ToolkitMatrix m = build_matrix({b, a});
  AuditRun run{.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"};
  std::string md = matrix_markdown(m, run);
  auto changed = md.find("## What changed"), step = md.find("### CUDA 13.0 -> 13.5"),
       findings = md.find("## Findings, side by side"), forms = md.find("## Forms of the grammar");
  ASSERT_NE(changed, std::string::npos);
  EXPECT_LT(changed, step);
  EXPECT_LT(step, findings);
  EXPECT_LT(findings, forms);
  EXPECT_NE(md.find("| `toolkit-accepts-undocumented/syntax/made-up-block` | — | 2 forms, undocumented |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| rule ldmatrix-m16n16-num | confirmed | contradicted |"), std::string::npos) << md;
  auto j = nlohmann::json::parse(matrix_json(m, run));
  EXPECT_EQ(j["toolkits"][0]["cuda_release"], "13.0");
  EXPECT_EQ(j["changes"][0]["counts"]["finding appeared"], 1);
  EXPECT_EQ(j["grammar"][0]["verdicts"]["13.5"], "+-+");
  EXPECT_EQ(j["findings"].size(), 4u);  // three in 13.0, one of them gone, one new
}

namespace {

// The matrix of the two test audits, as `ptxcts audit` writes it.
std::string test_matrix_json() {
  AuditSummary a = parse_audit_report(read_report_text(kAudits + "cuda13.0.json"), "audit-cuda13.0.json");
  AuditSummary b = parse_audit_report(read_report_text(kAudits + "cuda13.5.json"), "audit-cuda13.5.json");
  return matrix_json(build_matrix({a, b}), {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
}

// FILE:LINE:COLUMN of the first character of `what` in `text`, counted here (lines and columns from 1).
std::string place_of(const std::string& text, const std::string& what) {
  const auto at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what;
  const auto line_start = text.rfind('\n', at);
  const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1;
  return fmt::format("t.json:{}:{}", line, at - (line_start == std::string::npos ? 0 : line_start + 1) + 1);
}

std::string matrix_error_of(const std::string& text) {
  try {
    parse_matrix_file(text, "t.json");
  } catch (const JsonInputError& e) { return e.what(); }
  return "(accepted)";
}

}  // namespace

TEST(ToolkitMatrixReader, ReadsBackWhatTheWriterWrote) {
  MatrixFile m = parse_matrix_file(test_matrix_json(), "t.json");
  ASSERT_EQ(m.toolkits.size(), 2u);
  EXPECT_EQ(m.toolkits[0].toolkit.cuda_release, "13.0");
  EXPECT_EQ(m.toolkits[1].toolkit.ptxas_version, "13.5.37");
  ASSERT_EQ(m.steps.size(), 1u);
  // The eight changes `ptxcts diff` of the two audits prints (CTest cli.diff-audits).
  EXPECT_EQ(m.steps[0].changes.size(), 8u);
  EXPECT_EQ(m.steps[0].count("finding appeared"), 1u);
  ASSERT_EQ(m.findings.size(), 4u);  // three in 13.0, one of them gone in 13.5, one new
  std::size_t only_one = 0;
  for (auto const& f : m.findings) only_one += f.per[0].has_value() != f.per[1].has_value();
  EXPECT_EQ(only_one, 2u);
  ASSERT_EQ(m.grammar.size(), 3u);
  EXPECT_EQ(*m.grammar[0].verdicts[1], "+-+");
  EXPECT_EQ(m.run.host, "h");
}

TEST(ToolkitMatrixReader, ReadsTheCommittedMatrix) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/toolkits.json.gz";
  const std::string text = read_report_text(path);
  MatrixFile m = parse_matrix_file(text, path);
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(m.toolkits.size(), j["toolkits"].size());
  EXPECT_EQ(m.steps.size(), m.toolkits.size() - 1);
  EXPECT_EQ(m.grammar.size(), j["grammar"].size());
  EXPECT_EQ(m.statements.size(), j["statements"].size());
}

TEST(ToolkitMatrixReader, RefusesACorruptMatrixWithItsPlace) {
  const std::string good = test_matrix_json();
  EXPECT_EQ(matrix_error_of(good), "(accepted)");
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  // Not JSON: cut in the middle.
  EXPECT_EQ(matrix_error_of(good.substr(0, 200)).rfind("t.json:", 0), 0u);
  EXPECT_NE(matrix_error_of(good.substr(0, 200)).find(": invalid JSON: "), std::string::npos);
  std::string bad = variant("\"schema_version\": 1", "\"schema_version\": 2");
  EXPECT_EQ(matrix_error_of(bad),
            place_of(bad, "2,") + ": schema_version: expected 1 (the toolkit matrix schema this build reads), got 2");
  bad = variant("\"probes\":", "\"gpu\": 1, \"probes\":");
  EXPECT_EQ(matrix_error_of(bad).rfind(
                place_of(bad, "1, \"probes") + ": toolkits[0].gpu: unknown key \"gpu\"; expected one", 0),
            0u)
      << matrix_error_of(bad);
  // A side-by-side row without a column of one toolkit.
  bad = variant("\"13.5\": \"+-+\"", "\"13.6\": \"+-+\"");
  EXPECT_NE(matrix_error_of(bad).find(": grammar[0].verdicts.13.6: unknown key \"13.6\"; expected one of 13.0, 13.5"),
            std::string::npos)
      << matrix_error_of(bad);
  bad = variant("\"13.5\": \"+-+\"", "\"13.5\": \"+-\"");
  EXPECT_EQ(
      matrix_error_of(bad),
      place_of(bad, "\"+-\"") + ": grammar[0].verdicts.13.5: expected one verdict per target of CUDA 13.5 (3), got 2");
  // The counts must be those of the list.
  bad = variant("\"finding appeared\": 1", "\"finding appeared\": 2");
  EXPECT_EQ(matrix_error_of(bad), place_of(bad, "2,\n") +
                                      ": changes[0].counts.finding appeared: expected the count of \"finding "
                                      "appeared\" to be 1 (the changes listed), got 2");
  bad = variant("\"kind\": \"finding appeared\"", "\"kind\": \"finding vanished\"");
  EXPECT_EQ(matrix_error_of(bad).rfind(place_of(bad, "\"finding vanished") +
                                           ": changes[0].changes[5].kind: expected a kind of change (ptx isa, target ",
                                       0),
            0u)
      << matrix_error_of(bad);
  bad = variant("\"from\": \"13.0\"", "\"from\": \"12.9\"");
  EXPECT_NE(matrix_error_of(bad).find(
                ": changes[0]: expected the change from CUDA 13.0 to 13.5 (consecutive toolkits), got 12.9 to 13.5"),
            std::string::npos);
}

TEST(ToolkitMatrixPage, ToolkitsThenChangesThenSideBySideAColumnPerToolkit) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/toolkits.json.gz";
  const auto j = nlohmann::json::parse(read_report_text(path));  // what the page must show, counted from the JSON
  const std::string html = toolkit_matrix_html(parse_matrix_file(read_report_text(path), path));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  std::vector<std::string> ids;
  for (auto s : doc.select_nodes("//section")) ids.push_back(s.node().attribute("id").value());
  // The SASS between releases comes after the changes where the matrix has it (sass_changes).
  std::vector<std::string> want = {"toolkits",     "changes", "findings",      "statements",
                                   "requirements", "forms",   "matrix-section"};
  if (j.contains("sass_changes") && !j["sass_changes"].empty()) want.insert(want.begin() + 2, "sass");
  EXPECT_EQ(ids, want);
  if (j.contains("sass_changes")) {  // a heading per pair of releases with SASS reports
    EXPECT_EQ(doc.select_nodes("//section[@id='sass']/h3").size(), j["sass_changes"].size());
  }
  const std::size_t n = j["toolkits"].size();
  EXPECT_EQ(doc.select_nodes("//table[@id='toolkit-columns']/thead/tr/th").size(), n + 1);
  EXPECT_EQ(doc.select_nodes("//table[@id='matrix']/thead/tr/th").size(), n + 2);
  EXPECT_EQ(doc.select_nodes("//table[@id='matrix']/tbody/tr").size(), j["grammar"].size());
  EXPECT_EQ(doc.select_nodes("//table[@id='matrix']/tbody/tr/td").size(), j["grammar"].size() * (n + 2));
  EXPECT_EQ(doc.select_nodes("//table[@id='statements-columns']/tbody/tr").size(), j["statements"].size());
  std::size_t changes = 0;
  for (auto const& s : j["changes"]) changes += s["changes"].size();
  EXPECT_EQ(doc.select_nodes("//section[@id='changes']//tbody/tr").size(), changes);
}

// The page names toolkits and disassemblers by release and version: the auditing machine's paths
// (where it found ptxas and nvdisasm) are at most in a tooltip, never in the text; long target lists
// read folded, the whole list in the tooltip.
TEST(ToolkitMatrixPage, NoMachinePathsInTheTextTargetListsFolded) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/toolkits.json.gz";
  const auto j = nlohmann::json::parse(read_report_text(path));
  const std::string html = toolkit_matrix_html(parse_matrix_file(read_report_text(path), path));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  std::string text;
  for (auto t : doc.select_nodes("//body//text()")) text += std::string(t.node().value()) + "\n";
  std::set<std::string> paths;  // "/work/tk/cuda-11.8/bin/ptxas", as the JSON has them
  if (j.contains("sass_changes"))
    for (auto const& st : j["sass_changes"])
      for (auto const& d : st["disassemblers"]) {
        const std::string s = d.get<std::string>();
        for (std::size_t at = s.find(" /"); at != std::string::npos; at = s.find(" /", at + 1))
          paths.insert(s.substr(at + 1, s.find_first_of(" );", at + 1) - at - 1));
      }
  EXPECT_FALSE(paths.empty()) << "the committed matrix names where its disassemblers were";
  for (auto const& p : paths) EXPECT_EQ(text.find(p), std::string::npos) << p << " in the page's text";
  // A column per toolkit: its targets folded where there are five or more.
  auto cells = doc.select_nodes("//table[@id='toolkit-columns']/tbody/tr[td[1]='Targets']/td[position() > 1]");
  ASSERT_EQ(cells.size(), j["toolkits"].size());
  for (std::size_t k = 0; k < cells.size(); ++k) {
    auto const& targets = j["toolkits"][k]["targets"];
    ASSERT_GE(targets.size(), 5u);
    pugi::xml_node abbr = cells[k].node().child("abbr");
    EXPECT_EQ(std::string(abbr.text().get()),
              targets.front().get<std::string>() + " \u2026 " + targets.back().get<std::string>() + " (" +
                  std::to_string(targets.size()) + " targets)");
    const std::string whole = abbr.attribute("title").value();
    EXPECT_EQ(static_cast<std::size_t>(std::count(whole.begin(), whole.end(), ',')), targets.size() - 1);
  }
}

TEST(ToolkitMatrixPage, FormsWhoseVerdictChangedComeFirstMarked) {
  AuditSummary a = audit("12.0", {"sm_75", "sm_90"});
  AuditSummary b = audit("12.4", {"sm_75", "sm_90"});
  // form.one the same in both; form.two rejected on sm_75 in 12.0, accepted in 12.4; form.three only in 12.4.
  a.grammar.push_back({"ldmatrix.shape", "form.one", "documented-valid", "++", ""});
  b.grammar.push_back({"ldmatrix.shape", "form.one", "documented-valid", "++", ""});
  a.grammar.push_back({"stmatrix.shape", "form.two", "undocumented", "-+", "sm_75: error   : x"});
  b.grammar.push_back({"stmatrix.shape", "form.two", "undocumented", "++", ""});
  b.grammar.push_back({"stmatrix.shape", "form.three", "undocumented", "--", "sm_75: error   : y"});
  const std::string json =
      matrix_json(build_matrix({a, b}), {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
  const std::string html = toolkit_matrix_html(parse_matrix_file(json, "t.json"));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  std::vector<std::string> rows;
  for (auto r : doc.select_nodes("//table[@id='matrix']/tbody/tr"))
    rows.push_back(std::string(r.node().attribute("data-name").value()) + " " + r.node().attribute("class").value() +
                   " " + r.node().attribute("data-family").value());
  EXPECT_EQ(rows,
            (std::vector<std::string>{"form.two differs stmatrix", "form.one  ldmatrix", "form.three  stmatrix"}));
  // Cells: accepted on how many of the toolkit's targets; none where the toolkit lacks the form.
  std::vector<std::string> three;
  for (auto td : doc.select_nodes("//table[@id='matrix']/tbody/tr[@data-name='form.three']/td"))
    three.push_back(std::string(td.node().text().get()) + "|" + td.node().attribute("class").value());
  EXPECT_EQ(three,
            (std::vector<std::string>{"form.three|form mono", "stmatrix.shape|mono", "—|untested", "0/2|rejected"}));
  std::vector<std::string> two;
  for (auto td : doc.select_nodes("//table[@id='matrix']/tbody/tr[@data-name='form.two']/td[position() > 2]"))
    two.push_back(std::string(td.node().text().get()) + "|" + td.node().attribute("class").value() + "|" +
                  td.node().attribute("title").value());
  EXPECT_EQ(two, (std::vector<std::string>{"1/2|partial|accepted on sm_90; rejected on sm_75", "2/2|accepted|"}));
}

// The toolkit matrix: what changed between two toolkits' audits (by the definitions: a verdict
// compared only on targets both know, a target one lacks is no change of verdict, messages without
// what differs from probe to probe), the audit report read back exactly as written and refused with
// FILE:LINE:COLUMN where it is not an audit report, and the matrix's reports.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "report/audit_report_reader.hpp"
#include "report/toolkit_matrix_report.hpp"

using namespace ptxcts;

namespace {

const std::string kAudits = std::string(PTXCTS_TEST_DATA) + "/audits/";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

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

std::string error_of(const std::string& text) {
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
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/audit-cuda13.0.json";
  AuditSummary a = parse_audit_report(read(path), path);
  auto j = nlohmann::json::parse(read(path));  // the counts the report states of itself
  EXPECT_EQ(a.cuda_release, j["run"]["cuda_release"]);
  EXPECT_EQ(a.findings.size(), j["summary"]["findings"].get<std::size_t>());
  EXPECT_EQ(a.grammar.size(), j["grammar"].size());
  EXPECT_EQ(a.statements.size(), j["statements"].size());
  EXPECT_EQ(a.requirements.size(), j["requirements"].size());
  EXPECT_EQ(a.probes, j["summary"]["probes"].get<std::size_t>());
  for (auto const& g : a.grammar) EXPECT_EQ(g.verdicts.size(), a.targets.size());
}

TEST(AuditReportReader, RefusesWhatIsNotAnAuditReportWithItsPlace) {
  const std::string good = read(kAudits + "cuda13.0.json");
  EXPECT_EQ(error_of(good), "(accepted)");
  EXPECT_EQ(error_of(read(kAudits + "short-verdicts.json")),
            "a.json:240:16: grammar[1].verdicts: expected one verdict per target (3), got 2");
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_EQ(error_of(variant("\"schema_version\": 3", "\"schema_version\": 4")),
            "a.json:2:20: schema_version: expected 2 to 3 (the audit report schemas this build reads), got 4");
  EXPECT_EQ(error_of(variant("\"ptx_isa\": \"9.0\",", "\"ptx_isa\": \"9.0\", \"gpu\": 1,")),
            "a.json:6:28: run.gpu: unknown key \"gpu\"; expected one of cuda_release, ptxas_version, ptx_isa, "
            "targets, ptxas_targets, host, date, suite_version, suite_commit");
  EXPECT_EQ(error_of(variant("\"fails_audit\": false", "\"fails_audit\": \"no\"")).substr(0, 55),
            "a.json:46:19: findings[0].fails_audit: expected true or");
  EXPECT_EQ(error_of(variant("\"forms\": 1,", "\"forms\": 1e400,")).rfind("a.json:", 0), 0u);
  EXPECT_EQ(error_of(std::string(100, '[')).substr(0, 38), "a.json:1:65: nested more than 64 deep;");
  EXPECT_EQ(error_of(good.substr(0, 300)).rfind("a.json:", 0), 0u);
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
  AuditSummary a = parse_audit_report(read(kAudits + "cuda13.0.json"), "audit-cuda13.0.json");
  AuditSummary b = parse_audit_report(read(kAudits + "cuda13.5.json"), "audit-cuda13.5.json");
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

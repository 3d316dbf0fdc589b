// The SASS reports: the table form x target (kernels of one form and the same cells share a row,
// targets with the same column share one, a kernel with none of the expected mnemonics is bold and
// listed first), its JSON read back, what changed between two releases for the matrix, and the run
// report showing the SASS beside a contradicted claim (and no SASS column for a report without).
#include <gtest/gtest.h>

#include "report/run/report_html.hpp"
#include "report/run/report_markdown.hpp"
#include "report/toolkits/sass_report.hpp"
#include "report/run/report_json.hpp"

using namespace ptxcts;

namespace {

SassReport::Row row(std::string kernel, std::string form, std::map<std::string, std::vector<std::string>> matched) {
  SassReport::Row r;
  r.kernel = std::move(kernel);
  r.family = "ldmatrix";
  r.form = std::move(form);
  r.expected = {"LDSM"};
  r.matched = std::move(matched);
  return r;
}

SassReport report(const std::string& release) {
  SassReport r;
  r.cuda_release = release;
  r.ptxas_version = release + ".1";
  r.disassembler = "cuobjdump 13.5.37";
  r.targets = {"sm_75", "sm_80", "sm_90"};
  SassExpectation e;
  e.family = "ldmatrix";
  e.operation_text = "load";
  e.mnemonics = {"LDSM"};
  e.source = "a test";
  e.assumed = true;
  r.expectations = {e};
  r.rows.push_back(row("x1_a32", "ldmatrix.x1", {{"sm_80", {"LDSM.16.M88"}}, {"sm_90", {"LDSM.16.M88"}}}));
  r.rows.back().rejected = {"sm_75"};
  r.rows.push_back(row("x1_a64", "ldmatrix.x1", {{"sm_80", {"LDSM.16.M88"}}, {"sm_90", {"LDSM.16.M88"}}}));
  r.rows.back().rejected = {"sm_75"};
  r.rows.push_back(row("x4_a64", "ldmatrix.x4", {{"sm_75", {}}, {"sm_80", {}}, {"sm_90", {"LDSM.16.M88.4"}}}));
  return r;
}

const AuditRun kRun{.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"};

}  // namespace

TEST(SassReport, RowsAndColumnsShareWhatIsAlikeAndNoneIsShownFirst) {
  std::string md = sass_report_markdown(report("13.0"), kRun);
  // sm_80's column differs from sm_90's (x4) and from sm_75's (x1 rejected): three columns, but the
  // two x1 kernels (one form, same cells) are one row.
  EXPECT_NE(md.find("| Form | Kernels | sm_75 | sm_80 | sm_90 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `ldmatrix.x1` | 2 | rejected | LDSM.16.M88 | LDSM.16.M88 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `ldmatrix.x4` | 1 | **none of LDSM** | **none of LDSM** | LDSM.16.M88.4 |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("2 of 7 kernel x target pairs"), std::string::npos) << md;
  EXPECT_NE(md.find("- `x4_a64` on sm_75"), std::string::npos) << md;
  EXPECT_NE(md.find("*the suite's assumption:* a test"), std::string::npos) << md;

  SassReport same_columns = report("13.0");
  same_columns.rows.pop_back();  // without x4, sm_80 and sm_90 have the same column
  md = sass_report_markdown(same_columns, kRun);
  EXPECT_NE(md.find("| Form | Kernels | sm_75 | sm_80, sm_90 |"), std::string::npos) << md;
}

TEST(SassReport, WithoutADisassemblerTheReportSaysWhyAndEveryCellSaysNoSass) {
  SassReport r = report("12.9");
  r.disassembler.clear();
  r.unavailable = "no disassembler: none here";
  for (auto& x : r.rows) {
    for (auto const& [t, m] : x.matched) x.no_sass[t] = r.unavailable;
    x.matched.clear();
  }
  std::string md = sass_report_markdown(r, kRun);
  EXPECT_NE(md.find("**no disassembler: none here**"), std::string::npos) << md;
  EXPECT_NE(md.find("| `ldmatrix.x4` | 1 | no SASS |"), std::string::npos) << md;
  EXPECT_NE(md.find("0 of 0 kernel x target pairs"), std::string::npos) << md;
}

TEST(SassReport, JsonReadBackAndChangesBetweenReleases) {
  SassReport a = report("12.9");
  SassReport back = read_sass_report(sass_report_json(a, kRun), "a.json");
  EXPECT_EQ(sass_report_markdown(back, kRun), sass_report_markdown(a, kRun));

  SassReport b = report("13.0");
  b.rows[2].matched["sm_80"] = {"LDSM.16.M88.4"};  // 13.0 makes LDSM where 12.9 made none
  b.rows[0].matched.erase("sm_90");                // not disassembled in 13.0: not a change
  auto changes = compare_sass(a, b);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kernel, "x4_a64");
  EXPECT_EQ(changes[0].target, "sm_80");
  EXPECT_EQ(changes[0].before, "**none of LDSM**");
  EXPECT_EQ(changes[0].after, "LDSM.16.M88.4");
  std::string md = sass_changes_markdown({a, b});
  EXPECT_NE(md.find("### CUDA 12.9 -> 13.0"), std::string::npos) << md;
  EXPECT_NE(md.find("| ldmatrix | **none of LDSM** | LDSM.16.M88.4 | 1 | sm_80 | `x4_a64` |"), std::string::npos) << md;
  EXPECT_NE(sass_changes_markdown({a, a}).find("No change"), std::string::npos);
  SassReport reordered = a;  // the same opcodes in another order: no change
  reordered.rows[0].matched["sm_80"] = {"LDSM.16.M88", "LDSM.16.M88.4"};
  a.rows[0].matched["sm_80"] = {"LDSM.16.M88.4", "LDSM.16.M88"};
  EXPECT_TRUE(compare_sass(a, reordered).empty());

  try {
    read_sass_report("{\"schema_version\": 1}", "bad.json");
    FAIL() << "a report without its keys was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json:1:"), std::string::npos) << e.what();
  }
}

TEST(SassRunReport, TheSassOfAContradictedClaimsKernelsStandsBesideIt) {
  RunReport r;
  r.info.gpu_name = "GPU";
  r.info.sm = "sm_90";
  CaseResult c;
  c.kernel = "wmma_k";
  c.family = "wmma";
  c.case_name = "edge";
  c.target = "sm_90";
  c.status = Status::Crash;
  c.fault_case = true;
  r.results.push_back(c);
  ClaimVerdict v;
  v.id = "alignment-rule";
  v.verdict = Verdict::Contradicted;
  v.checked = {"wmma_k/edge"};
  r.claims.push_back(v);
  // Before schema 7 (no SASS): no SASS column, no section.
  std::string md = report_markdown(r);
  EXPECT_EQ(md.find("What the code became"), std::string::npos) << md;
  EXPECT_EQ(md.find("| SASS |"), std::string::npos) << md;

  r.sass.disassembler = "cuobjdump 13.5.37";
  r.sass.kernels.push_back({.kernel = "wmma_k",
                            .target = "sm_90",
                            .opcodes = {"LDC", "LDG.E.128", "STG.E"},
                            .expected = {"LDG"},
                            .matched = {"LDG.E.128"},
                            .unavailable = ""});
  md = report_markdown(r);
  EXPECT_NE(md.find("### What the code became, beside the contradicted claims"), std::string::npos) << md;
  EXPECT_NE(md.find("| wmma_k | edge | sm_90 | faulted as the rule says | LDG.E.128 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| sass | cuobjdump 13.5.37 |"), std::string::npos) << md;
  // The page too, in the claim's finding.
  std::string html = report_html(r);
  EXPECT_NE(html.find("What the code became (SASS by cuobjdump 13.5.37):"), std::string::npos);
  EXPECT_NE(html.find("<td>LDG.E.128</td>"), std::string::npos);
  EXPECT_EQ(report_html(RunReport{}).find("What the code became"), std::string::npos);
  // And the JSON keeps it.
  RunReport back = parse_report_json(report_json(r), "r.json");
  ASSERT_EQ(back.sass.kernels.size(), 1u);
  EXPECT_EQ(back.sass.kernels[0].matched, (std::vector<std::string>{"LDG.E.128"}));
  EXPECT_EQ(back.sass.disassembler, "cuobjdump 13.5.37");
}

#include <gtest/gtest.h>

#include "report/run/report_diff.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/run/report_json.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {
CaseResult result(const std::string& kernel, const std::string& c, Status s, const std::string& layout = "") {
  CaseResult r;
  r.kernel = kernel;
  r.case_name = c;
  r.status = s;
  r.observed_layout = layout;
  return r;
}
ClaimVerdict claim(const std::string& id, Verdict v) {
  return {.id = id, .family = "", .text = "", .source = "", .note = "", .verdict = v, .evidence = "", .checked = {}};
}
}  // namespace

TEST(ReportDiff, NamesRegressionsFixesAndRunChanges) {
  RunReport a, b;
  a.info.driver_version = "580.159.04";
  b.info.driver_version = "585.1";
  a.results = {result("k1", "c", Status::Pass), result("k2", "c", Status::Fail), result("k3", "c", Status::Pass)};
  b.results = {result("k1", "c", Status::Crash), result("k2", "c", Status::Pass), result("k3", "c", Status::Pass),
               result("k4", "c", Status::Pass)};
  a.claims = {claim("claim", Verdict::Confirmed)};
  b.claims = {claim("claim", Verdict::Contradicted)};
  ReportDiff d = diff_reports(a, b);
  ASSERT_EQ(d.run_changes.size(), 1u);
  EXPECT_EQ(d.run_changes[0], "driver_version: 580.159.04 -> 585.1");
  ASSERT_EQ(d.cases.size(), 3u);
  EXPECT_EQ(d.regressions(), 1);  // k1 pass -> crash; the claim is a new documentation finding, counted apart
  EXPECT_EQ(d.new_findings(), 1);
  EXPECT_EQ(d.findings(), 1);      // what `ptxcts diff` exits 1 for: the case regression
  EXPECT_EQ(d.findings(true), 2);  // and with --gate-docs the new documentation finding too
  // Issue 41: the verdict and the summary first, then the changes grouped by transition and family,
  // each case named as `--cases` takes it.
  EXPECT_EQ(format_diff(d),
            "Does not pass the upgrade gate: 1 case regression: 1 worse, 0 lost, 0 layouts lost; and 1 "
            "documentation change: 1 new finding, 0 claims lost (not gated; --gate-docs gates them).\n"
            "Cases: 3 changed: 1 worse, 0 lost, 0 withdrawn, 1 new, 1 other\n"
            "Claims: 1 changed: 1 new findings, 0 findings gone, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Layouts: 0 changed: 0 lost, 0 withdrawn, 0 differ (observations)\n"
            "Run: driver_version: 580.159.04 -> 585.1\n"
            "\nREGRESSION pass -> crash: 1 case\n  (no family) (1):\n    k1/c\n"
            "\n(absent) -> pass: 1 case\n  (no family) (1):\n    k4/c\n"
            "\nfail -> pass: 1 case\n  (no family) (1):\n    k2/c\n"
            "\nFINDING confirmed -> contradicted: 1 claim\n  (no family) (1):\n    claim\n");
  // -q: the verdict and the summary alone.
  const std::string all = format_diff(d), quiet = format_diff(d, {.quiet = true, .gate_docs = false});
  EXPECT_EQ(quiet, all.substr(0, all.find("\n\n") + 1));
}

TEST(ReportDiff, IdenticalReportsHaveNoChanges) {
  RunReport a;
  a.results = {result("k1", "c", Status::Pass), result("wmma", "u", Status::Pass, "lane 0: r0=(0,0)\n")};
  a.claims = {claim("claim", Verdict::Confirmed)};
  ReportDiff d = diff_reports(a, a);
  EXPECT_TRUE(d.cases.empty());
  EXPECT_TRUE(d.claims.empty());
  EXPECT_TRUE(d.lost_layouts.empty());
  EXPECT_EQ(d.regressions(), 0);
  EXPECT_EQ(format_diff(d),
            "Passes the upgrade gate: no case regression.\n"
            "Cases: 0 changed: 0 worse, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 0 changed: 0 new findings, 0 findings gone, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Layouts: 0 changed: 0 lost, 0 withdrawn, 0 differ (observations)\n");
}

// Whatever the earlier report had and the later one lacks is a regression, whatever its status was:
// a report with its wmma results, or everything, removed must not read as "0 regressions".
TEST(ReportDiff, WhatWentMissingIsARegression) {
  RunReport a, b;
  a.results = {result("k1", "c", Status::Pass), result("k2", "c", Status::Fail), result("k3", "c", Status::Skip),
               result("wmma1", "u", Status::Pass, "lane 0: r0=(0,0)\n"),
               result("wmma2", "u", Status::Pass, "lane 0: r0=(0,1)\n")};
  a.claims = {claim("c1", Verdict::Confirmed), claim("c2", Verdict::NotCheckable)};
  b.results = {result("k3", "c", Status::Skip), result("wmma2", "u", Status::Pass)};  // wmma2 without its layout
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 4);  // the cases and the layout; the claims lost are documentation changes
  EXPECT_EQ(d.claims_lost(), 2);
  EXPECT_EQ(d.findings(true), 6);
  EXPECT_EQ(format_diff(d),
            "Does not pass the upgrade gate: 4 case regressions: 0 worse, 3 lost, 1 layout lost; and 2 documentation "
            "changes: 0 new findings, 2 claims lost (not gated; --gate-docs gates them).\n"
            "Cases: 3 changed: 0 worse, 3 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 2 changed: 0 new findings, 0 findings gone, 2 lost, 0 withdrawn, 0 new, 0 other\n"
            "Layouts: 1 changed: 1 lost, 0 withdrawn, 0 differ (observations)\n"
            "\nREGRESSION fail -> (absent): 1 case\n  (no family) (1):\n    k2/c\n"
            "\nREGRESSION pass -> (absent): 2 cases\n  (no family) (2):\n    k1/c\n    wmma1/u\n"
            "\nREGRESSION confirmed -> (absent): 1 claim\n  (no family) (1):\n    c1\n"
            "\nREGRESSION not-checkable -> (absent): 1 claim\n  (no family) (1):\n    c2\n"
            "\nREGRESSION observed -> (absent): 1 layout\n  (no family) (1):\n    wmma2/u\n");

  RunReport empty;
  // Its 5 results (their layouts go with them); its 2 claims lost are documentation changes.
  EXPECT_EQ(diff_reports(a, empty).regressions(), 5);
  EXPECT_EQ(diff_reports(a, empty).claims_lost(), 2);
  EXPECT_EQ(diff_reports(empty, a).regressions(), 0);  // everything new: no regression
}

// A result that got worse loses its layout with it (a crash observes nothing): one regression, not two.
TEST(ReportDiff, ResultThatGotWorseCountsOnceWithItsLayout) {
  RunReport a, b;
  a.results = {result("wmma", "u", Status::Pass, "lane 0: r0=(0,0)\n")};
  b.results = {result("wmma", "u", Status::Crash)};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 1);
  EXPECT_EQ(format_diff(d, {.quiet = true, .gate_docs = false}),
            "Does not pass the upgrade gate: 1 case regression: 1 worse, 0 lost, 0 layouts lost.\n"
            "Cases: 1 changed: 1 worse, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 0 changed: 0 new findings, 0 findings gone, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Layouts: 0 changed: 0 lost, 0 withdrawn, 0 differ (observations)\n");
}

// The later report may say why something is gone: then it is shown, with the reason, and is no regression.
// A withdrawal names what it withdraws as the diff does; one for something else excuses nothing.
TEST(ReportDiff, WithdrawnIsNoRegression) {
  RunReport a, b;
  a.results = {result("k1", "c", Status::Pass), result("k2", "c", Status::Pass),
               result("wmma", "u", Status::Pass, "lane 0: r0=(0,0)\n")};
  a.claims = {claim("c1", Verdict::Confirmed)};
  b.results = {result("wmma", "u", Status::Pass)};
  // Reports name a case "KERNEL / CASE" in their withdrawals (their JSON's spelling): the diff reads it.
  b.withdrawn = {{.what = "k1 / c", .reason = "renamed k1/d"},
                 {.what = "claim c1", .reason = "merged into c2"},
                 {.what = "layout wmma / u", .reason = "observed by wmma/v instead"},
                 {.what = "claim k2 / c", .reason = "misnamed: excuses nothing"}};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 1);
  EXPECT_EQ(format_diff(d),
            "Does not pass the upgrade gate: 1 case regression: 0 worse, 1 lost, 0 layouts lost.\n"
            "Cases: 2 changed: 0 worse, 1 lost, 1 withdrawn, 0 new, 0 other\n"
            "Claims: 1 changed: 0 new findings, 0 findings gone, 0 lost, 1 withdrawn, 0 new, 0 other\n"
            "Layouts: 1 changed: 0 lost, 1 withdrawn, 0 differ (observations)\n"
            "\nREGRESSION pass -> (absent): 1 case\n  (no family) (1):\n    k2/c\n"
            "\npass -> (absent): 1 case\n  (no family) (1):\n    k1/c (withdrawn: renamed k1/d)\n"
            "\nconfirmed -> (absent): 1 claim\n  (no family) (1):\n    c1 (withdrawn: merged into c2)\n"
            "\nobserved -> (absent): 1 layout\n  (no family) (1):\n    wmma/u (withdrawn: observed by wmma/v instead)\n");
}

// A wmma fragment that another driver or GPU lays out differently is shown, and is no regression.
TEST(ReportDiff, ChangedFragmentLayoutsAreObservationsNotRegressions) {
  RunReport a, b;
  a.results = {result("wmma.load.c", "u", Status::Pass), result("wmma.load.a", "u", Status::Pass)};
  b.results = a.results;
  a.results[0].observed_layout = "lane 0: r0=(0,0) r1=(0,1)\n";
  b.results[0].observed_layout = "lane 0: r0=(0,1) r1=(0,0)\n";
  a.results[1].observed_layout = b.results[1].observed_layout = "lane 0: r0=(0,0)\n";
  ReportDiff d = diff_reports(a, b);
  ASSERT_EQ(d.layouts.size(), 1u);
  EXPECT_EQ(d.layouts[0], "wmma.load.c/u");
  EXPECT_EQ(d.regressions(), 0);
  EXPECT_EQ(format_diff(d),
            "Passes the upgrade gate: no case regression.\n"
            "Cases: 0 changed: 0 worse, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 0 changed: 0 new findings, 0 findings gone, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Layouts: 1 changed: 0 lost, 0 withdrawn, 1 differ (observations)\n"
            "\nthe fragment's register layout differs (an observation; see observed_layout): 1 case\n"
            "    wmma.load.c/u\n");
}

// A claim's verdict that changed is a change, never a regression: the cases it rests on count theirs
// (issue 38: a wrong GPU's failures must not count twice), and an observation is never a failure.
TEST(ReportDiff, AClaimVerdictThatChangedIsAChangeNotARegression) {
  RunReport a, b;
  a.claims = {claim("c1", Verdict::Confirmed), claim("c2", Verdict::Observed), claim("c3", Verdict::NotCheckable),
              claim("c4", Verdict::Observed)};
  b.claims = {claim("c1", Verdict::Observed), claim("c2", Verdict::NotCheckable), claim("c3", Verdict::Observed),
              claim("c4", Verdict::Confirmed)};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 0);
  EXPECT_EQ(d.findings(true), 0);
  EXPECT_EQ(format_diff(d, {.quiet = true, .gate_docs = true}),
            "Passes the upgrade gate: no case regression.\n"
            "Cases: 0 changed: 0 worse, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 4 changed: 0 new findings, 0 findings gone, 0 lost, 0 withdrawn, 0 new, 4 other\n"
            "Layouts: 0 changed: 0 lost, 0 withdrawn, 0 differ (observations)\n");
}

// Issue 38: case regressions and changes of documentation findings are counted apart. A claim the
// GPU's failing cases left undecided is neither a regression nor a finding; one contradicted now and
// not before is a new documentation finding (exit 1), one contradicted before and not now a finding gone.
TEST(ReportDiff, CaseRegressionsAndDocumentationFindingsAreCountedApart) {
  RunReport a, b;
  a.results = {result("k1", "c", Status::Pass)};
  b.results = {result("k1", "c", Status::Fail)};
  a.claims = {claim("c1", Verdict::Confirmed), claim("c2", Verdict::Confirmed), claim("c3", Verdict::Contradicted)};
  b.claims = {claim("c1", Verdict::Undecided), claim("c2", Verdict::Contradicted), claim("c3", Verdict::Confirmed)};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 1);
  EXPECT_EQ(d.new_findings(), 1);
  EXPECT_EQ(d.findings_gone(), 1);
  EXPECT_EQ(d.newly_undecided(), 1);
  EXPECT_EQ(format_diff(d, {.quiet = true, .gate_docs = true}),
            "Does not pass the upgrade gate: 1 case regression: 1 worse, 0 lost, 0 layouts lost; and 1 documentation "
            "change: 1 new finding, 0 claims lost.\n"
            "Cases: 1 changed: 1 worse, 0 lost, 0 withdrawn, 0 new, 0 other\n"
            "Claims: 3 changed: 1 new findings, 1 findings gone, 0 lost, 0 withdrawn, 0 new, 1 other (1 undecided now: "
            "its cases need action)\n"
            "Layouts: 0 changed: 0 lost, 0 withdrawn, 0 differ (observations)\n");
  // A GPU that fails the claim's cases and nothing else: the case's regression alone, no finding.
  b.claims[1].verdict = Verdict::Undecided;
  d = diff_reports(a, b);
  EXPECT_EQ(d.findings(true), 1);
  EXPECT_EQ(d.new_findings(), 0);
  // No case regression, a new documentation finding: reported; gated only with --gate-docs.
  b.results = a.results;
  b.claims[1].verdict = Verdict::Contradicted;
  d = diff_reports(a, b);
  EXPECT_EQ(d.findings(), 0);
  EXPECT_EQ(d.findings(true), 1);
  EXPECT_EQ(diff_verdict_line(d, false),
            "Passes the upgrade gate: no case regression; 1 documentation change: 1 new finding, 0 claims lost (not "
            "gated; --gate-docs gates them).");
  EXPECT_EQ(diff_verdict_line(d, true),
            "Does not pass the upgrade gate (--gate-docs): 1 documentation change: 1 new finding, 0 claims lost.");
  // Issue 42: the same change of one of the suite's hypotheses (its reading of figures) is no new
  // documentation finding, refuted or withdrawn: an other change, never gated.
  b.claims[1].hypothesis = true;
  d = diff_reports(a, b);
  EXPECT_EQ(d.new_findings(), 0);
  EXPECT_EQ(d.findings(true), 0);
  a.claims[2].hypothesis = b.claims[2].hypothesis = true;
  EXPECT_EQ(diff_reports(a, b).findings_gone(), 0);
}

// The committed H100 report (schema 4, which wrote its observations not-checkable) against the same
// run as schema 5 would write it: its observations become observed, changes and no regression.
TEST(ReportDiff, TheCommittedSchema4ReportAgainstObservedVerdicts) {
  // An excerpt of the H100 report written at 2f83cb8 (schema 4), kept as test data: the committed
  // report is replaced by every run.
  std::ifstream in(PTXCTS_TEST_DATA "/reports/h100-schema4-excerpt.json");
  std::stringstream text;
  text << in.rdbuf();
  RunReport old = parse_report_json(text.str(), "h100-schema4-excerpt.json");
  RunReport now = old;
  int observations = 0;
  for (auto& c : now.claims)
    if (c.verdict == Verdict::NotCheckable && c.evidence.starts_with("undefined behaviour, observed")) {
      c.verdict = Verdict::Observed;
      ++observations;
    }
  EXPECT_EQ(observations, 3);
  ReportDiff d = diff_reports(old, now);
  EXPECT_EQ(d.claims.size(), 3u);
  EXPECT_EQ(d.regressions(), 0);
  // and written as schema 5, it reads back with them
  RunReport back = parse_report_json(report_json(now), "now.json");
  EXPECT_EQ(diff_reports(now, back).claims.size(), 0u);
}

namespace {
// A cubin run and a JIT run of the same results (RunInfo::toolchain as `ptxcts run` writes them).
std::pair<RunReport, RunReport> cubin_and_jit(std::vector<CaseResult> results) {
  RunReport cubin, jit;
  cubin.info.toolchain = cubin_toolchain("13.0.88");
  jit.info.toolchain = jit_toolchain("580.159.04", "13.0");
  cubin.results = jit.results = std::move(results);
  return {cubin, jit};
}
}  // namespace

TEST(ReportDiff, JitAndCubinAlikeHaveNoFindings) {
  auto [cubin, jit] = cubin_and_jit(
      {result("k1", "c", Status::Pass), result("k2", "c", Status::Fail), result("w", "u", Status::Pass, "lane 0\n")});
  ReportDiff d = diff_reports(cubin, jit);
  EXPECT_TRUE(d.toolchains);
  EXPECT_EQ(d.findings(), 0);
  EXPECT_EQ(format_diff(d),
            "JIT and precompiled cubin agree on every case compared.\n"
            "JIT and precompiled cubin: cases that disagree: 0; not compared (skipped by one run): 0; claims changed: 0\n"
            "Run: toolchain: precompiled cubin (ptxas 13.0.88) -> driver JIT (cuModuleLoadDataEx), driver "
            "580.159.04 (CUDA 13.0)\n");
}

// Exactly the case that differs, first, as a finding; in status or in what was observed; either order.
TEST(ReportDiff, ACaseWhereJitAndCubinDisagreeIsAFinding) {
  auto [cubin, jit] =
      cubin_and_jit({result("k1", "c", Status::Pass), result("k2", "c", Status::Pass),
                     result("w", "u", Status::Pass, "lane 0: r0=(0,0)\n"), result("k3", "c", Status::Pass)});
  jit.results[1].status = Status::Fail;
  jit.results[1].reason = "2 element(s) differ from the reference model";
  jit.results[1].mismatches = 2;
  ReportDiff d = diff_reports(cubin, jit);
  ASSERT_EQ(d.disagreements.size(), 1u);
  EXPECT_EQ(d.disagreements[0].what, "k2/c");
  EXPECT_EQ(d.findings(), 1);
  const std::string text = format_diff(d);
  EXPECT_EQ(text.substr(0, text.find('\n')), "Does not pass: JIT and precompiled cubin disagree on 1 case.");
  EXPECT_EQ(text.substr(text.find("FINDING")),
            "FINDING JIT and precompiled cubin disagree: k2/c\n"
            "  cubin pass\n"
            "  JIT fail (2 element(s) differ from the reference model)\n");
  EXPECT_NE(text.find("cases that disagree: 1; not compared (skipped by one run): 0;"), std::string::npos) << text;
  EXPECT_EQ(diff_reports(jit, cubin).disagreements.size(), 1u);

  // The same status, a different observation: the wmma layout.
  jit.results[1] = cubin.results[1];
  jit.results[2].observed_layout = "lane 0: r0=(0,1)\n";
  d = diff_reports(cubin, jit);
  ASSERT_EQ(d.disagreements.size(), 1u);
  EXPECT_EQ(d.disagreements[0].what, "w/u");
  EXPECT_EQ(d.disagreements[0].before, "cubin pass: observed layout:\nlane 0: r0=(0,0)\n");
  EXPECT_EQ(d.disagreements[0].after, "JIT pass: observed layout:\nlane 0: r0=(0,1)\n");

  // A case the JIT run lacks is a disagreement too, not an agreement.
  jit.results = {cubin.results[0], cubin.results[1], cubin.results[2]};
  d = diff_reports(cubin, jit);
  ASSERT_EQ(d.disagreements.size(), 1u);
  EXPECT_EQ(d.disagreements[0].after, "JIT (absent)");
}

// The driver refusing the PTX (a skip) says nothing about the instruction: not compared, and said.
TEST(ReportDiff, ACaseOnlyOneToolchainSkippedIsNotComparedNoFinding) {
  auto [cubin, jit] = cubin_and_jit({result("k1", "c", Status::Pass), result("k2", "c", Status::Pass)});
  jit.results[0].status = Status::Skip;
  jit.results[0].reason = "the driver's JIT does not take this PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  ReportDiff d = diff_reports(cubin, jit);
  EXPECT_EQ(d.findings(), 0);
  ASSERT_EQ(d.not_compared.size(), 1u);
  EXPECT_EQ(
      d.not_compared[0],
      "k1/c: skipped by the JIT run: the driver's JIT does not take this PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
}

// `ptxcts diff` itself, on the committed H100 report and a copy that says it ran the JIT: exit 0 when
// they agree; one case changed: exit 1 and that case, alone, is the first thing said.
TEST(ReportDiff, TheCommandExitsOneOnADisagreementAndNamesTheCase) {
  RunReport cubin = parse_report_json(
      read_file_text(PTXCTS_SOURCE_DIR "/reports/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz"),
      "h100.json");
  ASSERT_GT(cubin.results.size(), 1000u);
  RunReport jit = cubin;
  jit.info.toolchain = jit_toolchain(cubin.info.driver_version, cubin.info.driver_cuda);
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-diff-jit-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const RunReport& r) {
    std::ofstream(dir / name) << report_json(r);
    return (dir / name).string();
  };
  const std::string a = write("cubin.json", cubin), b = write("jit.json", jit);
  ProcessResult same = run_process({PTXCTS_COMMAND, "diff", a, b}, 120);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("cases that disagree: 0;"), std::string::npos) << same.output;
  std::size_t at = jit.results.size() / 2;
  while (at < jit.results.size() && jit.results[at].status != Status::Pass) ++at;
  ASSERT_LT(at, jit.results.size());
  CaseResult& changed = jit.results[at];
  changed.status = Status::Fail;
  changed.reason = "1 element(s) differ from the reference model";
  changed.mismatches = 1;
  ProcessResult differs = run_process({PTXCTS_COMMAND, "diff", a, write("jit.json", jit)}, 120);
  EXPECT_EQ(differs.exit_code, 1) << differs.output;
  // The verdict first, then the summary; the first finding names the case as `--cases` takes it.
  EXPECT_EQ(differs.output.substr(0, differs.output.find('\n')),
            "Does not pass: JIT and precompiled cubin disagree on 1 case.");
  const std::size_t finding = differs.output.find("FINDING");
  ASSERT_NE(finding, std::string::npos) << differs.output;
  EXPECT_EQ(differs.output.substr(finding, differs.output.find('\n', finding) - finding),
            "FINDING JIT and precompiled cubin disagree: " + case_id(changed));
  EXPECT_NE(differs.output.find("cases that disagree: 1;"), std::string::npos) << differs.output;
  fs::remove_all(dir);
}

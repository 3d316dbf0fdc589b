#include <gtest/gtest.h>

#include "report/report_diff.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/report_json.hpp"
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
  EXPECT_EQ(d.findings(), 2);  // what `ptxcts diff` exits 1 for
  EXPECT_EQ(format_diff(d),
            "run     driver_version: 580.159.04 -> 585.1\n"
            "WORSE   k1 / c: pass -> crash\n"
            "changed k2 / c: fail -> pass\n"
            "changed k4 / c: (absent) -> pass\n"
            "FINDING claim claim: confirmed -> contradicted\n"
            "3 case changes, 1 claim changes, 1 regressions (0 lost); documentation findings: 1 new, 0 gone\n");
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
  EXPECT_EQ(format_diff(d), "0 case changes, 0 claim changes, 0 regressions (0 lost); documentation findings: 0 new, 0 gone\n");
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
  EXPECT_EQ(d.regressions(), 6);
  EXPECT_EQ(format_diff(d),
            "LOST    k1 / c: pass -> (absent)\n"
            "LOST    k2 / c: fail -> (absent)\n"
            "LOST    wmma1 / u: pass -> (absent)\n"
            "LOST    claim c1: confirmed -> (absent)\n"
            "LOST    claim c2: not-checkable -> (absent)\n"
            "LOST    layout wmma2 / u: observed -> (absent)\n"
            "3 case changes, 2 claim changes, 6 regressions (6 lost); documentation findings: 0 new, 0 gone\n");

  RunReport empty;
  EXPECT_EQ(diff_reports(a, empty).regressions(), 7);
  EXPECT_EQ(diff_reports(empty, a).regressions(), 0);  // everything new: no regression
}

// A result that got worse loses its layout with it (a crash observes nothing): one regression, not two.
TEST(ReportDiff, ResultThatGotWorseCountsOnceWithItsLayout) {
  RunReport a, b;
  a.results = {result("wmma", "u", Status::Pass, "lane 0: r0=(0,0)\n")};
  b.results = {result("wmma", "u", Status::Crash)};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 1);
  EXPECT_EQ(format_diff(d),
            "WORSE   wmma / u: pass -> crash\n1 case changes, 0 claim changes, 1 regressions (0 lost); documentation findings: 0 new, 0 gone\n");
}

// The later report may say why something is gone: then it is shown, with the reason, and is no regression.
// A withdrawal names what it withdraws as the diff does; one for something else excuses nothing.
TEST(ReportDiff, WithdrawnIsNoRegression) {
  RunReport a, b;
  a.results = {result("k1", "c", Status::Pass), result("k2", "c", Status::Pass),
               result("wmma", "u", Status::Pass, "lane 0: r0=(0,0)\n")};
  a.claims = {claim("c1", Verdict::Confirmed)};
  b.results = {result("wmma", "u", Status::Pass)};
  b.withdrawn = {{.what = "k1 / c", .reason = "renamed k1 / d"},
                 {.what = "claim c1", .reason = "merged into c2"},
                 {.what = "layout wmma / u", .reason = "observed by wmma / v instead"},
                 {.what = "claim k2 / c", .reason = "misnamed: excuses nothing"}};
  ReportDiff d = diff_reports(a, b);
  EXPECT_EQ(d.regressions(), 1);
  EXPECT_EQ(format_diff(d),
            "changed k1 / c: pass -> (absent) (withdrawn: renamed k1 / d)\n"
            "LOST    k2 / c: pass -> (absent)\n"
            "changed claim c1: confirmed -> (absent) (withdrawn: merged into c2)\n"
            "changed layout wmma / u: observed -> (absent) (withdrawn: observed by wmma / v instead)\n"
            "2 case changes, 1 claim changes, 1 regressions (1 lost); documentation findings: 0 new, 0 gone\n");
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
  EXPECT_EQ(d.layouts[0], "wmma.load.c / u");
  EXPECT_EQ(d.regressions(), 0);
  EXPECT_EQ(format_diff(d),
            "layout  wmma.load.c / u: the fragment's register layout differs (see observed_layout)\n"
            "0 case changes, 0 claim changes, 0 regressions (0 lost), 1 fragment layouts changed (observations); documentation findings: 0 new, 0 gone\n");
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
  EXPECT_EQ(format_diff(d),
            "changed claim c1: confirmed -> observed\n"
            "changed claim c2: observed -> not-checkable\n"
            "changed claim c3: not-checkable -> observed\n"
            "changed claim c4: observed -> confirmed\n"
            "0 case changes, 4 claim changes, 0 regressions (0 lost); documentation findings: 0 new, 0 gone\n");
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
  EXPECT_EQ(format_diff(d),
            "WORSE   k1 / c: pass -> fail\n"
            "changed claim c1: confirmed -> undecided\n"
            "FINDING claim c2: confirmed -> contradicted\n"
            "changed claim c3: contradicted -> confirmed\n"
            "1 case changes, 3 claim changes, 1 regressions (0 lost); documentation findings: 1 new, 1 gone; 1 claim "
            "undecided now (its cases need action)\n");
  // A GPU that fails the claim's cases and nothing else: the case's regression alone, no finding.
  b.claims[1].verdict = Verdict::Undecided;
  d = diff_reports(a, b);
  EXPECT_EQ(d.findings(), 1);
  EXPECT_EQ(d.new_findings(), 0);
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
            "run     toolchain: precompiled cubin (ptxas 13.0.88) -> driver JIT (cuModuleLoadDataEx), driver "
            "580.159.04 (CUDA 13.0)\n"
            "JIT and precompiled cubin: 0 cases disagree, 0 not compared (skipped by one run), 0 claim changes\n");
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
  EXPECT_EQ(d.disagreements[0].what, "k2 / c");
  EXPECT_EQ(d.findings(), 1);
  const std::string text = format_diff(d);
  EXPECT_EQ(text.substr(0, text.find("run ")),
            "FINDING JIT and precompiled cubin disagree: k2 / c\n"
            "  cubin pass\n"
            "  JIT fail (2 element(s) differ from the reference model)\n");
  EXPECT_NE(text.find("1 cases disagree, 0 not compared"), std::string::npos) << text;
  EXPECT_EQ(diff_reports(jit, cubin).disagreements.size(), 1u);

  // The same status, a different observation: the wmma layout.
  jit.results[1] = cubin.results[1];
  jit.results[2].observed_layout = "lane 0: r0=(0,1)\n";
  d = diff_reports(cubin, jit);
  ASSERT_EQ(d.disagreements.size(), 1u);
  EXPECT_EQ(d.disagreements[0].what, "w / u");
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
      "k1 / c: skipped by the JIT run: the driver's JIT does not take this PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
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
  EXPECT_NE(same.output.find("0 cases disagree"), std::string::npos) << same.output;
  std::size_t at = jit.results.size() / 2;
  while (at < jit.results.size() && jit.results[at].status != Status::Pass) ++at;
  ASSERT_LT(at, jit.results.size());
  CaseResult& changed = jit.results[at];
  changed.status = Status::Fail;
  changed.reason = "1 element(s) differ from the reference model";
  changed.mismatches = 1;
  ProcessResult differs = run_process({PTXCTS_COMMAND, "diff", a, write("jit.json", jit)}, 120);
  EXPECT_EQ(differs.exit_code, 1) << differs.output;
  EXPECT_EQ(differs.output.substr(0, differs.output.find('\n')),
            "FINDING JIT and precompiled cubin disagree: " + changed.kernel + " / " + changed.case_name);
  EXPECT_NE(differs.output.find("1 cases disagree"), std::string::npos) << differs.output;
  fs::remove_all(dir);
}

#include <gtest/gtest.h>

#include "report_diff.hpp"

using namespace ptxcts;

namespace {
CaseResult result(const std::string& kernel, const std::string& c, Status s) {
  CaseResult r;
  r.kernel = kernel;
  r.case_name = c;
  r.status = s;
  return r;
}
}  // namespace

TEST(ReportDiff, NamesRegressionsFixesAndRunChanges) {
  RunReport a, b;
  a.info.driver_version = "580.159.04";
  b.info.driver_version = "585.1";
  a.results = {result("k1", "c", Status::Pass), result("k2", "c", Status::Fail), result("k3", "c", Status::Pass)};
  b.results = {result("k1", "c", Status::Crash), result("k2", "c", Status::Pass), result("k3", "c", Status::Pass),
               result("k4", "c", Status::Pass)};
  a.claims = {{"claim", "", "", "", "", Verdict::Confirmed, "", {}}};
  b.claims = {{"claim", "", "", "", "", Verdict::Contradicted, "", {}}};
  ReportDiff d = diff_reports(a, b);
  ASSERT_EQ(d.run_changes.size(), 1u);
  EXPECT_EQ(d.run_changes[0], "driver_version: 580.159.04 -> 585.1");
  ASSERT_EQ(d.cases.size(), 3u);
  EXPECT_EQ(d.regressions(), 2);  // k1 pass -> crash, and the claim
  std::string text = format_diff(d);
  EXPECT_NE(text.find("WORSE   k1 / c: pass -> crash"), std::string::npos) << text;
  EXPECT_NE(text.find("changed k2 / c: fail -> pass"), std::string::npos) << text;
  EXPECT_NE(text.find("changed k4 / c: (absent) -> pass"), std::string::npos) << text;
  EXPECT_NE(text.find("WORSE   claim claim: confirmed -> contradicted"), std::string::npos) << text;
}

TEST(ReportDiff, IdenticalReportsHaveNoChanges) {
  RunReport a;
  a.results = {result("k1", "c", Status::Pass)};
  ReportDiff d = diff_reports(a, a);
  EXPECT_TRUE(d.cases.empty());
  EXPECT_EQ(d.regressions(), 0);
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
  EXPECT_NE(format_diff(d).find("1 fragment layouts changed (observations)"), std::string::npos) << format_diff(d);
}

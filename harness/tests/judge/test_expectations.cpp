// Expectations files: read strictly (file:line:column for what is wrong), applied only where they
// speak for the run's GPU and driver; a difference they name reads as known and needs no action (the
// run exits 0, JUnit stays green), one they do not name still needs action, and an expectation that
// matches nothing is reported.
#include <gtest/gtest.h>

#include "judge/expectations.hpp"
#include "results/outcome.hpp"

using namespace ptxcts;

namespace {

const std::string kDir = std::string(PTXCTS_TEST_DATA) + "/expectations";

CaseResult result(const std::string& kernel, const std::string& name, Status s) {
  CaseResult r;
  r.kernel = kernel;
  r.family = kernel.substr(0, kernel.find('_'));
  r.case_name = name;
  r.status = s;
  r.reason = "2 element(s) differ from the reference model";
  return r;
}

RunReport h100_report() {
  RunReport r;
  r.info.gpu_name = "NVIDIA H100 80GB HBM3";
  r.info.driver_version = "580.159.04";
  r.info.sm = "sm_90";
  r.results = {result("ldmatrix_x1", "identity", Status::Pass), result("stmatrix_x4", "known-to-differ", Status::Fail),
               result("stmatrix_x4", "new-failure", Status::Fail)};
  ClaimVerdict claim;
  claim.id = "ldmatrix-trans";
  claim.verdict = Verdict::Contradicted;
  claim.evidence = "the figure differs";
  r.claims.push_back(claim);
  return r;
}

std::string error_reading(const std::string& file) {
  try {
    read_expectation_file(kDir + "/" + file);
  } catch (const SpecError& e) { return e.what(); }
  return "";
}

}  // namespace

TEST(Expectations, AKnownDifferenceNeedsNoActionANewOneDoes) {
  RunReport r = h100_report();
  const auto files = {read_expectation_file(kDir + "/h100.yaml")};
  const auto unmatched = apply_expectations(files, r);
  EXPECT_EQ(r.results[0].known, "");
  EXPECT_EQ(r.results[1].known, "the driver stores the last row twice (https://example.org/bugs/1)");
  EXPECT_EQ(r.results[2].known, "") << "a failure no expectation names is a regression";
  EXPECT_FALSE(needs_action(r.results[1]));
  EXPECT_TRUE(needs_action(r.results[2]));
  EXPECT_EQ(r.claims[0].known, "the manual's figure is drawn transposed (https://example.org/bugs/2)");
  // The verdict still does not conform (the new failure), and counts the known differences.
  const std::string v = verdict_line(r);
  EXPECT_EQ(v.rfind("Does not conform: 1 of 3 cases need action (1 failed)", 0), 0u) << v;
  EXPECT_NE(v.find("; 2 known differences (expectations)."), std::string::npos) << v;
  // The expectation of a crash that no longer happens is reported, with where it is written.
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_EQ(unmatched[0], kDir + "/h100.yaml:13:5: expectation case ldmatrix_x1/fixed-long-ago crash matched nothing "
                                 "in this run (fixed? then remove it)");
}

TEST(Expectations, OnlyTheOutcomeTheyNameIsKnown) {
  RunReport r = h100_report();
  r.results[1].status = Status::Crash;  // known to fail; crashing is something else
  apply_expectations({read_expectation_file(kDir + "/h100.yaml")}, r);
  EXPECT_EQ(r.results[1].known, "");
  EXPECT_TRUE(needs_action(r.results[1]));
}

TEST(Expectations, AFileForAnotherGpuOrDriverIsNotApplied) {
  RunReport r = h100_report();
  const auto files = read_expectation_dir(kDir + "/../expectations-other");  // no such folder: none
  EXPECT_TRUE(files.empty());
  const ExpectationFile other = read_expectation_file(kDir + "/other-gpu.yaml");
  EXPECT_FALSE(other.speaks_for(r.info));
  EXPECT_TRUE(apply_expectations({other}, r).empty()) << "a file that does not speak for this GPU reports nothing";
  for (auto const& c : r.results) EXPECT_EQ(c.known, "");
  ExpectationFile h100 = read_expectation_file(kDir + "/h100.yaml");
  r.info.driver_version = "585.12";
  EXPECT_FALSE(h100.speaks_for(r.info));
}

TEST(Expectations, WhatIsWrongIsNamedWithFileLineAndColumn) {
  EXPECT_EQ(error_reading("bad-outcome.yaml"),
            kDir + "/bad-outcome.yaml:5:14: unknown outcome 'crashed'; expected pass, fail, not-supported, skipped, "
                   "error, crash, timeout, faulted, no-fault, faulted-where-allowed or undefined");
  EXPECT_EQ(error_reading("no-link.yaml"),
            kDir + "/no-link.yaml:7:11: expected a link (https://...) to where the difference is tracked, got 'see the "
                   "wiki'");
}

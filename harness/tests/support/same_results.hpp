// Two runs' results, case for case, every field a report is made of: what the tests that compare
// a run made one way with the naive way (streamed, early runner, manifest index) check.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "results/results.hpp"

namespace ptxcts::test {

inline void expect_same_case_results(const std::vector<CaseResult>& got, const std::vector<CaseResult>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    const CaseResult &g = got[k], &w = want[k];
    const std::string at = w.kernel + "/" + w.case_name;
    EXPECT_EQ(g.kernel, w.kernel) << at;
    EXPECT_EQ(g.case_name, w.case_name) << at;
    EXPECT_EQ(g.status, w.status) << at;
    EXPECT_EQ(g.reason, w.reason) << at;
    EXPECT_EQ(g.diff, w.diff) << at;
    EXPECT_EQ(g.mismatches, w.mismatches) << at;
    EXPECT_EQ(g.observed_layout, w.observed_layout) << at;
    EXPECT_EQ(g.roundtrip_identity, w.roundtrip_identity) << at;
    EXPECT_EQ(g.fault_case, w.fault_case) << at;
    EXPECT_EQ(g.target, w.target) << at;
    EXPECT_EQ(g.ptx_isa, w.ptx_isa) << at;
  }
}

}  // namespace ptxcts::test

// mma: the check against the device emulator (a correct device, and the five wrong ones) on every
// mma kernel and case -- including the forms no GPU here runs -- and the check's power to find an
// element in the wrong place: a device that swaps any two neighbouring elements of a, b, c or d
// fails at least one case.
#include <gtest/gtest.h>

#include <algorithm>

#include "kinds/kinds.hpp"
#include "kinds/mma/mma_case_data.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_check.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "support/device_emulator.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& suite() {
  return loaded_suite();
}

std::vector<const KernelPlan*> mma_kernels() {
  std::vector<const KernelPlan*> out;
  for (auto const& k : suite().kernels)
    if (k.kind == &mma_kind()) out.push_back(&k);
  return out;
}

std::vector<const CaseSpec*> cases_of(const KernelPlan& k) {
  std::vector<const CaseSpec*> out;
  for (auto const& c : suite().specs.cases.cases)
    if (mma_kind().takes(k, c)) out.push_back(&c);
  return out;
}

}  // namespace

TEST(MmaCheck, EveryKernelPassesOnACorrectDeviceAndFailsOnEachWrongOne) {
  int cases = 0, compositions = 0;
  for (const KernelPlan* k : mma_kernels()) {
    compositions += is_composition(*k);
    DeviceEmulator device;
    for (const CaseSpec* c : cases_of(*k)) {
      auto prepared = mma_kind().prepare(suite().specs.cases, *c, *k);
      ++cases;
      const CaseOutcome ok = prepared->check(device.run(*k, prepared->input, Mutant::None));
      EXPECT_EQ(ok.comparison.mismatches, 0) << k->name << "/" << c->name << ": "
                                             << (ok.comparison.diff.empty() ? "" : ok.comparison.diff.front());
      for (Mutant m : {Mutant::Echo, Mutant::Zero, Mutant::Shuffled, Mutant::OffByOne, Mutant::Stale})
        EXPECT_GT(prepared->check(device.run(*k, prepared->input, m)).comparison.mismatches, 0)
            << k->name << "/" << c->name << " passed on wrong device " << static_cast<int>(m);
    }
  }
  EXPECT_GT(cases, 600);
  EXPECT_GE(compositions, 3);
}

// A device whose layout of one operand has two neighbouring elements (the next element of the
// same lane, or the same element of the next lane) swapped must fail some case of the kernel.
TEST(MmaCheck, ASwapOfAnyTwoNeighbouringElementsIsFound) {
  std::set<std::string> variants;
  for (const KernelPlan* k : mma_kernels()) {
    if (is_composition(*k)) continue;
    if (!variants.insert(k->subject_instance().variant().name).second) continue;  // one form per variant
    const MmaInfo x = mma_info(k->subject_instance());
    std::vector<std::unique_ptr<PreparedCase>> prepared;
    for (const CaseSpec* c : cases_of(*k)) prepared.push_back(mma_kind().prepare(suite().specs.cases, *c, *k));
    for (MmaOperandInfo MmaInfo::*op : {&MmaInfo::a, &MmaInfo::b, &MmaInfo::c, &MmaInfo::d}) {
      const int n = (x.*op).elements();
      for (int lane = 0; lane < kWarpLanes; ++lane)
        for (int e : {0, n / 2, n - 1})
          for (auto [l2, e2] : {std::pair{lane, e + 1}, std::pair{(lane + 1) % kWarpLanes, e}}) {
            if (e2 >= n) continue;
            MmaInfo wrong = x;
            std::swap((wrong.*op).at[static_cast<std::size_t>(lane * n + e)],
                      (wrong.*op).at[static_cast<std::size_t>(l2 * n + e2)]);
            const bool found = std::any_of(prepared.begin(), prepared.end(), [&](auto const& p) {
              return check_mma(x, p->input, mma_expected(wrong, p->input)).mismatches > 0;
            });
            EXPECT_TRUE(found) << k->name << ": " << (x.*op).name << " lane " << lane << " element " << e
                               << " swapped with lane " << l2 << " element " << e2 << " passes every case";
          }
    }
  }
  EXPECT_GE(variants.size(), 20u);
}

// The check names a misplaced element as a kernel engineer reads it.
TEST(MmaCheck, AMismatchNamesLaneElementRowAndColumn) {
  const KernelPlan* k = suite().find_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ASSERT_NE(k, nullptr);
  const MmaInfo x = mma_info(k->subject_instance());
  auto p = mma_kind().prepare(suite().specs.cases, *cases_of(*k).front(), *k);
  LaunchState got = mma_expected(x, p->input);
  // lane 5's d2 and d3 swapped: c2/c3 are row groupID + 8 = 9, cols 2 and 3 (9.7.14.5.8)
  std::swap(got.regs[static_cast<std::size_t>(5 * x.words + x.d.first_word + 2)],
            got.regs[static_cast<std::size_t>(5 * x.words + x.d.first_word + 3)]);
  const Comparison c = check_mma(x, p->input, got);
  ASSERT_EQ(c.mismatches, 2);
  EXPECT_NE(c.diff.front().find("warp 0 lane 5 d2 (register 2), row 9 col 2"), std::string::npos) << c.diff.front();
}

// Issue 42, part 4: lanes 16 to 31 that exit before the mma, skip it under a predicate, or run another
// form of it. Each case takes one kernel, its own (the plain kernel of its one form with the exit,
// the predicate or the branch: the manual's sentences are the same for every form), which takes no
// other case; the mma kernels are the plain ones plus these three, and three more on mma.sp. The PTX does what the case says:
// the lanes' test, then the exit before the mma, the mma under the predicate, or the .bf16 form for
// lanes 16 to 31 and the plain one for lanes 0 to 15; the instruction text is the plain kernel's.
TEST(MmaUndefined, LanesShapesTakeOneKernelEachWithTheExitOrThePredicateAroundTheMma) {
  const std::string skeleton = read_skeletons().at(kMmaSkeleton);
  const std::string dense = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                    sparse = "mma.sp__ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32_e_0";
  struct Shape {
    std::string name, suffix, plain, op, other;  // op: the instruction's name; other: the form lanes 16 to 31 run
  };
  const Shape shapes[] = {
      {"mma-undefined-upper-lanes-exited", "upper_exited", dense, "mma", ""},
      {"mma-undefined-upper-lanes-predicated-off", "upper_predicated_off", dense, "mma", ""},
      {"mma-undefined-upper-lanes-other-form", "upper_other_form", dense, "mma",
       "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%w10"},
      {"mma-sp-undefined-upper-lanes-exited", "upper_exited", sparse, "mma.sp::ordered_metadata", ""},
      {"mma-sp-undefined-upper-lanes-predicated-off", "upper_predicated_off", sparse, "mma.sp::ordered_metadata", ""},
      {"mma-sp-undefined-upper-lanes-other-form", "upper_other_form", sparse, "mma.sp::ordered_metadata",
       "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%w"}};
  int shaped = 0;
  for (auto const* k : mma_kernels())
    shaped += k->name.ends_with("upper_exited") || k->name.ends_with("upper_predicated_off") ||
              k->name.ends_with("upper_other_form");
  EXPECT_EQ(shaped, 6);
  for (auto const& [name, suffix, plain, op, other_form] : shapes) {
    const CaseSpec* c = suite().specs.find_case(name);
    ASSERT_TRUE(c) << name;
    std::vector<const KernelPlan*> taking;
    for (auto const* k : mma_kernels())
      if (mma_kind().takes(*k, *c)) taking.push_back(k);
    ASSERT_EQ(taking.size(), 1u) << name;
    const KernelPlan& k = *taking[0];
    EXPECT_EQ(k.name, plain + "." + suffix);
    EXPECT_FALSE(k.audited);
    EXPECT_EQ(cases_of(k), std::vector<const CaseSpec*>{c}) << name;
    const KernelPlan* same = suite().find_kernel(plain);
    ASSERT_TRUE(same);
    EXPECT_EQ(mma_kind().instruction_text(k), mma_kind().instruction_text(*same));
    const std::string ptx = mma_kind().emit(skeleton, k, "sm_90", PtxVersion{8, 5});
    const std::size_t body = ptx.find("// 4. under test"), test = ptx.find("setp.lt.u32         %p0, %t10, 16;", body),
                      at = ptx.find(op + ".sync.aligned", body);
    ASSERT_NE(body, std::string::npos) << ptx;
    ASSERT_NE(test, std::string::npos) << ptx;
    ASSERT_NE(at, std::string::npos) << ptx;
    EXPECT_LT(test, at);
    if (suffix == "upper_exited") {
      EXPECT_LT(ptx.find("@!%p0 exit;"), at) << ptx;
      EXPECT_EQ(ptx.find("@%p0 mma"), std::string::npos) << ptx;
    } else if (suffix == "upper_predicated_off") {
      EXPECT_NE(ptx.find("@%p0 " + op + ".sync.aligned"), std::string::npos) << ptx;
      EXPECT_EQ(ptx.find("exit;"), std::string::npos) << ptx;
    } else {
      // lanes 16 to 31 fall through to the other form, lanes 0 to 15 branch to the plain one
      const std::size_t branch = ptx.find("@%p0 bra            LANES_LOW;", body), other = ptx.find(other_form, body),
                        low = ptx.find("LANES_LOW:\n    " + mma_kind().instruction_text(*same), body);
      EXPECT_LT(test, branch);
      EXPECT_LT(branch, other);
      EXPECT_LT(other, low);
      EXPECT_NE(low, std::string::npos) << ptx;
      EXPECT_NE(ptx.find("LANES_DONE:", low), std::string::npos) << ptx;
    }
    // The plain kernel has neither.
    const std::string plain_ptx = mma_kind().emit(skeleton, *same, "sm_90", PtxVersion{8, 5});
    EXPECT_EQ(plain_ptx.find("%laneid"), std::string::npos);
  }
}

#include <gtest/gtest.h>

#include <set>

#include "kinds/matrix_move/case_data.hpp"
#include "kinds/matrix_move/matrix_move_planner.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

struct Fixture {
  Suite suite = build_suite(load_specs(spec_files()));
  LaunchInput input(const std::string& kernel, const std::string& case_name) {
    const KernelPlan* k = suite.find_kernel(kernel);
    EXPECT_NE(k, nullptr) << kernel;
    return make_case_input(suite.specs.cases, *suite.specs.find_case(case_name), matrix_move_model_steps(*k));
  }
};

const char* kX4 = "ldmatrix.sync.aligned.m8n8.x4.shared.b16_a32";
const char* kX1 = "ldmatrix.sync.aligned.m8n8.x1.shared.b16_a32";

}  // namespace

TEST(CaseData, ContiguousRowsFollowTheLaneOrder) {
  Fixture f;
  LaunchInput in = f.input(kX4, "unique-contiguous");
  ASSERT_EQ(in.shape.threads(), 128);
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(in.offsets[static_cast<std::size_t>(l)], static_cast<std::uint32_t>(16 * l)) << "lane " << l;
}

TEST(CaseData, PaddedPitchSpacesRows) {
  Fixture f;
  LaunchInput in = f.input(kX4, "unique-padded-pitch");
  for (int l = 0; l < 32; ++l) EXPECT_EQ(in.offsets[static_cast<std::size_t>(l)], static_cast<std::uint32_t>(48 * l));
}

TEST(CaseData, ScatteredRowsAreDistinctAlignedInRegionAndDifferPerWarp) {
  Fixture f;
  LaunchInput in = f.input(kX4, "unique-scattered");
  std::set<std::uint32_t> w0, w1;
  bool contiguous = true;
  for (int l = 0; l < 32; ++l) {
    std::uint32_t a = in.offsets[static_cast<std::size_t>(l)], b = in.offsets[static_cast<std::size_t>(32 + l)];
    EXPECT_EQ(a % 16, 0u);
    EXPECT_LT(a + 16, 2048u + 1);
    w0.insert(a);
    w1.insert(b);
    contiguous = contiguous && a == static_cast<std::uint32_t>(16 * l);
  }
  EXPECT_EQ(w0.size(), 32u);
  EXPECT_NE(w0, w1);
  EXPECT_FALSE(contiguous);
}

TEST(CaseData, PoisonGoesOnlyToLanesThatSupplyNoAddress) {
  Fixture f;
  LaunchInput in = f.input(kX1, "unique-poisoned-unused");
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(in.offsets[static_cast<std::size_t>(l)] == kPoisonOffset, l >= 8) << "lane " << l;
  LaunchInput repeat = f.input(kX1, "unique-contiguous");
  for (int l = 8; l < 32; ++l)
    EXPECT_EQ(repeat.offsets[static_cast<std::size_t>(l)], repeat.offsets[static_cast<std::size_t>(l % 8)]);
}

TEST(CaseData, UniqueDataHasNoRepeatedElement) {
  Fixture f;
  LaunchInput in = f.input("stmatrix.sync.aligned.m8n8.x4.shared.b16_a32", "unique-contiguous");
  std::set<std::uint16_t> seen;
  for (std::size_t k = 0; k < in.state.smem.size(); k += 2) {
    std::uint16_t v = static_cast<std::uint16_t>(in.state.smem[k] | in.state.smem[k + 1] << 8);
    EXPECT_TRUE(seen.insert(v).second) << "memory element " << k / 2;
  }
  for (auto r : in.state.regs)
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(seen.insert(static_cast<std::uint16_t>(r >> (16 * i))).second);
}

TEST(CaseData, RandomDataIsRepeatableAndSeeded) {
  Fixture f;
  LaunchInput a = f.input(kX4, "random-scattered"), b = f.input(kX4, "random-scattered"),
              c = f.input(kX4, "random-contiguous");
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_NE(a.state.smem, c.state.smem);
}

TEST(CaseData, RoundTripStoresOneRegionOnWithTheSamePlacement) {
  Fixture f;
  LaunchInput in = f.input("roundtrip.stmatrix.sync.aligned.m8n8.x4.shared.b16_a32", "unique-scattered");
  ASSERT_EQ(in.shape.steps, 2);
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(in.offsets[static_cast<std::size_t>(128 + t)], in.offsets[static_cast<std::size_t>(t)] + 2048u);
}

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {
std::string skeleton() { return read_skeleton(); }
}  // namespace

TEST(PtxEmitter, FillsTheInstructionTargetAndVersion) {
  Suite s = build_suite(load_specs(spec_files()));
  std::string ptx =
      emit_ptx(skeleton(), *s.find_kernel("stmatrix.sync.aligned.m8n8.x4.trans.shared__cta.b16_a32"), "sm_90", {7, 8});
  EXPECT_NE(ptx.find(".version 7.8\n.target sm_90\n"), std::string::npos);
  EXPECT_NE(
      ptx.find(
          "    stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%addr32_0], {%frag0, %frag1, %frag2, %frag3};\n"),
      std::string::npos);
  EXPECT_NE(ptx.find(".reg .b32   %frag<4>;"), std::string::npos);
  EXPECT_EQ(ptx.find("{{"), std::string::npos);
  EXPECT_EQ(ptx.find("cvta.shared"), std::string::npos);  // .shared with a 32-bit address: no conversion
}

TEST(PtxEmitter, GenericAddressingConvertsToAGenericAddress) {
  Suite s = build_suite(load_specs(spec_files()));
  std::string ptx = emit_ptx(skeleton(), *s.find_kernel("ldmatrix.sync.aligned.m8n8.x2.b16_a64"), "sm_75", {6, 5});
  EXPECT_NE(ptx.find("cvta.shared.u64     %addr64_0, %addr64_0;"), std::string::npos);
  EXPECT_NE(ptx.find("ldmatrix.sync.aligned.m8n8.x2.b16 {%frag0, %frag1}, [%addr64_0];"), std::string::npos);
}

TEST(PtxEmitter, RoundTripHasBothStepsInOrder) {
  Suite s = build_suite(load_specs(spec_files()));
  std::string ptx =
      emit_ptx(skeleton(), *s.find_kernel("roundtrip.stmatrix.sync.aligned.m8n8.x1.b16_a64"), "sm_90", {7, 8});
  auto ld = ptx.find("ldmatrix.sync.aligned.m8n8.x1.b16 {%frag0}, [%addr64_0];");
  auto st = ptx.find("stmatrix.sync.aligned.m8n8.x1.b16 [%addr64_1], {%frag0};");
  ASSERT_NE(ld, std::string::npos);
  ASSERT_NE(st, std::string::npos);
  EXPECT_LT(ld, st);
}

TEST(PtxEmitter, RejectsUnknownAndMissingFields) {
  Suite s = build_suite(load_specs(spec_files()));
  const KernelPlan& k = s.kernels.front();
  EXPECT_THROW(emit_ptx(skeleton() + "{{NOPE}}", k, "sm_90", {7, 8}), std::runtime_error);
  std::string without_body = skeleton();
  without_body.replace(without_body.find("{{BODY}}"), 8, "");
  EXPECT_THROW(emit_ptx(without_body, k, "sm_90", {7, 8}), std::runtime_error);
}

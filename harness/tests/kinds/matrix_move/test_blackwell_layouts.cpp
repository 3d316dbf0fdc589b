// The .b8 layouts of ldmatrix .m16n16 and stmatrix .m16n8 against an independent oracle: Triton's
// lowering of these instructions (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/Utility.cpp,
// lowerLdStMatrix), a linear layout that sends each bit of (element, lane) to a bit of the row
// address or of the byte offset in the row. The specs write the same layouts as arithmetic
// formulas (from CUTLASS/CuTe); here they are compared bit by bit, and through the reference model.
#include <gtest/gtest.h>

#include "kinds/matrix_move/reference_model.hpp"
#include "spec/layout.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

struct RowByte {
  int row, byte;  // row: the row address index over all matrices (supplied by the lane of that index)
};

int bit(int v, int b) { return (v >> b) & 1; }

// ldmatrix.m16n16.trans.b8 ("contigRegs = 4", tile of 16/8 = 2 registers): element e = 4r + i;
// e bit 0 -> addr 1, e bit 1 -> addr 2, lane bits 0,1 -> addr 4,8, lane bits 2,3,4 -> offset 1,2,4,
// e bit 2 -> offset 8, e bit 3 (.x2) -> addr 16.
RowByte triton_ldmatrix_b8(int lane, int r, int i) {
  const int e = 4 * r + i;
  return {bit(e, 0) | bit(e, 1) << 1 | bit(lane, 0) << 2 | bit(lane, 1) << 3 | bit(e, 3) << 4,
          bit(lane, 2) | bit(lane, 3) << 1 | bit(lane, 4) << 2 | bit(e, 2) << 3};
}

// stmatrix.m16n8.trans.b8 ("contigRegs = 2"): e bit 0 -> addr 1, lane bits 0,1 -> addr 2,4,
// lane bits 2,3,4 -> offset 1,2,4, e bit 1 -> offset 8, e bits 2,3 (.x2, .x4) -> addr 8,16.
RowByte triton_stmatrix_b8(int lane, int r, int i) {
  const int e = 4 * r + i;
  return {bit(e, 0) | bit(lane, 0) << 1 | bit(lane, 1) << 2 | bit(e, 2) << 3 | bit(e, 3) << 4,
          bit(lane, 2) | bit(lane, 3) << 1 | bit(lane, 4) << 2 | bit(e, 1) << 3};
}

void expect_layout(const Instance& inst, RowByte (*oracle)(int, int, int)) {
  const Layout L = compute_layout(inst);
  ASSERT_EQ(L.elements_per_register, 4) << inst.id();
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int r = 0; r < L.registers; ++r)
      for (int i = 0; i < 4; ++i) {
        const ElementPos& p = L.at(lane, r, i);
        const RowByte want = oracle(lane, r, i);
        EXPECT_EQ(p.matrix * L.rows + p.row, want.row) << inst.id() << " lane " << lane << " r" << r << " byte " << i;
        EXPECT_EQ(p.col, want.byte) << inst.id() << " lane " << lane << " r" << r << " byte " << i;
      }
  // Row address k comes from lane k (Triton: "lane bits map straight onto addr bits").
  for (int k = 0; k < L.matrices * L.rows; ++k) EXPECT_EQ(L.row_lane[static_cast<std::size_t>(k)], k) << inst.id();
}

}  // namespace

TEST(BlackwellLayouts, LdmatrixM16n16B8IsTritonsLayout) {
  Suite s = build_suite(load_specs(spec_files()));
  expect_layout(find_instance(s, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8@a32"), triton_ldmatrix_b8);
  expect_layout(find_instance(s, "ldmatrix.sync.aligned.m16n16.x2.trans.b8@a64"), triton_ldmatrix_b8);
}

TEST(BlackwellLayouts, StmatrixM16n8B8IsTritonsLayout) {
  Suite s = build_suite(load_specs(spec_files()));
  for (const char* id :
       {"stmatrix.sync.aligned.m16n8.x1.trans.shared.b8@a32", "stmatrix.sync.aligned.m16n8.x2.trans.b8@a64",
        "stmatrix.sync.aligned.m16n8.x4.trans.shared::cta.b8@a64"})
    expect_layout(find_instance(s, id), triton_stmatrix_b8);
}

// The manual's prose, checked on the model's output: for 16x16 "each thread loads 4 consecutive
// columns across 2 rows" of the (transposed) matrix.
TEST(BlackwellLayouts, LdmatrixM16n16ModelMatchesTheManualsProse) {
  Suite s = build_suite(load_specs(spec_files()));
  const Instance& inst = find_instance(s, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8@a64");
  LaunchInput in;
  in.shape = {1, 4096, 1, 2};
  in.state.smem.assign(4096, 0);
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 16; ++col)
      in.state.smem[static_cast<std::size_t>(row * 16 + col)] = static_cast<std::uint8_t>(row * 16 + col);
  in.state.regs.assign(64, 0);
  in.offsets.assign(32, 0);
  for (int lane = 0; lane < 16; ++lane)
    in.offsets[static_cast<std::size_t>(lane)] = static_cast<std::uint32_t>(16 * lane);
  LaunchState out = expected_state({{&inst, compute_layout(inst)}}, in);
  // Transposed matrix T[c][s] = M[s][c] = 16 s + c. Lane holds T rows lane/4 and lane/4 + 8,
  // columns 4 (lane % 4) .. + 3: in register r, byte i, the value 16 (4 (lane % 4) + i) + lane / 4 + 8 r.
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 4; ++i)
        EXPECT_EQ((out.regs[static_cast<std::size_t>(lane * 2 + r)] >> (8 * i)) & 0xFF,
                  static_cast<std::uint32_t>(16 * (4 * (lane % 4) + i) + lane / 4 + 8 * r))
            << "lane " << lane << " r" << r << " byte " << i;
}

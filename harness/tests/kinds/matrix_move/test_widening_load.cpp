// ldmatrix .m8n16 .s8.s4 (PTX ISA 9.4): the reference model of a widening load against the
// hypothesis written out by hand in the spec's comment: 8-byte rows of sixteen packed .s4
// elements (element k at bits 4k..4k+3), rows supplied by lanes as for .m8n8, each lane holding
// four consecutive elements of row lane / 4 as sign-extended bytes. The expected bytes below are
// computed here from the nibbles, not by the model.
#include <gtest/gtest.h>

#include "kinds/matrix_move/reference_model.hpp"
#include "spec/layout.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

// The nibble placed at (row, col): every value 0..15 in each row, rotated per row.
int nibble(int row, int col) { return (col + 3 * row) % 16; }

// The .s8 a nibble becomes: 0..7 stay, 8..15 are -8..-1.
std::uint32_t as_s8(int n) { return static_cast<std::uint32_t>(static_cast<std::uint8_t>(n < 8 ? n : n - 16)); }

}  // namespace

TEST(WideningLoad, LdmatrixS8S4SignExtendsEachNibbleIntoItsByte) {
  Suite s = build_suite(load_specs(spec_files()));
  const Instance& inst = find_instance(s, "ldmatrix.sync.aligned.m8n16.x1.shared.s8.s4@a64");
  const Layout L = compute_layout(inst);
  ASSERT_EQ(L.memory_bits, 4);
  ASSERT_EQ(L.row_bytes, 8);
  LaunchInput in;
  in.shape = {1, 4096, 1, 1};
  in.state.smem.assign(4096, 0);
  for (int row = 0; row < 8; ++row)  // rows 32 bytes apart, lane `row` supplying row `row`
    for (int col = 0; col < 16; ++col)
      in.state.smem[static_cast<std::size_t>(32 * row + col / 2)] |=
          static_cast<std::uint8_t>(nibble(row, col) << (4 * (col % 2)));
  in.state.regs.assign(32, 0xDEADBEEF);
  in.offsets.assign(32, 0);
  for (int lane = 0; lane < 8; ++lane)
    in.offsets[static_cast<std::size_t>(lane)] = static_cast<std::uint32_t>(32 * lane);
  const LaunchState out = expected_state({{&inst, L}}, in);
  for (int lane = 0; lane < 32; ++lane) {
    std::uint32_t want = 0;
    for (int i = 0; i < 4; ++i) want |= as_s8(nibble(lane / 4, (lane % 4) * 4 + i)) << (8 * i);
    EXPECT_EQ(out.regs[static_cast<std::size_t>(lane)], want) << "lane " << lane;
  }
  EXPECT_EQ(out.smem, in.state.smem);  // a load leaves memory as it was
}

// ldmatrix's packed formats (.b8x16.b6x16_p32, .b8x16.b4x16_p64) against a statement of their
// layout written here from the evidence, not from the spec's formulas: TileLang's hardware test
// (tile-ai/tilelang, testing/python/language/test_tilelang_language_ldmatrix_sub_byte.py, "verified
// on RTX PRO 6000"), re-implemented: elements packed LSB-first into each 16-byte row, padding
// poisoned with 0xEE, and the .m8n16 .x4 fragment "lane l -> row l//4, 4 bytes at 4*(l%4)",
// register r = matrix r, each element zero-extended. The reading side is its own statement too:
// a row is a little-endian 128-bit integer, element k its bits [b*k, b*k+b). .m16n16 has no
// hardware evidence: its fragment is the .m16n16 .b8 form's (pinned against Triton in
// test_blackwell_layouts.cpp) with each row unpacked.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "kinds/matrix_move/case_data.hpp"
#include "kinds/matrix_move/matrix_move_planner.hpp"
#include "kinds/matrix_move/reference_model.hpp"
#include "spec/layout.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

using Elements = std::vector<std::vector<int>>;  // [matrix * rows + row][col]

// TileLang's _pack_su4 / _pack_su6: bit b of element i goes to bit 6*i+b (4*i+b) of the row's
// payload; every other byte of the row keeps the 0xEE sentinel.
void pack_row(std::vector<std::uint8_t>& mem, std::size_t at, const std::vector<int>& row, int bits) {
  for (int b = 0; b < 16; ++b) mem[at + static_cast<std::size_t>(b)] = 0xEE;
  for (int b = 0; b < 2 * bits; ++b) mem[at + static_cast<std::size_t>(b)] = 0;
  for (int i = 0; i < 16; ++i)
    for (int b = 0; b < bits; ++b)
      if (row[static_cast<std::size_t>(i)] & (1 << b)) {
        const int bit = bits * i + b;
        mem[at + static_cast<std::size_t>(bit / 8)] |= static_cast<std::uint8_t>(1 << (bit % 8));
      }
}

// The reading side: the row as a little-endian 128-bit integer, element k its bits [b*k, b*k+b).
int unpack(const std::vector<std::uint8_t>& mem, std::size_t at, int k, int bits) {
  unsigned __int128 row = 0;
  for (int b = 15; b >= 0; --b) row = row << 8 | mem[at + static_cast<std::size_t>(b)];
  return static_cast<int>((row >> (bits * k)) & ((1u << bits) - 1));
}

Elements random_elements(int rows, int bits, unsigned seed) {
  std::mt19937 rng(seed);
  Elements e(static_cast<std::size_t>(rows), std::vector<int>(16));
  for (auto& row : e)
    for (auto& v : row) v = static_cast<int>(rng() % (1u << bits));
  return e;
}

// One warp; row k at byte 16 * k (TileLang's mat * 128 + row * 16), supplied by lane k.
LaunchInput rows_input(const Elements& e, int bits, int regs) {
  LaunchInput in;
  in.shape = {1, 4096, 1, regs};
  in.state.smem.assign(4096, 0x5A);
  in.state.regs.assign(static_cast<std::size_t>(32 * regs), 0xDEADBEEF);
  in.offsets.assign(32, 0);
  for (std::size_t k = 0; k < e.size(); ++k) {
    pack_row(in.state.smem, 16 * k, e[k], bits);
    in.offsets[k] = static_cast<std::uint32_t>(16 * k);
  }
  return in;
}

std::uint8_t byte_of(std::uint32_t reg, int i) { return static_cast<std::uint8_t>(reg >> (8 * i)); }

}  // namespace

// The packer and the reading side agree, on a 6-bit element that straddles bytes 0 and 1 (bits
// 6..11) and on every element of random rows.
TEST(PackedLoad, ElementsAreLittleEndianBitFieldsOfTheRow) {
  std::vector<std::uint8_t> mem(16, 0);
  mem[0] = 0x80;  // bit 7: element 1's bit 1
  mem[1] = 0x0A;  // bits 9 and 11: element 1's bits 3 and 5
  EXPECT_EQ(unpack(mem, 0, 0, 6), 0);
  EXPECT_EQ(unpack(mem, 0, 1, 6), 0x2A);
  EXPECT_EQ(unpack(mem, 0, 2, 6), 0);
  for (int bits : {4, 6}) {
    const Elements e = random_elements(8, bits, 11u * static_cast<unsigned>(bits));
    for (std::size_t r = 0; r < e.size(); ++r) {
      pack_row(mem, 0, e[r], bits);
      for (int k = 0; k < 16; ++k) EXPECT_EQ(unpack(mem, 0, k, bits), e[r][static_cast<std::size_t>(k)]) << bits;
      for (int b = 2 * bits; b < 16; ++b) EXPECT_EQ(mem[static_cast<std::size_t>(b)], 0xEE);  // padding
    }
  }
}

// The model's .m8n16 .x4 against TileLang's expected fragment, both formats.
TEST(PackedLoad, M8n16IsTileLangsHardwareLayout) {
  Suite s = build_suite(load_specs(spec_files()));
  for (auto [id, bits] : {std::pair{"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32@a64", 6},
                          std::pair{"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64@a32", 4}}) {
    const Instance& inst = find_instance(s, id);
    const Layout L = compute_layout(inst);
    ASSERT_EQ(L.row_bytes, 16) << id;
    Elements e = random_elements(32, bits, 7u * static_cast<unsigned>(bits));
    e[0][1] = (1 << bits) - 1;  // all ones: a straddling 6-bit element must arrive whole
    const LaunchInput in = rows_input(e, bits, 4);
    const LaunchState out = expected_state({{&inst, L}}, in);
    for (int lane = 0; lane < 32; ++lane)
      for (int mat = 0; mat < 4; ++mat)
        for (int j = 0; j < 4; ++j)
          EXPECT_EQ(byte_of(out.regs[static_cast<std::size_t>(4 * lane + mat)], j),
                    e[static_cast<std::size_t>(8 * mat + lane / 4)][static_cast<std::size_t>(4 * (lane % 4) + j)])
              << id << " lane " << lane << " matrix " << mat << " byte " << j;
    EXPECT_EQ(byte_of(out.regs[0], 1), (1 << bits) - 1) << id;
    EXPECT_EQ(out.smem, in.state.smem) << id;  // a load leaves memory as it was
  }
}

// Poisoned padding never reaches the registers: whatever the padding holds, the same result, and
// every byte zero-extended.
TEST(PackedLoad, PaddingIsNeverRead) {
  Suite s = build_suite(load_specs(spec_files()));
  for (auto [id, bits] : {std::pair{"ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32@a32", 6},
                          std::pair{"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b4x16_p64@a64", 4}}) {
    const Instance& inst = find_instance(s, id);
    const Layout L = compute_layout(inst);
    const Elements e = random_elements(16, bits, 3);
    const LaunchInput in = rows_input(e, bits, L.registers);
    LaunchInput other = in;
    for (std::size_t k = 0; k < e.size(); ++k)
      for (int b = 2 * bits; b < 16; ++b) other.state.smem[16 * k + static_cast<std::size_t>(b)] = 0xFF;
    const LaunchState out = expected_state({{&inst, L}}, in);
    EXPECT_EQ(expected_state({{&inst, L}}, other).regs, out.regs) << id;
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < L.registers; ++r)
        for (int i = 0; i < 4; ++i)
          EXPECT_LT(byte_of(out.regs[static_cast<std::size_t>(lane * L.registers + r)], i), 1 << bits) << id;
  }
}

// .m16n16: the .b8 form's fragment, each row's elements unpacked from its 16 bytes.
TEST(PackedLoad, M16n16IsTheB8LayoutUnpacked) {
  Suite s = build_suite(load_specs(spec_files()));
  const Layout b8 = compute_layout(find_instance(s, "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8@a64"));
  for (auto [id, bits] : {std::pair{"ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b6x16_p32@a64", 6},
                          std::pair{"ldmatrix.sync.aligned.m16n16.x2.trans.b8x16.b4x16_p64@a64", 4}}) {
    const Instance& inst = find_instance(s, id);
    const Layout L = compute_layout(inst);
    ASSERT_EQ(L.registers, 4) << id;
    const Elements e = random_elements(32, bits, 5u * static_cast<unsigned>(bits));
    const LaunchInput in = rows_input(e, bits, 4);
    const LaunchState out = expected_state({{&inst, L}}, in);
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < 4; ++r)
        for (int i = 0; i < 4; ++i) {
          const ElementPos& p = b8.at(lane, r, i);
          EXPECT_EQ(byte_of(out.regs[static_cast<std::size_t>(4 * lane + r)], i),
                    unpack(in.state.smem, static_cast<std::size_t>(16 * (16 * p.matrix + p.row)), p.col, bits))
              << id << " lane " << lane << " r" << r << " byte " << i;
        }
  }
}

// Every case poisons every row's padding (bytes 12..15, 8..15), and the unique data gives the 16
// elements of each row distinct values, so that an element read from the wrong place shows.
TEST(PackedLoad, CasesPoisonThePaddingAndRowsHoldDistinctElements) {
  Suite s = build_suite(load_specs(spec_files()));
  for (auto [kernel, bits] : {std::pair{"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32_a64", 6},
                              std::pair{"ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b4x16_p64_a32", 4}}) {
    const KernelPlan* k = s.find_kernel(kernel);
    ASSERT_NE(k, nullptr) << kernel;
    const std::vector<ModelStep> steps = matrix_move_model_steps(*k);
    const Layout& L = steps[0].layout;
    for (auto const& c : s.specs.cases.cases) {
      if (!takes(*k, c)) continue;
      const LaunchInput in = make_case_input(s.specs.cases, c, steps);
      for (int w = 0; w < in.shape.warps; ++w)
        for (int lane = 0; lane < 32; ++lane) {
          if (!L.active[static_cast<std::size_t>(lane)] || c.fault != Fault::None) continue;
          const std::size_t at =
              static_cast<std::size_t>(w * in.shape.tile_bytes) + in.offsets[static_cast<std::size_t>(w * 32 + lane)];
          for (int b = 2 * bits; b < 16; ++b)
            EXPECT_EQ(in.state.smem[at + static_cast<std::size_t>(b)], kPaddingPoison) << kernel << " " << c.name;
          if (c.data != DataKind::Unique) continue;
          std::set<int> values;
          for (int col = 0; col < 16; ++col) values.insert(unpack(in.state.smem, at, col, bits));
          EXPECT_EQ(values.size(), 16u) << kernel << " " << c.name << " warp " << w << " lane " << lane;
        }
    }
  }
}

// The reference model against independent oracles: the printed outputs of xuwh's study notes
// "ldmatrix" (in Chinese; specs/documents.yaml, xuwh-2025-ldmatrix-notes) and of S. Veitner's blog post
// "Load and store matrices efficently with PTX instructions" (real ldmatrix/stmatrix runs that their authors
// printed). Each oracle is also run against a deliberately wrong fragment formula, which must make it fail.
#include <gtest/gtest.h>

#include "kinds/matrix_move/reference_model.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

// The study notes, "The logical shape of A" (16x16, fp16 values printed as integers).
const int kA16[16][16] = {
    {1, 3, 1, 4, 5, 4, 8, 9, 6, 5, 7, 7, 2, 3, 1, 6}, {6, 5, 8, 4, 3, 9, 9, 2, 8, 4, 2, 8, 7, 9, 3, 7},
    {2, 1, 9, 4, 4, 7, 3, 7, 9, 1, 5, 8, 3, 3, 4, 8}, {5, 1, 3, 8, 9, 9, 7, 5, 1, 6, 1, 8, 5, 4, 3, 4},
    {2, 9, 8, 6, 4, 1, 1, 2, 1, 3, 9, 2, 3, 4, 7, 8}, {4, 9, 4, 1, 7, 8, 5, 7, 2, 5, 3, 4, 6, 4, 7, 8},
    {3, 5, 2, 5, 4, 9, 6, 2, 3, 5, 3, 3, 8, 1, 1, 9}, {7, 4, 9, 2, 9, 2, 9, 1, 7, 9, 4, 1, 3, 2, 8, 4},
    {4, 7, 8, 5, 7, 4, 7, 7, 6, 9, 9, 3, 7, 1, 2, 3}, {2, 9, 4, 2, 1, 3, 2, 5, 1, 4, 6, 3, 5, 2, 4, 6},
    {7, 9, 2, 4, 3, 8, 1, 7, 5, 7, 9, 1, 5, 1, 3, 7}, {7, 6, 6, 8, 9, 5, 1, 7, 8, 4, 9, 3, 4, 2, 7, 1},
    {1, 8, 4, 2, 4, 2, 8, 6, 6, 7, 6, 2, 5, 8, 8, 3}, {5, 2, 8, 2, 6, 8, 8, 5, 1, 5, 5, 4, 4, 2, 4, 5},
    {7, 5, 4, 1, 6, 2, 7, 2, 6, 3, 3, 8, 9, 8, 1, 4}, {9, 6, 3, 6, 3, 8, 8, 3, 1, 3, 4, 5, 3, 7, 9, 9}};

// The study notes, ldmatrix x4: "thread=t, val=..." (registers 0..3, low half first).
const int kX4Lanes[32][8] = {
    {1, 3, 4, 7, 6, 5, 6, 9}, {1, 4, 8, 5, 7, 7, 9, 3}, {5, 4, 7, 4, 2, 3, 7, 1}, {8, 9, 7, 7, 1, 6, 2, 3},
    {6, 5, 2, 9, 8, 4, 1, 4}, {8, 4, 4, 2, 2, 8, 6, 3}, {3, 9, 1, 3, 7, 9, 5, 2}, {9, 2, 2, 5, 3, 7, 4, 6},
    {2, 1, 7, 9, 9, 1, 5, 7}, {9, 4, 2, 4, 5, 8, 9, 1}, {4, 7, 3, 8, 3, 3, 5, 1}, {3, 7, 1, 7, 4, 8, 3, 7},
    {5, 1, 7, 6, 1, 6, 8, 4}, {3, 8, 6, 8, 1, 8, 9, 3}, {9, 9, 9, 5, 5, 4, 4, 2}, {7, 5, 1, 7, 3, 4, 7, 1},
    {2, 9, 1, 8, 1, 3, 6, 7}, {8, 6, 4, 2, 9, 2, 6, 2}, {4, 1, 4, 2, 3, 4, 5, 8}, {1, 2, 8, 6, 7, 8, 8, 3},
    {4, 9, 5, 2, 2, 5, 1, 5}, {4, 1, 8, 2, 3, 4, 5, 4}, {7, 8, 6, 8, 6, 4, 4, 2}, {5, 7, 8, 5, 7, 8, 4, 5},
    {3, 5, 7, 5, 3, 5, 6, 3}, {2, 5, 4, 1, 3, 3, 3, 8}, {4, 9, 6, 2, 8, 1, 9, 8}, {6, 2, 7, 2, 1, 9, 1, 4},
    {7, 4, 9, 6, 7, 9, 1, 3}, {9, 2, 3, 6, 4, 1, 4, 5}, {9, 2, 3, 8, 3, 2, 3, 7}, {9, 1, 8, 3, 8, 4, 9, 9}};

// The study notes, ldmatrix x4.trans: "The copy result of B".
const int kX4TransB[16][16] = {
    {1, 6, 2, 5, 2, 4, 3, 7, 6, 8, 9, 1, 1, 2, 3, 7}, {3, 5, 1, 1, 9, 9, 5, 4, 5, 4, 1, 6, 3, 5, 5, 9},
    {1, 8, 9, 3, 8, 4, 2, 9, 7, 2, 5, 1, 9, 3, 3, 4}, {4, 4, 4, 8, 6, 1, 5, 2, 7, 8, 8, 8, 2, 4, 3, 1},
    {5, 3, 4, 9, 4, 7, 4, 9, 2, 7, 3, 5, 3, 6, 8, 3}, {4, 9, 7, 9, 1, 8, 9, 2, 3, 9, 3, 4, 4, 4, 1, 2},
    {8, 9, 3, 7, 1, 5, 6, 9, 1, 3, 4, 3, 7, 7, 1, 8}, {9, 2, 7, 5, 2, 7, 2, 1, 6, 7, 8, 4, 8, 8, 9, 4},
    {4, 2, 7, 7, 1, 5, 7, 9, 6, 1, 5, 8, 6, 1, 6, 1}, {7, 9, 9, 6, 8, 2, 5, 6, 9, 4, 7, 4, 7, 5, 3, 3},
    {8, 4, 2, 6, 4, 8, 4, 3, 9, 6, 9, 9, 6, 5, 3, 4}, {5, 2, 4, 8, 2, 2, 1, 6, 3, 3, 1, 3, 2, 4, 8, 5},
    {7, 1, 3, 9, 4, 6, 6, 3, 7, 5, 5, 4, 5, 4, 9, 3}, {4, 3, 8, 5, 2, 8, 2, 8, 1, 2, 1, 2, 8, 2, 8, 7},
    {7, 2, 1, 1, 8, 8, 7, 8, 2, 4, 3, 7, 8, 4, 1, 9}, {7, 5, 7, 7, 6, 5, 2, 3, 3, 6, 7, 1, 3, 5, 4, 9}};

std::uint16_t half(std::uint32_t reg, int i) { return static_cast<std::uint16_t>(reg >> (16 * i)); }

// One warp; the matrix stored row-major with `cols` 16-bit elements a row, as the seeds do.
LaunchInput seed_input(const std::vector<std::uint16_t>& elements, int regs, std::vector<std::uint32_t> lane_offsets) {
  LaunchInput in;
  in.shape = {1, 4096, 1, regs};
  in.state.smem.assign(4096, 0);
  for (std::size_t k = 0; k < elements.size(); ++k) {
    in.state.smem[2 * k] = static_cast<std::uint8_t>(elements[k]);
    in.state.smem[2 * k + 1] = static_cast<std::uint8_t>(elements[k] >> 8);
  }
  in.state.regs.assign(static_cast<std::size_t>(32 * regs), 0);
  in.offsets = std::move(lane_offsets);
  return in;
}

LaunchState run_model(const Suite& s, const std::string& id, const LaunchInput& in) {
  const Instance& inst = find_instance(s, id);
  return expected_state({{&inst, compute_layout(inst)}}, in);
}

// The study notes' x4 (and x4.trans): lane l addresses row l % 16 at column (l / 16) * 8 of A.
LaunchState study_notes_x4(const Suite& s, bool trans) {
  std::vector<std::uint16_t> a;
  for (auto const& row : kA16)
    for (int v : row) a.push_back(static_cast<std::uint16_t>(v));
  std::vector<std::uint32_t> off;
  for (int l = 0; l < 32; ++l) off.push_back(static_cast<std::uint32_t>(2 * ((l % 16) * 16 + (l / 16) * 8)));
  return run_model(
      s, trans ? "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16@a32" : "ldmatrix.sync.aligned.m8n8.x4.shared.b16@a32",
      seed_input(a, 4, off));
}

int mismatches_x4_lanes(const Suite& s) {
  LaunchState st = study_notes_x4(s, false);
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int k = 0; k < 8; ++k) bad += half(st.regs[static_cast<std::size_t>(l * 4 + k / 2)], k % 2) != kX4Lanes[l][k];
  return bad;
}

// The study notes' kernel writes registers back with row = t / 4, col = t % 4 * 2 (+8 rows for r1 and
// r3, +8 columns for r2 and r3); the printed B is that matrix.
int mismatches_x4_trans(const Suite& s) {
  LaunchState st = study_notes_x4(s, true);
  int d[16][16] = {};
  for (int t = 0; t < 32; ++t) {
    int row = t / 4, col = t % 4 * 2;
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 2; ++i)
        d[row + (r % 2) * 8][col + i + (r / 2) * 8] = half(st.regs[static_cast<std::size_t>(t * 4 + r)], i);
  }
  int bad = 0;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) bad += d[r][c] != kX4TransB[r][c];
  return bad;
}

// The study notes' x2: A is the first 16 rows of 8 (the 16x8 matrix it prints); lanes 0-15 address row
// lane % 16; D[row][col] = r0, D[row + 8][col] = r1 and the printed copy equals A.
int mismatches_x2(const Suite& s) {
  const int a16x8[16][8] = {
      {1, 3, 1, 4, 5, 4, 8, 9}, {6, 5, 7, 7, 2, 3, 1, 6}, {6, 5, 8, 4, 3, 9, 9, 2}, {8, 4, 2, 8, 7, 9, 3, 7},
      {2, 1, 9, 4, 4, 7, 3, 7}, {9, 1, 5, 8, 3, 3, 4, 8}, {5, 1, 3, 8, 9, 9, 7, 5}, {1, 6, 1, 8, 5, 4, 3, 4},
      {2, 9, 8, 6, 4, 1, 1, 2}, {1, 3, 9, 2, 3, 4, 7, 8}, {4, 9, 4, 1, 7, 8, 5, 7}, {2, 5, 3, 4, 6, 4, 7, 8},
      {3, 5, 2, 5, 4, 9, 6, 2}, {3, 5, 3, 3, 8, 1, 1, 9}, {7, 4, 9, 2, 9, 2, 9, 1}, {7, 9, 4, 1, 3, 2, 8, 4}};
  std::vector<std::uint16_t> a;
  for (auto const& row : a16x8)
    for (int v : row) a.push_back(static_cast<std::uint16_t>(v));
  std::vector<std::uint32_t> off;
  for (int l = 0; l < 32; ++l) off.push_back(l < 16 ? static_cast<std::uint32_t>(2 * (l % 16) * 8) : 0u);
  LaunchState st = run_model(s, "ldmatrix.sync.aligned.m8n8.x2.shared.b16@a32", seed_input(a, 2, off));
  int bad = 0;
  for (int t = 0; t < 32; ++t)
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 2; ++i)
        bad += half(st.regs[static_cast<std::size_t>(t * 2 + r)], i) != a16x8[t / 4 + 8 * r][t % 4 * 2 + i];
  return bad;
}

// The blog post's ldmatrix x1: smem[i] = i, rows 8 elements apart; the printed table gives lane t the
// values 2t and 2t+1 ("0 -> 0  0   1", ..., "31 -> 62  62   63").
int mismatches_x1(const Suite& s) {
  std::vector<std::uint16_t> a;
  for (int k = 0; k < 64; ++k) a.push_back(static_cast<std::uint16_t>(k));
  std::vector<std::uint32_t> off;
  for (int l = 0; l < 32; ++l) off.push_back(static_cast<std::uint32_t>(2 * (l % 8) * 8));
  LaunchState st = run_model(s, "ldmatrix.sync.aligned.m8n8.x1.shared.b16@a32", seed_input(a, 1, off));
  int bad = 0;
  for (int t = 0; t < 32; ++t)
    bad += half(st.regs[static_cast<std::size_t>(t)], 0) != 2 * t ||
           half(st.regs[static_cast<std::size_t>(t)], 1) != 2 * t + 1;
  return bad;
}

// The blog post's stmatrix x1: lane t holds (2t, 2t+1); afterwards smem[2t] == 2t (the printed table).
int mismatches_stmatrix_x1(const Suite& s) {
  LaunchInput in = seed_input({}, 1, {});
  for (int l = 0; l < 32; ++l) {
    in.offsets.push_back(static_cast<std::uint32_t>(2 * (l % 8) * 8));
    in.state.regs[static_cast<std::size_t>(l)] =
        static_cast<std::uint32_t>(2 * l) | static_cast<std::uint32_t>(2 * l + 1) << 16;
  }
  LaunchState st = run_model(s, "stmatrix.sync.aligned.m8n8.x1.shared.b16@a32", in);
  int bad = 0;
  for (int k = 0; k < 64; ++k)
    bad += (st.smem[static_cast<std::size_t>(2 * k)] | st.smem[static_cast<std::size_t>(2 * k + 1)] << 8) != k;
  return bad;
}

Suite real_suite() { return build_suite(load_specs(spec_files())); }

// The fragment's column formula with elements 0 and 1 swapped: still a valid layout, but wrong.
Suite wrong_col_suite(const std::string& file) {
  return build_suite(load_specs(spec_files(file, "      row: lane / 4\n      col: (lane % 4) * 2 + i\n",
                                           "      row: lane / 4\n      col: (lane % 4) * 2 + 1 - i\n")));
}

// The .trans layout with row and column swapped back (i.e. no transpose).
Suite wrong_trans_suite() {
  return build_suite(load_specs(spec_files("ldmatrix.yaml", "        row: (lane % 4) * 2 + i\n        col: lane / 4\n",
                                           "        row: lane / 4\n        col: (lane % 4) * 2 + i\n")));
}

}  // namespace

TEST(ReferenceOracles, StudyNotesLdmatrixX4PerLaneValues) { EXPECT_EQ(mismatches_x4_lanes(real_suite()), 0); }
TEST(ReferenceOracles, StudyNotesLdmatrixX4TransMatrix) { EXPECT_EQ(mismatches_x4_trans(real_suite()), 0); }
TEST(ReferenceOracles, StudyNotesLdmatrixX2Matrix) { EXPECT_EQ(mismatches_x2(real_suite()), 0); }
TEST(ReferenceOracles, BlogPostLdmatrixX1LaneTable) { EXPECT_EQ(mismatches_x1(real_suite()), 0); }
TEST(ReferenceOracles, BlogPostStmatrixX1Table) { EXPECT_EQ(mismatches_stmatrix_x1(real_suite()), 0); }

// The same oracles catch a wrong formula: each must report mismatches.
TEST(ReferenceOracles, WrongColumnFormulaFailsEveryLdmatrixOracle) {
  Suite wrong = wrong_col_suite("ldmatrix.yaml");
  EXPECT_GT(mismatches_x4_lanes(wrong), 0);
  EXPECT_GT(mismatches_x2(wrong), 0);
  EXPECT_GT(mismatches_x1(wrong), 0);
}
TEST(ReferenceOracles, WrongColumnFormulaFailsTheStmatrixOracle) {
  EXPECT_GT(mismatches_stmatrix_x1(wrong_col_suite("stmatrix.yaml")), 0);
}
TEST(ReferenceOracles, MissingTransposeFailsTheTransOracle) { EXPECT_GT(mismatches_x4_trans(wrong_trans_suite()), 0); }

// movmatrix, lane by lane: with A[row][col] = 8 * row + col + 1 in the source fragment (row
// lane / 4, columns (lane % 4) * 2 + i), the transpose T = A^T in the same arrangement gives lane L
// element i the value T[L / 4][(L % 4) * 2 + i] = A[(L % 4) * 2 + i][L / 4]. Applying it twice and
// getting A back is not enough (a no-op passes that): every lane's value is checked.
TEST(ReferenceOracles, MovmatrixPerLaneTranspose) {
  auto mismatches = [](const Suite& s) {
    const Instance& inst = find_instance(s, "movmatrix.sync.aligned.m8n8.trans.b16");
    LaunchInput in;
    in.shape = {1, 256, 1, 1};
    in.state.smem.assign(256, 0);
    in.offsets.assign(32, 0);
    for (int l = 0; l < 32; ++l) {
      std::uint32_t lo = static_cast<std::uint32_t>(8 * (l / 4) + (l % 4) * 2 + 0 + 1), hi = lo + 1;
      in.state.regs.push_back(lo | hi << 16);
    }
    LaunchState out = expected_state({{&inst, compute_layout(inst)}}, in);
    int bad = 0;
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < 2; ++i)
        bad += half(out.regs[static_cast<std::size_t>(l)], i) != 8 * ((l % 4) * 2 + i) + l / 4 + 1;
    return bad;
  };
  EXPECT_EQ(mismatches(real_suite()), 0);
  // A spec whose result is the source layout (no transpose) fails the oracle.
  Suite noop = build_suite(load_specs(spec_files(
      "movmatrix.yaml", "      result:\n        matrix: r\n        row: (lane % 4) * 2 + i\n        col: lane / 4\n",
      "      result:\n        matrix: r\n        row: lane / 4\n        col: (lane % 4) * 2 + i\n")));
  EXPECT_EQ(mismatches(noop), 56);  // all but the 8 diagonal elements
}

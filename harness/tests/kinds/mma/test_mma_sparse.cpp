// mma.sp and mma.sp::ordered_metadata: the metadata reading (kinds/mma/mma_sparse.hpp), against
// the documents' words and a public reading (LLVM's MLIR test of m16n8k32 .f16), and the power of
// the cases to see a wrong reading: a device that reads another selector's lanes, a neighbouring
// field, the other half of e, a chunk's indices swapped or its values swapped fails some case of
// every mma.sp kernel.
#include <gtest/gtest.h>

#include <algorithm>

#include "kinds/kinds.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_check.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/mma/mma_sparse.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& sparse_suite() {
  return loaded_suite();
}

// The plain mma.sp kernels: not compositions, nor the kernels of the undefined cases' lanes shapes
// (three on one mma.sp::ordered_metadata form, each taking its one case: MmaUndefined.*).
std::vector<const KernelPlan*> sparse_kernels() {
  std::vector<const KernelPlan*> out;
  for (auto const& k : sparse_suite().kernels)
    if (k.kind == &mma_kind() && !is_composition(k) && !mma_lanes_kernel(k) && mma_info(k.subject_instance()).sparse.chunk)
      out.push_back(&k);
  return out;
}

const KernelPlan& sparse_kernel(const std::string& name) {
  const KernelPlan* k = sparse_suite().find_kernel(name);
  if (!k) throw std::runtime_error("no kernel " + name);
  return *k;
}

// The ways a device may read the metadata otherwise than the suite's reading.
enum class Misreading { OtherSelector, NeighbourField, OtherHalf, IndicesSwapped, ValuesSwapped };

// A as a device that misreads the metadata forms it.
MatrixValues misread_a(const MmaInfo& x, const MatrixValues& nonzero, const std::uint32_t* warp, int stride,
                       Misreading how) {
  const int chunk = x.sparse.chunk, per_chunk = chunk / 2, selectors = 4 / x.sparse.threads;
  MatrixValues a = nonzero;
  a.cols = nonzero.cols * 2;
  a.bits.assign(static_cast<std::size_t>(a.rows * a.cols), 0);
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < a.cols / chunk; ++c) {
      const int sel = how == Misreading::OtherSelector ? (x.sparse.selector + 1) % selectors : x.sparse.selector;
      MetadataPlace p = metadata_place(x.sparse, r, how == Misreading::NeighbourField ? c ^ 1 : c, sel);
      if (how == Misreading::OtherHalf) p.bit ^= 16;
      unsigned field = (warp[p.lane * stride + x.sparse.e_word] >> p.bit) & 0xFu;
      if (how == Misreading::IndicesSwapped) field = ((field & 3u) << 2) | (field >> 2);
      std::vector<int> cols = kept_columns(chunk, field);
      if (how == Misreading::ValuesSwapped) std::reverse(cols.begin(), cols.end());
      for (std::size_t j = 0; j < cols.size(); ++j)
        a.at(r, c * chunk + cols[j]) = nonzero.at(r, c * per_chunk + static_cast<int>(j));
    }
  return a;
}

LaunchState misreading_device(const MmaInfo& x, const LaunchInput& in, Misreading how) {
  LaunchState s = in.state;
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = s.regs.data() + static_cast<std::size_t>(w * kWarpLanes * in.shape.regs);
    const auto nonzero = mma_matrices(x, x.a, warp, in.shape.regs), b = mma_matrices(x, x.b, warp, in.shape.regs),
               c = mma_matrices(x, x.c, warp, in.shape.regs);
    std::vector<MatrixValues> d{
        multiply_accumulate(x.rule, misread_a(x, nonzero[0], warp, in.shape.regs, how), b[0], c[0])};
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int k = 0; k < x.d.words(); ++k) warp[lane * in.shape.regs + x.d.first_word + k] = 0;
    mma_place(x.d, d, warp, in.shape.regs);
  }
  return s;
}

}  // namespace

// 9.7.14.6.1: one lane (m16n8k16, m16n8k8 .tf32), a pair (f = 0: T0, T1; f = 1: T2, T3) or all
// four lanes of a group contribute. LLVM's MLIR test (sparse-mma-2-4-f16.mlir, m16n8k32 .f16,
// selector 0): lane 4q + p holds row q's 16-bit half p in bits 15..0 and row q + 8's in 31..16.
TEST(MmaSparse, MetadataPlacesAsTheDocumentsAndMlirReadThem) {
  const MmaSparseInfo pair{.chunk = 4, .selector = 0, .threads = 2, .ordered = false, .e_word = 0};
  EXPECT_EQ(metadata_place(pair, 0, 0, 0).lane, 0);
  EXPECT_EQ(metadata_place(pair, 0, 0, 0).bit, 0);
  EXPECT_EQ(metadata_place(pair, 8, 0, 0).lane, 0);  // row q + 8: the high half
  EXPECT_EQ(metadata_place(pair, 8, 0, 0).bit, 16);
  EXPECT_EQ(metadata_place(pair, 0, 4, 0).lane, 1);  // columns 16..31: T1
  EXPECT_EQ(metadata_place(pair, 3, 7, 0).lane, 13);
  EXPECT_EQ(metadata_place(pair, 3, 7, 0).bit, 12);
  EXPECT_EQ(metadata_place(pair, 0, 0, 1).lane, 2);  // f = 1: T2, T3
  EXPECT_EQ(metadata_place(pair, 15, 5, 1).lane, 31);
  EXPECT_EQ(metadata_place(pair, 15, 5, 1).bit, 20);
  const MmaSparseInfo one{.chunk = 4, .selector = 0, .threads = 1, .ordered = false, .e_word = 0};
  EXPECT_EQ(metadata_place(one, 9, 2, 3).lane, 7);  // m16n8k16: the one lane f names
  EXPECT_EQ(metadata_place(one, 9, 2, 3).bit, 24);
  const MmaSparseInfo all{.chunk = 4, .selector = 0, .threads = 4, .ordered = false, .e_word = 0};
  EXPECT_EQ(metadata_place(all, 6, 13, 0).lane, 27);  // m16n8k64 .s8: chunk 13 is T3's
  EXPECT_EQ(metadata_place(all, 6, 13, 0).bit, 4);
}

// 9.7.14.6.1: the indices of a chunk's two non-zero values; MLIR's 0x8888 places them at 0 and 2;
// .tf32's only meaningful values 0b0100 and 0b1110; .u4/.s4 index two-wide sub-chunks.
TEST(MmaSparse, FieldsPlaceValuesAsTheDocumentsSay) {
  EXPECT_EQ(kept_columns(4, 0b1000u), (std::vector<int>{0, 2}));
  EXPECT_EQ(kept_columns(4, 0b0100u), (std::vector<int>{0, 1}));
  EXPECT_EQ(kept_columns(4, 0b1110u), (std::vector<int>{2, 3}));
  EXPECT_EQ(kept_columns(2, 0b0100u), (std::vector<int>{0}));
  EXPECT_EQ(kept_columns(2, 0b1110u), (std::vector<int>{1}));
  EXPECT_EQ(kept_columns(8, 0b1101u), (std::vector<int>{2, 3, 6, 7}));
  for (unsigned invalid : {0b0000u, 0b0101u, 0b1010u, 0b1111u}) EXPECT_TRUE(kept_columns(4, invalid).empty());
  EXPECT_EQ(meaningful_fields(4), (std::vector<unsigned>{0b0100u, 0b1000u, 0b1001u, 0b1100u, 0b1101u, 0b1110u}));
}

// The kernels: every documented selector value of every shape, both spellings.
TEST(MmaSparse, EverySelectorOfEveryShapeHasAKernel) {
  std::map<std::string, std::set<int>> selectors;
  int ordered = 0;
  for (const KernelPlan* k : sparse_kernels()) {
    const MmaInfo x = mma_info(k->subject_instance());
    selectors[k->subject_instance().variant().name].insert(x.sparse.selector);
    ordered += x.sparse.ordered;
  }
  EXPECT_EQ(selectors["mma.sparse.m16n8k16.f16"], (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k32.f16"], (std::set<int>{0, 1}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k8.tf32"], (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k16.tf32"], (std::set<int>{0, 1}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k32.s8"], (std::set<int>{0, 1}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k64.s8"], (std::set<int>{0}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k64.s4"], (std::set<int>{0, 1}));
  EXPECT_EQ(selectors["mma.sparse.m16n8k128.s4"], (std::set<int>{0}));
  EXPECT_EQ(ordered * 2, static_cast<int>(sparse_kernels().size()));
  const KernelPlan& k = sparse_kernel("mma.sp__ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32_e_1");
  EXPECT_NE(mma_kind().instruction_text(k).find("{%w8, %w9, %w10, %w11}, %w16, 1;"), std::string::npos)
      << mma_kind().instruction_text(k);
}

// Each misreading fails some case of every mma.sp kernel (a selector misread only where there is
// another; values swapped only where a chunk has two).
TEST(MmaSparse, EachMisreadingOfTheMetadataFailsSomeCase) {
  int kernels = 0;
  for (const KernelPlan* k : sparse_kernels()) {
    const MmaInfo x = mma_info(k->subject_instance());
    std::vector<std::unique_ptr<PreparedCase>> prepared;
    for (auto const& c : sparse_suite().specs.cases.cases)
      if (mma_kind().takes(*k, c)) prepared.push_back(mma_kind().prepare(sparse_suite().specs.cases, c, *k));
    ASSERT_GE(prepared.size(), 4u) << k->name;
    for (Misreading how : {Misreading::OtherSelector, Misreading::NeighbourField, Misreading::OtherHalf,
                           Misreading::IndicesSwapped, Misreading::ValuesSwapped}) {
      if (how == Misreading::OtherSelector && x.sparse.threads == 4) continue;
      if (how == Misreading::ValuesSwapped && x.sparse.chunk == 2) continue;  // .tf32: one value a chunk
      const bool found = std::any_of(prepared.begin(), prepared.end(), [&](auto const& p) {
        return check_mma(x, p->input, misreading_device(x, p->input, how)).mismatches > 0;
      });
      EXPECT_TRUE(found) << k->name << ": misreading " << static_cast<int>(how) << " passes every case";
    }
    ++kernels;
  }
  EXPECT_EQ(kernels, 144);
}

// Issue 42, part 4: mma.sp::ordered_metadata "requires the indices in the sparsity metadata to be
// sorted in an increasing order starting from LSB, otherwise behavior is undefined". The case that
// does it (cases.yaml, mma-undefined-unsorted-ordered-metadata) takes one kernel, and in every warp
// every field at the instance's selector holds two indices in decreasing order (bits 1..0 the larger);
// a device that sorts them before use (reads them as ordered) gives another D than plain mma.sp's
// reading, the case's model, so the observation tells the two apart.
TEST(MmaSparse, UnsortedMetadataCaseHasEveryPairDecreasingOnOneKernel) {
  const CaseSpec* c = sparse_suite().specs.find_case("mma-undefined-unsorted-ordered-metadata");
  ASSERT_TRUE(c);
  std::vector<const KernelPlan*> taking;
  for (auto const& k : sparse_suite().kernels)
    if (k.kind == &mma_kind() && mma_kind().takes(k, *c)) taking.push_back(&k);
  ASSERT_EQ(taking.size(), 1u);
  EXPECT_EQ(taking[0]->name, "mma.sp__ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32_e_0");
  const MmaInfo x = mma_info(taking[0]->subject_instance());
  EXPECT_TRUE(x.sparse.ordered);
  const auto prepared = mma_kind().prepare(sparse_suite().specs.cases, *c, *taking[0]);
  const LaunchInput& in = prepared->input;
  int fields = 0;
  for (int w = 0; w < in.shape.warps; ++w) {
    const std::uint32_t* warp = in.state.regs.data() + static_cast<std::size_t>(w * kWarpLanes * in.shape.regs);
    for (int r = 0; r < x.m; ++r)
      for (int ch = 0; ch < x.k / x.sparse.chunk; ++ch) {
        const MetadataPlace p = metadata_place(x.sparse, r, ch, x.sparse.selector);
        const unsigned field = (warp[p.lane * in.shape.regs + x.sparse.e_word] >> p.bit) & 0xFu;
        EXPECT_GT(field & 3u, field >> 2) << "warp " << w << " row " << r << " chunk " << ch;
        ++fields;
      }
  }
  EXPECT_EQ(fields, in.shape.warps * 16 * 4);  // 16 rows of 4 chunks a warp (k = 16, chunks of 4)
  EXPECT_GT(check_mma(x, in, misreading_device(x, in, Misreading::IndicesSwapped)).mismatches, 0);
}

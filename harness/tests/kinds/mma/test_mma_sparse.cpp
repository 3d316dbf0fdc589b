// mma.sp and mma.sp::ordered_metadata: the metadata reading (kinds/mma/mma_sparse.hpp), against
// the documents' words and a public reading (LLVM's MLIR test of m16n8k32 .f16), and the power of
// the cases to see a wrong reading: a device that reads another selector's lanes, a neighbouring
// field, the other half of e, a chunk's indices swapped or its values swapped fails some case of
// every mma.sp kernel; and the H200's results of the first integer reading, which the one-row reading
// (lane_fields) reproduces value for value.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "judge/negative_space.hpp"
#include "judge/probe_text.hpp"
#include "kinds/kinds.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_check.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/mma/mma_sparse.hpp"
#include "report/report_reader.hpp"
#include "spec/grammar.hpp"
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

const std::uint32_t* prepared_warp(const LaunchInput& in, int w) {
  return in.state.regs.data() + static_cast<std::size_t>(w * kWarpLanes * in.shape.regs);
}

// The ways a device may read the metadata otherwise than the suite's reading.
// OtherLaneFields: the other 'lane_fields' (two rows a lane where one, one where two).
enum class Misreading { OtherSelector, NeighbourField, OtherHalf, IndicesSwapped, ValuesSwapped, OtherLaneFields };

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
      MmaSparseInfo s = x.sparse;
      if (how == Misreading::OtherLaneFields) s.one_row = !s.one_row;
      MetadataPlace p = metadata_place(s, r, how == Misreading::NeighbourField ? c ^ 1 : c, sel);
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
  EXPECT_EQ(metadata_place(all, 6, 13, 0).lane, 27);  // two rows a lane: chunk 13 is T3's
  EXPECT_EQ(metadata_place(all, 6, 13, 0).bit, 4);
}

// The integer forms (lane_fields one-row), as the H200's results show them (the test below): a
// pair's first lane holds row groupID's eight fields, its second row groupID + 8's; all four: T0
// and T1 those rows' chunks 0..7, T2 and T3 their chunks 8..15.
TEST(MmaSparse, IntegerMetadataPlacesAreOneRowALane) {
  const MmaSparseInfo pair{.chunk = 4, .selector = 0, .threads = 2, .ordered = false, .e_word = 0, .one_row = true};
  EXPECT_EQ(metadata_place(pair, 0, 7, 0).lane, 0);  // m16n8k32 .s8: row 0, its last chunk
  EXPECT_EQ(metadata_place(pair, 0, 7, 0).bit, 28);
  EXPECT_EQ(metadata_place(pair, 8, 0, 0).lane, 1);  // row 8: T1, from bit 0
  EXPECT_EQ(metadata_place(pair, 8, 0, 0).bit, 0);
  EXPECT_EQ(metadata_place(pair, 11, 5, 1).lane, 15);  // f = 1: T2 row 3, T3 row 11
  EXPECT_EQ(metadata_place(pair, 11, 5, 1).bit, 20);
  const MmaSparseInfo all{.chunk = 4, .selector = 0, .threads = 4, .ordered = false, .e_word = 0, .one_row = true};
  EXPECT_EQ(metadata_place(all, 6, 13, 0).lane, 26);  // m16n8k64 .s8: row 6's chunks 8..15 are T2's
  EXPECT_EQ(metadata_place(all, 6, 13, 0).bit, 20);
  EXPECT_EQ(metadata_place(all, 14, 2, 0).lane, 25);  // row 14 = 6 + 8, chunks 0..7: T1
  EXPECT_EQ(metadata_place(all, 14, 2, 0).bit, 8);
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
                           Misreading::IndicesSwapped, Misreading::ValuesSwapped, Misreading::OtherLaneFields}) {
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

// The case's input as a run of the first reading wrote it: the same fields (the case's random
// draws do not depend on the reading), each at the place that reading gives it.
LaunchInput as_first_reading_wrote_it(const MmaInfo& x, LaunchInput in) {
  MmaSparseInfo first = x.sparse;
  first.one_row = false;
  for (int w = 0; w < in.shape.warps; ++w) {
    const std::uint32_t* now = prepared_warp(in, w);
    std::vector<std::uint32_t> e(kWarpLanes, 0);
    for (int r = 0; r < x.m; ++r)
      for (int c = 0; c < x.k / x.sparse.chunk; ++c)
        for (int s = 0; s < 4 / x.sparse.threads; ++s) {
          const MetadataPlace from = metadata_place(x.sparse, r, c, s), to = metadata_place(first, r, c, s);
          e[static_cast<std::size_t>(to.lane)] |= ((now[from.lane * in.shape.regs + x.sparse.e_word] >> from.bit) & 0xFu)
                                                  << to.bit;
        }
    for (int lane = 0; lane < kWarpLanes; ++lane)
      in.state.regs[static_cast<std::size_t>((w * kWarpLanes + lane) * in.shape.regs + x.sparse.e_word)] =
          e[static_cast<std::size_t>(lane)];
  }
  return in;
}

// The committed H200 run (sm_90, driver 580.159.04, the release package of 9875705) ran the integer
// forms under the first reading (two rows a lane): all 480 cases failed. Each is what the one-row
// reading computes: its report's lines (the first 16 differing values of D, with the first
// reading's expected values) and its count of differing elements are those of a device that reads
// one row a lane, judged against the first reading. The hardware's values, not the model's, are the
// expected ones here.
TEST(MmaSparse, TheH200sIntegerResultsAreTheOneRowReading) {
  // That run's report, kept as test data once the next H200 run (the one-row reading) replaced it in reports/.
  const RunReport report = read_run_report_file(std::filesystem::path(PTXCTS_TEST_DATA) / "mma-sparse" /
                                                "h200-run-of-9875705.json.gz");
  int cases = 0, lines = 0;
  for (auto const& r : report.results) {
    const KernelPlan* k = sparse_suite().find_kernel(r.kernel);
    if (!k || k->kind != &mma_kind() || is_composition(*k) || !mma_info(k->subject_instance()).sparse.one_row) continue;
    ASSERT_EQ(r.status, Status::Fail) << r.kernel << "/" << r.case_name;
    const MmaInfo x = mma_info(k->subject_instance());
    auto c = std::find_if(sparse_suite().specs.cases.cases.begin(), sparse_suite().specs.cases.cases.end(),
                          [&](auto const& cs) { return cs.name == r.case_name && mma_kind().takes(*k, cs); });
    ASSERT_NE(c, sparse_suite().specs.cases.cases.end()) << r.case_name;
    const auto prepared = mma_kind().prepare(sparse_suite().specs.cases, *c, *k);
    const LaunchInput in = as_first_reading_wrote_it(x, prepared->input);
    MmaInfo first = x;
    first.sparse.one_row = false;
    const Comparison seen = check_mma(first, in, mma_expected(x, in));
    EXPECT_EQ(seen.mismatches, r.mismatches) << r.kernel << "/" << r.case_name;
    EXPECT_EQ(seen.diff, r.diff) << r.kernel << "/" << r.case_name;
    ++cases;
    lines += static_cast<int>(r.diff.size());
  }
  EXPECT_EQ(cases, 480);
  EXPECT_EQ(lines, 7680);
}

// The syntax lines of 9.7.14.6.3 (grammar blocks mma.sp-syntax.*, e an operand and f a position of
// the constants 0 to 3): every form of every mma.sparse.* variant is a documented form of one, and
// the forms the Description (".dtype must be the same as .ctype") and 9.7.14.6.1 (the selector's
// values per shape) forbid are documented-invalid; none is left without a variant.
TEST(MmaSparse, EveryFormIsASyntaxLinesAndTheSelectorRulesForbidTheRest) {
  const Suite& suite = sparse_suite();
  std::map<std::string, std::map<DocClass, int>> n;
  std::set<const Instance*> spelled;
  for (auto const& cc : classify_grammar(suite.specs, instances_by_text(suite.instances))) {
    if (cc.combo.block->id.rfind("mma.sp-syntax.", 0) != 0) continue;
    ++n[cc.combo.block->id][cc.doc];
    if (cc.doc == DocClass::Valid) spelled.insert(cc.instance);
  }
  const std::map<std::string, std::pair<int, int>> valid_invalid = {
      {"mma.sp-syntax.half.m16n8k16", {16, 16}},     {"mma.sp-syntax.half.m16n8k32", {8, 24}},
      {"mma.sp-syntax.alt.bf16.m16n8k16", {8, 0}},   {"mma.sp-syntax.alt.bf16.m16n8k32", {4, 4}},
      {"mma.sp-syntax.alt.tf32.m16n8k8", {8, 0}},    {"mma.sp-syntax.alt.tf32.m16n8k16", {4, 4}},
      {"mma.sp-syntax.int.8bit", {48, 80}},          {"mma.sp-syntax.int.4bit", {48, 80}}};
  EXPECT_EQ(n.size(), valid_invalid.size());
  for (auto const& [id, want] : valid_invalid) {
    EXPECT_EQ(n[id][DocClass::Valid], want.first) << id;
    EXPECT_EQ(n[id][DocClass::Invalid], want.second) << id;
    EXPECT_EQ(n[id][DocClass::Unencoded], 0) << id;
  }
  EXPECT_EQ(spelled.size(), sparse_kernels().size());  // 144: each kernel's form, once
  for (const KernelPlan* k : sparse_kernels()) EXPECT_TRUE(spelled.count(&k->subject_instance())) << k->name;
  const auto all = classify_grammar(suite.specs, instances_by_text(suite.instances));
  auto it = std::find_if(all.begin(), all.end(), [](auto const& cc) {
    return cc.combo.text ==
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 {d}, {a}, {b}, {c}, {e}, 1;";
  });
  ASSERT_NE(it, all.end());
  EXPECT_EQ(probe_text(it->combo.text, documented_shape(it->combo)).instruction,
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 {%od0, %od1, %od2, %od3}, "
            "{%oa0, %oa1}, {%ob0, %ob1}, {%oc0, %oc1, %oc2, %oc3}, %oe, 1;");
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

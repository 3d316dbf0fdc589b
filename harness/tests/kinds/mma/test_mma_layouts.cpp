// mma: the manual's notation read as written, and every fragment layout of specs/mma.yaml placing
// every element of every matrix exactly once.
#include <gtest/gtest.h>

#include "kinds/kinds.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "spec/manual_formula.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& layouts_suite() {
  return loaded_suite();
}

std::int64_t eval(const ManualFormula& f, int lane, int i) {
  Bindings b;
  b.set("laneid", lane);
  b.set("i", i);
  b.set("groupID", lane >> 2);
  b.set("threadID_in_group", lane % 4);
  return f.eval(b);
}

}  // namespace

TEST(ManualFormula, ReadsTheManualsNotation) {
  EXPECT_EQ(manual_to_formula("0 <= i < 2 || 4 <= i < 6"), "(0 <= i && i < 2) || (4 <= i && i < 6)");
  EXPECT_EQ(manual_to_formula("i = {0,..,3}"), "(i >= 0 && i <= 3)");
  EXPECT_EQ(manual_to_formula("i = {0, 1}"), "(i == 0 || i == 1)");
  EXPECT_EQ(manual_to_formula("(i & 0x1F) + (%laneid & 0b10)"), "(i & 31) + (laneid & 2)");
  EXPECT_EQ(manual_to_formula("i % 2 = 0"), "i % 2 == 0");
  // 9.7.14.5.8, A .f16: rows groupID for a0, a1, a4, a5; groupID + 8 otherwise
  const auto row = ManualFormula::parse("groupID for ai where 0 <= i < 2 || 4 <= i < 6\n groupID + 8 Otherwise");
  EXPECT_EQ(eval(row, 5, 0), 1);
  EXPECT_EQ(eval(row, 5, 2), 9);
  EXPECT_EQ(eval(row, 5, 5), 1);
  EXPECT_EQ(eval(row, 5, 7), 9);
  // 9.7.14.5.7: elements named one by one
  const auto col = ManualFormula::parse("threadID_in_group for a0 and a1\nthreadID_in_group + 4 for a2 and a3");
  EXPECT_EQ(eval(col, 6, 1), 2);
  EXPECT_EQ(eval(col, 6, 3), 6);
  // 9.7.14.5.1: lanes 16-31 are the high group; a local definition
  const auto c = ManualFormula::parse(
      "X if %laneid < 16\n X + 4 otherwise\n where X = (%laneid & 0b1) + (i & 0b10) for ci where i = {0,..,7}");
  EXPECT_EQ(eval(c, 1, 2), 3);
  EXPECT_EQ(eval(c, 17, 2), 7);
  // a value no line gives is an error, not a guess
  const auto partial = ManualFormula::parse("groupID for ai where i < 2");
  EXPECT_THROW(eval(partial, 0, 3), FormulaEvalError);
}

// The sparse sections write "For ai where" as well as "for ai where", in one block even
// (9.7.14.6.2.2's firstcol); both select the line.
TEST(ManualFormula, ReadsTheCapitalisedForOfTheSparseSections) {
  // 9.7.14.6.2.6, firstcol: threadID_in_group * 8 for a0-a7, + 32 for a8-a15
  const auto f = ManualFormula::parse(
      "threadID_in_group * 8 For ai where i < 8\n (threadID_in_group * 8) + 32 For ai where i >= 8");
  EXPECT_EQ(eval(f, 5, 7), 8);    // lane 5: threadID_in_group 1
  EXPECT_EQ(eval(f, 5, 8), 40);
  EXPECT_EQ(eval(f, 31, 15), 56);  // lane 31: threadID_in_group 3
  // 9.7.14.6.2.2: "For" on the first line, "for" on the second
  const auto mixed = ManualFormula::parse(
      "threadID_in_group * 4 For ai where i < 4\n(threadID_in_group * 4) + 16 for ai where i >= 4");
  EXPECT_EQ(eval(mixed, 2, 3), 8);
  EXPECT_EQ(eval(mixed, 2, 4), 24);
  // "For" selects: without it the first line would hold for every element
  EXPECT_THROW(eval(ManualFormula::parse("threadID_in_group For ai where i < 2"), 0, 2), FormulaEvalError);
}

TEST(ManualFormula, NamesTheLineAndColumnOfWhatCannotBeRead) {
  try {
    ManualFormula::parse("(i * 2) + threadID_in_group for ai where i % 2 = 0\n (i * 2) - 2 + (threadID_in_group Otherwise");
    FAIL() << "an unbalanced parenthesis was read";
  } catch (const ManualFormulaError& e) {
    EXPECT_EQ(e.line, 1);
    EXPECT_GT(e.column, 0u);
    EXPECT_NE(std::string(e.what()).find("expected ')'"), std::string::npos) << e.what();
  }
}

// Every instance of every mma variant: each operand's formulas place each element of its
// matrices exactly once (mma_info throws naming the lanes and elements that collide).
TEST(MmaLayouts, EveryFormulaPlacesEveryElementOnce) {
  int checked = 0;
  for (auto const& inst : layouts_suite().instances) {
    if (&kind_of(inst.variant()) != &mma_kind()) continue;
    try {
      const MmaInfo x = mma_info(inst);
      // mma.sp: A's operand holds half of each row, the non-zero values (9.7.14.6.1)
      EXPECT_EQ(x.a.elements() * kWarpLanes, x.computations * x.m * x.k / (x.sparse.chunk ? 2 : 1)) << inst.id();
      ++checked;
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_GT(checked, 100);
}

// The manual's formulas against an independent statement of the same layouts: NVIDIA CUTLASS's CuTe
// (include/cute/atom/mma_traits_sm80.hpp, commit 468e0eaf), whose MMA_Traits give each atom's
// (thread, value) -> matrix position as a layout: thread = (4, 8) and value modes with strides into
// a column-major (M, K) for A, (N, K) for B and (M, N) for C. Written out here by hand, not derived
// from the specs. CuTe's value order is the fragment's element order (a0, a1, ...).
namespace {

struct CuteLayout {
  std::vector<int> shape, stride;  // thread modes (4, 8) first, then the value modes
  int at(int lane, int value) const {
    int idx = stride[0] * (lane % 4) + stride[1] * (lane / 4);
    for (std::size_t m = 2; m < shape.size(); ++m) {
      idx += stride[m] * (value % shape[m]);
      value /= shape[m];
    }
    return idx;
  }
};

struct CuteAtom {
  const char* instance;  // an instance of the spec
  CuteLayout a, b, c;
};

const CuteLayout kSm80_8x4{{4, 8, 1}, {8, 1, 0}};
const CuteLayout kSm80_8x8Row{{4, 8, 2}, {16, 1, 8}};
const CuteLayout kSm80_8x16Row{{4, 8, 4}, {32, 1, 8}};
const CuteLayout kSm80_16x8Row{{4, 8, 2, 2}, {32, 1, 16, 8}};

const CuteAtom kAtoms[] = {
    {"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", kSm80_16x8Row, kSm80_8x8Row, kSm80_16x8Row},
    {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", {{4, 8, 2, 2, 2}, {32, 1, 16, 8, 128}},
     {{4, 8, 2, 2}, {16, 1, 8, 64}}, kSm80_16x8Row},
    {"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", {{4, 8, 2}, {16, 1, 8}}, kSm80_8x4, kSm80_16x8Row},
    {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", {{4, 8, 2, 2}, {16, 1, 8, 64}}, {{4, 8, 2}, {8, 1, 32}},
     kSm80_16x8Row},
    {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", kSm80_8x4, kSm80_8x4, kSm80_8x8Row},
    {"mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", kSm80_8x16Row, kSm80_8x16Row, kSm80_8x8Row},
    {"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", {{4, 8, 4, 2}, {64, 1, 16, 8}}, kSm80_8x16Row, kSm80_16x8Row},
    {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", {{4, 8, 4, 2, 2}, {64, 1, 16, 8, 256}},
     {{4, 8, 4, 2}, {32, 1, 8, 128}}, kSm80_16x8Row},
    {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", {{4, 8, 32}, {256, 1, 8}}, {{4, 8, 32}, {256, 1, 8}},
     kSm80_8x8Row},
    {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", {{4, 8, 32, 2}, {512, 1, 16, 8}},
     {{4, 8, 32}, {256, 1, 8}}, kSm80_16x8Row},
    {"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", {{4, 8, 32, 2, 2}, {512, 1, 16, 8, 2048}},
     {{4, 8, 32, 2}, {256, 1, 8, 1024}}, kSm80_16x8Row},
};

const Instance* instance_named(const std::string& id) {
  for (auto const& inst : layouts_suite().instances)
    if (inst.id() == id) return &inst;
  return nullptr;
}

// CuTe's (row, col) for `o`: A is (M, K), B is (N, K) (so row = k, col = n), C is (M, N).
void expect_cute(const MmaOperandLayout& o, const CuteLayout& cute, bool b, const std::string& id) {
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < o.elements(); ++e) {
      const int idx = cute.at(lane, e);
      const int first = b ? o.cols : o.rows;  // CuTe's leading extent
      const int row = b ? idx / first : idx % first, col = b ? idx % first : idx / first;
      const ElementPos& p = o.of(lane, e);
      ASSERT_EQ(std::pair(p.row, p.col), std::pair(row, col)) << id << " operand " << o.name << " lane " << lane
                                                              << " element " << e;
    }
}

}  // namespace

TEST(MmaLayouts, AgreeWithCuteLayoutsOfTheSameAtoms) {
  for (auto const& atom : kAtoms) {
    const Instance* inst = instance_named(atom.instance);
    ASSERT_NE(inst, nullptr) << "no instance " << atom.instance;
    const MmaLayouts L = compute_mma_layouts(*inst);
    expect_cute(L.a, atom.a, false, atom.instance);
    expect_cute(L.b, atom.b, true, atom.instance);
    expect_cute(L.c, atom.c, false, atom.instance);
    expect_cute(L.d, atom.c, false, atom.instance);
  }
}

// A variant with a rounding qualifier names it as its rounding: the model then gives -0 for an exact
// zero sum under .rm, as IEEE rounding toward negative infinity does (and an H100 does).
TEST(MmaLayouts, EveryRoundingQualifierDecidesTheModelsRounding) {
  int named = 0;
  for (auto const& v : layouts_suite().specs.variants) {
    if (!v.semantics_as<MmaSpec>()) continue;
    for (auto const& a : v.axes)
      for (auto const& o : a.options)
        if (o.text == ".rm") {
          EXPECT_EQ(v.semantics_as<MmaSpec>()->rounding, a.name) << v.name;
          ++named;
        }
  }
  EXPECT_EQ(named, 4);  // the four .f64 shapes
  for (auto const& inst : layouts_suite().instances) {
    if (inst.mnemonic() == "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rm") {
      EXPECT_EQ(mma_info(inst).rule.rounding, "rm");
    }
  }
}

// wmma: the spec against the manual's tables, the number formats, the kernels planned, the emitted
// PTX against ptxas, and the reference model against products and round trips computed here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "assemble/toolchain.hpp"
#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_check.hpp"
#include "kinds/wmma/wmma_emitter.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_kind.hpp"
#include "kinds/wmma/wmma_observe.hpp"
#include "spec/element_format.hpp"
#include "support/spec_fixture.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

const Suite& suite() {
  return loaded_suite();
}

const KernelPlan& kernel(const std::string& name) {
  const KernelPlan* k = suite().find_kernel(name);
  if (!k) throw std::runtime_error("no kernel " + name);
  return *k;
}

WmmaMatrixInfo info(const std::string& id) { return wmma_matrix_info(find_instance(suite(), id)); }

}  // namespace

// Manual, Matrix Fragments for WMMA (the tables, read as the manual's cells say).
TEST(WmmaSpec, RegisterCountsAreTheManualsFragmentTables) {
  struct Row {
    const char* id;
    int registers;
  };
  const Row rows[] = {
      {"wmma.load.a.sync.aligned.row.m16n16k16.f16@a64", 8},
      {"wmma.load.b.sync.aligned.col.m8n32k16.f16@a64", 8},
      {"wmma.load.a.sync.aligned.row.m16n16k16.s8@a64", 2},
      {"wmma.load.b.sync.aligned.row.m16n16k16.u8@a64", 2},
      {"wmma.load.a.sync.aligned.row.m8n32k16.s8@a64", 1},
      {"wmma.load.b.sync.aligned.row.m8n32k16.s8@a64", 4},
      {"wmma.load.a.sync.aligned.row.m32n8k16.u8@a64", 4},
      {"wmma.load.b.sync.aligned.row.m32n8k16.u8@a64", 1},
      {"wmma.load.a.sync.aligned.row.m16n16k16.bf16@a64", 4},
      {"wmma.load.a.sync.aligned.row.m8n32k16.bf16@a64", 2},
      {"wmma.load.b.sync.aligned.row.m8n32k16.bf16@a64", 8},
      {"wmma.load.a.sync.aligned.row.m32n8k16.bf16@a64", 8},
      {"wmma.load.b.sync.aligned.row.m32n8k16.bf16@a64", 2},
      {"wmma.load.a.sync.aligned.row.m16n16k8.tf32@a64", 4},
      {"wmma.load.b.sync.aligned.col.m16n16k8.tf32@a64", 4},
      {"wmma.load.a.sync.aligned.row.m8n8k4.f64@a64", 1},
      {"wmma.load.a.sync.aligned.row.m8n8k32.s4@a64", 1},
      {"wmma.load.b.sync.aligned.col.m8n8k128.b1@a64", 1},
      {"wmma.load.c.sync.aligned.row.m16n16k16.f16@a64", 4},
      {"wmma.load.c.sync.aligned.col.m32n8k16.f32@a64", 8},
      {"wmma.load.c.sync.aligned.row.m8n32k16.s32@a64", 8},
      {"wmma.load.c.sync.aligned.row.m8n8k32.s32@a64", 2},
      {"wmma.store.d.sync.aligned.row.m8n8k128.s32@a64", 2},
      {"wmma.store.d.sync.aligned.row.m16n16k8.f32@a64", 8},
      // f64 C/D: the table says one register; the manual's examples (wmma.store's among them) use two.
      {"wmma.store.d.sync.aligned.row.m8n8k4.f64@a64", 2},
  };
  for (auto const& r : rows) EXPECT_EQ(info(r.id).registers, r.registers) << r.id;
}

// Manual, Matrix Storage for WMMA: "the default strides for the supported matrix shapes".
TEST(WmmaSpec, DefaultStridesAreTheManualsTable) {
  struct Row {
    const char* shape_type;
    int a_row, a_col, b_row, b_col, acc_row, acc_col;
    const char* acc_type;
  };
  const Row rows[] = {
      {".m16n16k16.f16", 16, 16, 16, 16, 16, 16, ".f32"}, {".m8n32k16.f16", 16, 8, 32, 16, 32, 8, ".f32"},
      {".m32n8k16.f16", 16, 32, 8, 16, 8, 32, ".f32"},    {".m16n16k8.tf32", 8, 16, 16, 8, 16, 16, ".f32"},
      {".m8n8k4.f64", 4, 8, 8, 4, 8, 8, ".f64"},
  };
  for (auto const& r : rows) {
    std::string shape = std::string(r.shape_type).substr(0, std::string(r.shape_type).rfind('.'));
    auto id = [&](const char* m, const char* layout, const std::string& type) {
      return fmt::format("wmma.load.{}.sync.aligned.{}{}{}@a64", m, layout, shape, type);
    };
    EXPECT_EQ(info(id("a", "row", std::string(r.shape_type).substr(shape.size()))).default_stride(), r.a_row)
        << r.shape_type;
    EXPECT_EQ(info(id("a", "col", std::string(r.shape_type).substr(shape.size()))).default_stride(), r.a_col)
        << r.shape_type;
    EXPECT_EQ(info(id("b", "row", std::string(r.shape_type).substr(shape.size()))).default_stride(), r.b_row)
        << r.shape_type;
    EXPECT_EQ(info(id("b", "col", std::string(r.shape_type).substr(shape.size()))).default_stride(), r.b_col)
        << r.shape_type;
    EXPECT_EQ(info(id("c", "row", r.acc_type)).default_stride(), r.acc_row) << r.shape_type;
    EXPECT_EQ(info(id("c", "col", r.acc_type)).default_stride(), r.acc_col) << r.shape_type;
  }
  EXPECT_EQ(info("wmma.load.a.sync.aligned.row.m8n8k32.s4@a64").default_stride(), 32);
  EXPECT_EQ(info("wmma.load.b.sync.aligned.col.m8n8k128.b1@a64").default_stride(), 128);
  EXPECT_EQ(info("wmma.load.c.sync.aligned.col.m8n8k128.s32@a64").default_stride(), 8);
}

// The manual's worked example: f16 A, m16n16k16, a 32-byte fragment, so p and 2*s multiples of 32.
TEST(WmmaSpec, AlignmentIsTheFragmentSize) {
  EXPECT_EQ(info("wmma.load.a.sync.aligned.row.m16n16k16.f16+stride@a64").alignment(), 32);
  EXPECT_EQ(info("wmma.load.a.sync.aligned.row.m8n8k4.f64@a64").alignment(), 8);
  EXPECT_EQ(info("wmma.load.a.sync.aligned.row.m8n8k32.s4@a64").alignment(), 4);
}

TEST(WmmaSpec, MmaOperandsFollowTheQualifiers) {
  WmmaMmaInfo x = wmma_mma_info(find_instance(suite(), "wmma.mma.sync.aligned.col.row.m8n32k16.f16.f32"));
  EXPECT_EQ(x.m, 8);
  EXPECT_EQ(x.n, 32);
  EXPECT_EQ(x.k, 16);
  EXPECT_TRUE(x.a.col_major);
  EXPECT_FALSE(x.b.col_major);
  EXPECT_EQ(x.d.format->name, "f16");
  EXPECT_EQ(x.c.format->name, "f32");
  EXPECT_EQ(x.d.registers, 4);
  EXPECT_EQ(x.c.registers, 8);
  WmmaMmaInfo b1 =
      wmma_mma_info(find_instance(suite(), "wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32"));
  EXPECT_EQ(b1.product, "and");
  WmmaMmaInfo f64 = wmma_mma_info(find_instance(suite(), "wmma.mma.sync.aligned.row.col.m8n8k4.rm.f64.f64.f64.f64"));
  EXPECT_EQ(f64.rounding, "rm");
  EXPECT_TRUE(wmma_mma_info(find_instance(suite(), "wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32.satfinite"))
                  .satfinite);
}

// Known encodings (IEEE 754 binary16, bfloat16, TF32 in an f32 container).
TEST(ElementFormat, EncodesAndDecodesKnownValues) {
  const ElementFormat& f16 = *find_element_format("f16");
  const ElementFormat& bf16 = *find_element_format(".bf16");
  const ElementFormat& tf32 = *find_element_format("tf32");
  EXPECT_EQ(element_encode(f16, 1.0), 0x3C00u);
  EXPECT_EQ(element_encode(f16, -2.0), 0xC000u);
  EXPECT_EQ(element_encode(f16, 65504.0), 0x7BFFu);
  EXPECT_EQ(element_encode(f16, std::ldexp(1.0, -24)), 0x0001u);            // smallest subnormal
  EXPECT_EQ(element_encode(f16, 1.0 + std::ldexp(1.0, -11)), 0x3C00u);      // a tie: to even
  EXPECT_EQ(element_encode(f16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);  // a tie: to even, upwards
  EXPECT_EQ(element_encode(f16, 70000.0), 0x7C00u);                         // overflow: infinity
  EXPECT_EQ(element_value(f16, 0x3555), 0.25 * (1 + 0x155 / 1024.0));       // 0.333...: 1.0101010101b x 2^-2
  EXPECT_EQ(element_encode(bf16, 1.0), 0x3F80u);
  EXPECT_EQ(element_encode(bf16, -3.0), 0xC040u);
  EXPECT_EQ(element_encode(tf32, 1.0), 0x3F800000u);
  EXPECT_EQ(element_value(tf32, 0x3F800FFF), 1.0);  // the 13 low bits are not TF32's
  EXPECT_EQ(element_value(*find_element_format("s4"), 0xF), -1.0);
  EXPECT_EQ(element_value(*find_element_format("u4"), 0xF), 15.0);
  EXPECT_EQ(element_encode(*find_element_format("s32"), -1.0), 0xFFFFFFFFu);
  EXPECT_EQ(find_element_format("f8"), nullptr);
}

TEST(WmmaSuite, PlansOneKernelPerFormRoundTripsAndProducts) {
  int single = 0, roundtrips = 0, products = 0, loads_and_stores = 0, mmas = 0, shapes = 0;
  for (auto const& inst : suite().instances) {
    loads_and_stores += inst.variant().semantics_as<WmmaMatrix>() != nullptr;
    mmas += inst.variant().semantics_as<WmmaMma>() != nullptr;
  }
  for (auto const& k : suite().kernels) {
    if (k.kind != &wmma_kind()) continue;
    if (k.steps.size() == 1 && k.audited) ++single;
    else if (k.steps.size() == 1) ++shapes;
    else if (k.name.rfind("roundtrip.", 0) == 0) ++roundtrips;
    else {
      ++products;
      EXPECT_TRUE(k.audited);
      EXPECT_TRUE(k.subject_instance().variant().semantics_as<WmmaMma>() != nullptr) << k.name;
      EXPECT_EQ(k.subject_instance().min_ptx(),
                std::max({k.steps[0]->min_ptx(), k.steps[1]->min_ptx(), k.steps[2]->min_ptx(), k.steps[4]->min_ptx(),
                          k.subject_instance().min_ptx()}))
          << k.name << ": a load or store must not need more than the mma it feeds";
    }
  }
  EXPECT_EQ(single, loads_and_stores);
  // and the kernels of the undefined lanes cases, beside their single instruction's (issue 42, part
  // 4: three lanes shapes each of one wmma.load and one wmma.store form)
  EXPECT_EQ(shapes, 6);
  EXPECT_EQ(products, mmas);
  // Every accumulator type/shape x 4 state spaces x with and without the stride operand.
  EXPECT_EQ(roundtrips, 13 * 4 * 2);
  EXPECT_EQ(loads_and_stores, (31 + 31 + 26 + 26) * 4 * 2);
}

TEST(WmmaSuite, CasesGoWhereTheyApply) {
  const CaseSpec* wide = suite().specs.find_case("wmma-unique-wide-stride");
  const CaseSpec* unique = suite().specs.find_case("wmma-unique-default-stride");
  const CaseSpec* overflow = suite().specs.find_case("wmma-product-overflow");
  ASSERT_TRUE(wide && unique && overflow);
  EXPECT_FALSE(takes(kernel("wmma.load.a.sync.aligned.row.m16n16k16.f16_a64"), *wide));  // no stride operand
  EXPECT_TRUE(takes(kernel("wmma.load.a.sync.aligned.row.m16n16k16.f16_stride_a64"), *wide));
  EXPECT_FALSE(
      takes(kernel("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), *unique));  // products: exact random data
  EXPECT_TRUE(takes(kernel("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite"), *overflow));
  EXPECT_FALSE(takes(kernel("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), *overflow));
  EXPECT_FALSE(takes(kernel("ldmatrix.sync.aligned.m8n8.x1.b16_a64"), *unique));
}

namespace {

// The reference model's verdict on device results computed here, from the Matrix Storage rules.
std::uint64_t get(const LaunchState& s, std::size_t base, long long element, int bits) {
  std::uint64_t v = 0;
  for (int b = 0; b < bits; ++b) {
    long long bit = element * bits + b;
    v |= static_cast<std::uint64_t>((s.smem[base + static_cast<std::size_t>(bit / 8)] >> (bit % 8)) & 1) << b;
  }
  return v;
}
void set(LaunchState& s, std::size_t base, long long element, int bits, std::uint64_t v) {
  for (int b = 0; b < bits; ++b) {
    long long bit = element * bits + b;
    auto& byte = s.smem[base + static_cast<std::size_t>(bit / 8)];
    byte = static_cast<std::uint8_t>((byte & ~(1u << (bit % 8))) | (((v >> b) & 1) << (bit % 8)));
  }
}
std::size_t step_base(const LaunchInput& in, int warp, int step) {
  return static_cast<std::size_t>(warp * in.shape.tile_bytes) +
         in.offsets[static_cast<std::size_t>(step * in.shape.threads() + warp * 32)];
}
std::uint32_t step_stride(const LaunchInput& in, int warp, int step, int steps) {
  return in.offsets[static_cast<std::size_t>((steps + step) * in.shape.threads() + warp * 32)];
}
// binary16 to double, by the standard's definition.
double half(std::uint64_t h) {
  int e = static_cast<int>((h >> 10) & 31), m = static_cast<int>(h & 1023);
  double v = e ? std::ldexp(1024 + m, e - 25) : std::ldexp(m, -24);
  return (h & 0x8000) ? -v : v;
}
std::uint64_t f32_bits(double d) {
  float f = static_cast<float>(d);
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST(WmmaModel, ProductAgainstAProductComputedHere) {
  const KernelPlan& k = kernel("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32");  // A row, B col, C and D row
  const CaseSpec& c = *suite().specs.find_case("wmma-random-default-stride");
  LaunchInput in = make_wmma_input(suite().specs.cases, c, k);
  LaunchState dev = in.state;
  for (int w = 0; w < in.shape.warps; ++w)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double acc;
        std::uint64_t cbits = get(in.state, step_base(in, w, 2), i * step_stride(in, w, 2, 5) + j, 32);
        float cf;
        std::uint32_t cu = static_cast<std::uint32_t>(cbits);
        std::memcpy(&cf, &cu, 4);
        acc = cf;
        for (int q = 0; q < 16; ++q)
          acc += half(get(in.state, step_base(in, w, 0), i * step_stride(in, w, 0, 5) + q, 16)) *
                 half(get(in.state, step_base(in, w, 1), j * step_stride(in, w, 1, 5) + q, 16));
        set(dev, step_base(in, w, 4), i * step_stride(in, w, 4, 5) + j, 32, f32_bits(acc));
      }
  Comparison ok = check_wmma(k, in, dev);
  EXPECT_EQ(ok.mismatches, 0) << (ok.diff.empty() ? "" : ok.diff.front());
  // One element off, and one byte outside D: both are reported.
  set(dev, step_base(in, 1, 4), 3 * step_stride(in, 1, 4, 5) + 5, 32, f32_bits(1234.0));
  dev.smem[step_base(in, 2, 4) + 16 * 16 * 4 + 3] ^= 1;
  Comparison bad = check_wmma(k, in, dev);
  EXPECT_EQ(bad.mismatches, 2);
  ASSERT_FALSE(bad.diff.empty());
  EXPECT_NE(bad.diff[0].find("warp 1: step 4"), std::string::npos) << bad.diff[0];
  EXPECT_NE(bad.diff[0].find("D[3][5]"), std::string::npos) << bad.diff[0];
}

TEST(WmmaModel, RoundTripRowInColOutIsTheTranspose) {
  const KernelPlan& k = kernel("roundtrip.wmma.load.c.sync.aligned.row.m8n32k16.shared.f32_stride_a64");
  const CaseSpec& c = *suite().specs.find_case("wmma-unique-wide-stride");
  LaunchInput in = make_wmma_input(suite().specs.cases, c, k);
  ASSERT_GT(step_stride(in, 0, 0, 6), 32u);  // wider than the default
  // Steps: 0 load.c row, 1 load.c col (both from region 0), 2/3 store row/col of the row load, 4/5 of the col load.
  auto do_roundtrip = [&](bool swap_layouts) {
    LaunchState dev = in.state;
    for (int w = 0; w < in.shape.warps; ++w)
      for (int load = 0; load < 2; ++load)
        for (int store = 0; store < 2; ++store) {
          const int s = 2 + 2 * load + store;
          const bool col_out = (store == 1) != swap_layouts;
          for (int r = 0; r < 8; ++r)
            for (int cc = 0; cc < 32; ++cc) {
              const std::uint64_t v =
                  get(in.state, step_base(in, w, load),
                      load ? cc * step_stride(in, w, 1, 6) + r : r * step_stride(in, w, 0, 6) + cc, 32);
              set(dev, step_base(in, w, s),
                  col_out ? cc * step_stride(in, w, s, 6) + r : r * step_stride(in, w, s, 6) + cc, 32, v);
            }
        }
    return check_wmma(k, in, dev);
  };
  EXPECT_EQ(do_roundtrip(false).mismatches, 0);
  Comparison swapped = do_roundtrip(true);
  EXPECT_GT(swapped.mismatches, 0);
}

TEST(WmmaModel, IntegerOverflowClampsWithSatfiniteAndWrapsWithout) {
  for (const char* name : {"wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite",
                           "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32"}) {
    const KernelPlan& k = kernel(name);
    const bool sat = std::string(name).ends_with("satfinite");
    LaunchInput in = make_wmma_input(suite().specs.cases, *suite().specs.find_case("wmma-product-overflow"), k);
    LaunchState dev = in.state;
    int overflowed = 0;
    for (int w = 0; w < in.shape.warps; ++w)
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
          long long acc =
              static_cast<std::int32_t>(get(in.state, step_base(in, w, 2), i * step_stride(in, w, 2, 5) + j, 32));
          for (int q = 0; q < 16; ++q)
            acc += static_cast<long long>(static_cast<std::int8_t>(
                       get(in.state, step_base(in, w, 0), i * step_stride(in, w, 0, 5) + q, 8))) *
                   static_cast<std::int8_t>(get(in.state, step_base(in, w, 1), j * step_stride(in, w, 1, 5) + q, 8));
          overflowed += acc > INT32_MAX || acc < INT32_MIN;
          if (sat) acc = std::clamp<long long>(acc, INT32_MIN, INT32_MAX);
          set(dev, step_base(in, w, 4), i * step_stride(in, w, 4, 5) + j, 32, static_cast<std::uint32_t>(acc));
        }
    EXPECT_GT(overflowed, 100) << "the case must overflow";
    EXPECT_EQ(check_wmma(k, in, dev).mismatches, 0) << name;
  }
}

TEST(WmmaModel, AStoreMayWriteOnlyItsFragmentsValues) {
  const KernelPlan& k = kernel("wmma.store.d.sync.aligned.col.m16n16k16.shared.f32_a64");
  LaunchInput in = make_wmma_input(suite().specs.cases, *suite().specs.find_case("wmma-unique-default-stride"), k);
  LaunchState dev = in.state;
  for (int w = 0; w < in.shape.warps; ++w)  // any arrangement of the fragment's values passes: here, lane by lane
    for (int e = 0; e < 256; ++e)
      set(dev, step_base(in, w, 0), e, 32, in.state.regs[static_cast<std::size_t>(w * 32 * 8 + e)]);
  EXPECT_EQ(check_wmma(k, in, dev).mismatches, 0);
  set(dev, step_base(in, 0, 0), 7, 32, in.state.regs[8]);  // a value written twice
  EXPECT_EQ(check_wmma(k, in, dev).mismatches, 1);
}

TEST(WmmaModel, ObservedLayoutNamesEachRegistersElement) {
  const KernelPlan& k = kernel("wmma.load.c.sync.aligned.row.m16n16k16.shared.f16_a64");
  LaunchInput in = make_wmma_input(suite().specs.cases, *suite().specs.find_case("wmma-unique-default-stride"), k);
  LaunchState dev = in.state;
  // A made-up fragment: lane l, register r holds row l/2, columns (l%2)*8 + 2r and 2r+1.
  for (int w = 0; w < in.shape.warps; ++w)
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < 4; ++r) {
        std::uint64_t lo = get(in.state, step_base(in, w, 0), (lane / 2) * 16 + (lane % 2) * 8 + 2 * r, 16);
        std::uint64_t hi = get(in.state, step_base(in, w, 0), (lane / 2) * 16 + (lane % 2) * 8 + 2 * r + 1, 16);
        dev.regs[static_cast<std::size_t>((w * 32 + lane) * 4 + r)] = static_cast<std::uint32_t>(lo | (hi << 16));
      }
  EXPECT_EQ(check_wmma(k, in, dev).mismatches, 0);
  std::string seen = observe_wmma_layout(k, in, dev);
  EXPECT_EQ(seen.substr(0, seen.find('\n')),
            "lane 0: r0.lo=(0,0) r0.hi=(0,1) r1.lo=(0,2) r1.hi=(0,3) r2.lo=(0,4) r2.hi=(0,5) r3.lo=(0,6) r3.hi=(0,7)");
  EXPECT_NE(seen.find("lane 3: r0.lo=(1,8)"), std::string::npos);
  dev.regs[0] = 0x12345678;  // garbage in a register
  EXPECT_GT(check_wmma(k, in, dev).mismatches, 0);
}

// The emitted kernels assemble: one of each kind, with ptxas for sm_90.
TEST(WmmaPtx, SampleKernelsAssemble) {
  Toolchain tc;
  try {
    tc = Toolchain::discover();
  } catch (const std::exception& e) { GTEST_SKIP() << "no ptxas: " << e.what(); }
  const KernelSkeletons sk = read_skeletons();
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-wmma-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name :
       {"wmma.load.a.sync.aligned.row.m8n8k4.f64_stride_a64", "wmma.store.d.sync.aligned.col.m16n16k16.global.f16_a64",
        "roundtrip.wmma.load.c.sync.aligned.row.m8n8k4.shared__cta.f64_stride_a64",
        "wmma.mma.sync.aligned.col.row.m8n8k4.rz.f64.f64.f64.f64",
        "wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32",
        "wmma.mma.sync.aligned.row.row.m32n8k16.s32.u8.u8.s32.satfinite",
        "wmma.mma.sync.aligned.col.col.m8n32k16.f16.f16"}) {
    const KernelPlan& k = kernel(name);
    std::ofstream(dir / "k.ptx") << emit_kernel_ptx(sk, k, "sm_90", {7, 8});
    AssemblyOutcome out = assemble(tc, dir / "k.ptx", "sm_90", dir / "k.cubin");
    EXPECT_TRUE(out.accepted()) << name << ":\n" << out.message;
  }
  fs::remove_all(dir);
}

// IEEE 754: an exact zero sum of opposite terms is -0 when rounding towards negative, +0 otherwise.
TEST(WmmaModel, F64RoundingDecidesTheSignOfAnExactZero) {
  for (const char* name : {"wmma.mma.sync.aligned.row.col.m8n8k4.rm.f64.f64.f64.f64",
                           "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64"}) {
    const KernelPlan& k = kernel(name);
    LaunchInput in = make_wmma_input(suite().specs.cases, *suite().specs.find_case("wmma-random-default-stride"), k);
    auto bits = [](double d) {
      std::uint64_t u;
      std::memcpy(&u, &d, 8);
      return u;
    };
    for (int w = 0; w < in.shape.warps; ++w)
      for (int i = 0; i < 8; ++i)
        for (int q = 0; q < 4; ++q) {
          set(in.state, step_base(in, w, 0), i * step_stride(in, w, 0, 5) + q, 64,
              bits(q == 0 ? 1.0 : 0.0));  // A: row i is e0
          set(in.state, step_base(in, w, 1), i * step_stride(in, w, 1, 5) + q, 64,
              bits(q == 0 ? 1.0 : 0.0));  // B (col): column i is e0
          for (int j = 0; j < 8; ++j)
            set(in.state, step_base(in, w, 2), i * step_stride(in, w, 2, 5) + j, 64, bits(-1.0));
        }
    const bool down = std::string(name).find(".rm.") != std::string::npos;
    LaunchState dev = in.state;
    for (int w = 0; w < in.shape.warps; ++w)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          set(dev, step_base(in, w, 4), i * step_stride(in, w, 4, 5) + j, 64, bits(down ? -0.0 : 0.0));
    EXPECT_EQ(check_wmma(k, in, dev).mismatches, 0) << name;
    set(dev, step_base(in, 0, 4), 0, 64, bits(down ? 0.0 : -0.0));
    EXPECT_EQ(check_wmma(k, in, dev).mismatches, 1) << name;
  }
}

// The audit judges each instruction by the kernels made for it: single instructions, and for
// wmma.mma its product kernel; round trips are not among them.
// A single-instruction kernel is audited, but for the six kernels of mma's lanes shapes (three on mma, three on mma.sp) (issue 42,
// part 4: cases.yaml's mma-undefined-upper-lanes-*, lanes 16 to 31 exiting, predicated off or
// running another form around the mma), nor the thirteen of the other kinds' (issue 42, part 4,
// second round: three each for ldmatrix, stmatrix, wmma.load and wmma.store, one for movmatrix),
// which are not: the plain kernel of the same instance is.
TEST(WmmaSuite, AuditedKernelsAreThoseOfTheirSubject) {
  int shapes = 0;
  for (auto const& k : suite().kernels) {
    if (k.name.rfind("roundtrip.", 0) == 0) {
      EXPECT_FALSE(k.audited) << k.name;
    } else if (k.steps.size() == 1 && !k.audited) {
      ++shapes;
      const KernelPlan* plain = suite().find_kernel(k.name.substr(0, k.name.rfind('.')));
      ASSERT_TRUE(plain) << k.name;
      EXPECT_TRUE(plain->audited && plain->steps == k.steps) << k.name;
    }
  }
  EXPECT_EQ(shapes, 19);  // three for mma, three for mma.sp; 3 + 3 + 1 matrix moves, 3 + 3 wmma
}

// Issue 42, part 4: the cases of what wmma.load leaves undefined break that rule and no other, on
// one kernel each (one representative form: the .f16 A, row-major, .m16n16k16, .shared, with a
// stride). The manual's numbers: the default stride of a row-major 16 x 16 A is K = 16 elements
// (32 bytes); its fragment, eight .f16x2 registers, is 32 bytes, the alignment of every row. So the
// largest stride below the default that keeps rows aligned is 0; the wide one, 32 elements; and the
// next region of a warp's tile (cases.yaml: 10,240 bytes in 5 regions) starts 2,048 bytes on.
TEST(WmmaModel, UndefinedCasesBreakTheirOneRuleOnOneKernel) {
  const std::string name = "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16_stride_a64";
  struct Want {
    const char* c;
    std::uint32_t lower_stride, upper_stride, upper_shift;
  };
  for (const Want& w : {Want{"wmma-undefined-stride-below-default", 0, 0, 0},
                        Want{"wmma-undefined-lanes-differ-address", 16, 16, 2048},
                        Want{"wmma-undefined-lanes-differ-stride", 16, 32, 0}}) {
    const CaseSpec* c = suite().specs.find_case(w.c);
    ASSERT_TRUE(c) << w.c;
    int taken = 0;
    for (auto const& k : suite().kernels) taken += k.kind == &wmma_kind() && takes(k, *c);
    EXPECT_EQ(taken, 1) << w.c;
    EXPECT_TRUE(takes(kernel(name), *c)) << w.c;
    const LaunchInput in = make_wmma_input(suite().specs.cases, *c, kernel(name));
    for (int warp = 0; warp < in.shape.warps; ++warp) {
      const std::uint32_t p0 = in.offsets[static_cast<std::size_t>(warp * 32)];
      EXPECT_EQ(p0 % 32, 0u) << w.c;  // every p aligned to the fragment size
      for (int lane = 0; lane < 32; ++lane) {
        const std::size_t t = static_cast<std::size_t>(warp * 32 + lane);
        const bool upper = lane >= 16;
        EXPECT_EQ(in.offsets[t], p0 + (upper ? w.upper_shift : 0)) << w.c << " lane " << lane;
        EXPECT_EQ(in.offsets[static_cast<std::size_t>(in.shape.threads()) + t], upper ? w.upper_stride : w.lower_stride)
            << w.c << " lane " << lane;
      }
    }
  }
}

// Without its 'undefined' entry (the manual's words), such a case is refused where it stands.
TEST(WmmaSpecErrors, AnUndefinedCaseNeedsTheManualsWords) {
  auto error = [](const std::string& from, const std::string& to) -> std::string {
    try {
      load_specs(spec_files("cases.yaml", from, to));
      return "(no error)";
    } catch (const SpecError& e) { return e.what(); }
  };
  const std::string entry =
      "      undefined:\n        - targets: \">= sm_70\"\n          families: [wmma]\n"
      "          words: \"Specifying a value lower than the default value results in undefined behavior.\"\n"
      "          source: \"PTX ISA 9.0, 9.7.14.4.3 wmma.load, description\"\n          fake_device: garbage\n";
  EXPECT_NE(error(entry, "").find("a stride below the default or lanes that differ leave the behaviour undefined: "
                                  "the case needs its 'undefined' entry"),
            std::string::npos);
  // (wmma.load's cases: wmma.store's have the same lines, with their own variant)
  EXPECT_NE(error("      upper_lanes: other-address\n      variant: wmma.load.a.f16_int\n",
                  "      upper_lanes: other-p\n      variant: wmma.load.a.f16_int\n")
                .find("unknown upper_lanes 'other-p'; expected other-address or other-stride"),
            std::string::npos);
  EXPECT_NE(error("      stride: below-default\n      variant: wmma.load.a.f16_int\n",
                  "      stride: below\n      variant: wmma.load.a.f16_int\n")
                .find("unknown stride 'below'; expected default, wide or below-default"),
            std::string::npos);
  EXPECT_NE(error("      upper_lanes: other-stride\n      variant: wmma.load.a.f16_int\n",
                  "      upper_lanes: other-stride\n      variant: wmma.load.a.f17\n")
                .find("case 'wmma-undefined-lanes-differ-stride' names unknown variant 'wmma.load.a.f17'"),
            std::string::npos);
}

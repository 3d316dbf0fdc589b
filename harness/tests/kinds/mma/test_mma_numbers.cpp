// mma's numbers (kinds/mma/mma_numbers): the expected values against hand-computed ones; every
// numbers case failing on a device that computes with the arithmetic the manual's words forbid
// (accumulating with a bit less than D's precision, rounding .f16 products to .f16, a separate
// multiply and add for .f64, another rounding mode, wrapping under .satfinite, clamping without it);
// the observation naming what a device returned where the words allow more than one result; and
// the claims quoting it. (The correct device and the five wrong ones: MmaCheck.*, which takes every
// case of every mma kernel.)
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <limits>

#include "judge/claims.hpp"
#include "kinds/kinds.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_numbers_check.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "results/report_parts.hpp"
#include "spec/spec_error.hpp"
#include "support/device_emulator.hpp"
#include "support/round_bits.hpp"
#include "support/spec_fixture.hpp"
#include "util/json_document.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& numbers_suite() { return loaded_suite(); }

const KernelPlan& kernel_of(const std::string& mnemonic) {
  for (auto const& k : numbers_suite().kernels)
    if (k.kind == &mma_kind() && k.steps.size() == 1 && k.subject_instance().mnemonic() == mnemonic) return k;
  throw std::runtime_error("no kernel for " + mnemonic);
}

const CaseSpec& numbers_case(const std::string& q) {
  const CaseSpec* c = numbers_suite().specs.find_case("mma-num-" + q);
  if (!c) throw std::runtime_error("no case mma-num-" + q);
  return *c;
}

// D's expected bits at (row, col) of computation 0.
const NumberExpectation& at(const NumbersDesign& d, const MmaInfo& x, int row, int col) {
  return d.d[0][static_cast<std::size_t>(row * x.n + col)];
}

std::uint64_t f32_bits(float v) { return std::bit_cast<std::uint32_t>(v); }
std::uint64_t f64_bits(double v) { return std::bit_cast<std::uint64_t>(v); }

// A device's D: C, then each product in k order, each step `step(acc, a, b)`; D encoded by `out`.
using Step = std::function<long double(long double acc, long double a, long double b)>;
LaunchState device(const MmaInfo& x, const NumbersDesign& d, const LaunchInput& in, const Step& step,
                   const std::function<std::uint64_t(long double)>& out) {
  LaunchState s = in.state;
  std::vector<MatrixValues> dm;
  for (int g = 0; g < x.computations; ++g) {
    MatrixValues m{.rows = x.m, .cols = x.n, .format = x.d.format, .bits = {}};
    for (int i = 0; i < x.m; ++i)
      for (int j = 0; j < x.n; ++j) {
        long double acc = element_value(*x.c.format, d.c[g].at(i, j));
        for (int q = 0; q < x.k; ++q)
          acc = step(acc, element_value(*x.a.format, d.a[g].at(i, q)), element_value(*x.b.format, d.b[g].at(q, j)));
        m.bits.push_back(out(acc));
      }
    dm.push_back(std::move(m));
  }
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = s.regs.data() + static_cast<std::size_t>(w * kWarpLanes * x.words);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int k = 0; k < x.d.words(); ++k) warp[lane * x.words + x.d.first_word + k] = 0;
    mma_place(x.d, dm, warp, x.words);
  }
  return s;
}

std::function<std::uint64_t(long double)> encoder(const ElementFormat& f) {
  return [&f](long double v) { return element_encode(f, static_cast<double>(v)); };
}

struct NumbersRun {
  const KernelPlan& k;
  MmaInfo x;
  NumbersDesign d;
  LaunchInput in;
  NumbersRun(const std::string& mnemonic, const std::string& q)
      : k(kernel_of(mnemonic)),
        x(mma_info(k.subject_instance())),
        d(numbers_design(q, x)),
        in(make_numbers_input(numbers_suite().specs.cases, x, d)) {}
  CaseOutcome on(const LaunchState& s) const { return check_numbers(x, d, in, s); }
  CaseOutcome on(const Step& step) const { return on(device(x, d, in, step, encoder(*x.d.format))); }
  CaseOutcome correct() const {
    DeviceEmulator e;
    return on(e.run(k, in, Mutant::None));
  }
};

constexpr const char* kF16F32 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
constexpr const char* kF16F16 = "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16";
constexpr const char* kBf16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
constexpr const char* kS8Sat = "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32";
constexpr const char* kS8Wrap = "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32";
std::string f64_form(const std::string& rnd) { return "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64" + rnd; }

}  // namespace

// Hand-computed: 2^23 + 7 needs all of .f32's 24 bits; 1024 + 7 all of .f16's 11.
TEST(MmaNumbers, ExpectedAccumulationValuesAreTheHandComputedOnes) {
  const NumbersRun f32(kF16F32, "accumulation"), f16(kF16F16, "accumulation");
  EXPECT_EQ(at(f32.d, f32.x, 0, 0).members.at(0).bits, 0x4B000007u);  // 8388615
  EXPECT_EQ(at(f32.d, f32.x, 0, 1).members.at(0).bits, f32_bits(8388617.0f));
  EXPECT_EQ(at(f16.d, f16.x, 0, 0).members.at(0).bits, 0x6407u);  // 1031 = 2^10 (1 + 7/1024)
  // Row 1 col 0 (idx 8): C = 2^24 + 16 * 8; C (every 1 lost) to C + 14, and C + 8 the sum rounded once.
  const NumberExpectation& odd = at(f32.d, f32.x, 1, 0);
  ASSERT_EQ(odd.judged, NumberExpectation::Judged::Range);
  ASSERT_EQ(odd.members.size(), 8u);
  EXPECT_EQ(odd.members.front().bits, f32_bits(16777344.0f));
  EXPECT_EQ(odd.members.back().bits, f32_bits(16777358.0f));
  EXPECT_NE(odd.members[4].meaning.find("rounded once"), std::string::npos);
}

// .f64 by hand: even rows alpha beta 2^-80 (row 0 col 0: 1 x 2); odd row 1 col 0: (1 + 2^-27)^2 =
// 1 + 2^-26 + 2^-54, a quarter ulp: .rn and .rz and .rm give 1 + 2^-26, .rp 1 + 2^-26 + 2^-52; row 3
// col 0 (negative, alpha 3): -(1 + 4 2^-27 + 3 2^-54), three quarters of an ulp: .rn and .rm away.
TEST(MmaNumbers, ExpectedF64ValuesAreTheHandComputedOnes) {
  const double up = 1 + std::ldexp(1.0, -26) + std::ldexp(1.0, -52), down = 1 + std::ldexp(1.0, -26);
  const double away = -(1 + 4 * std::ldexp(1.0, -27) + std::ldexp(1.0, -52)), toward = -(1 + 4 * std::ldexp(1.0, -27));
  const std::map<std::string, std::pair<double, double>> want = {
      {"", {down, away}}, {".rn", {down, away}}, {".rz", {down, toward}}, {".rm", {down, away}}, {".rp", {up, toward}}};
  for (auto const& [rnd, v] : want) {
    const NumbersRun r(f64_form(rnd), "f64");
    EXPECT_EQ(at(r.d, r.x, 0, 0).members.at(0).bits, f64_bits(std::ldexp(2.0, -80))) << rnd;
    EXPECT_EQ(at(r.d, r.x, 1, 0).members.at(0).bits, f64_bits(v.first)) << rnd;
    EXPECT_EQ(at(r.d, r.x, 3, 0).members.at(0).bits, f64_bits(v.second)) << rnd;
  }
}

// s8, k = 16: even rows 8 x 127 x 127 = 129032 onto MAX_INT32 - idx.
TEST(MmaNumbers, ExpectedIntegerValuesAreTheHandComputedOnes) {
  const NumbersRun sat(kS8Sat, "int-overflow"), wrap(kS8Wrap, "int-overflow");
  constexpr long long max = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(at(sat.d, sat.x, 0, 0).members.at(0).bits, 0x7FFFFFFFu);
  EXPECT_EQ(at(wrap.d, wrap.x, 0, 0).members.at(0).bits, static_cast<std::uint32_t>(max + 129032));
  // Odd row 1 col 0 (idx 8): C = MAX - 300 + 8, then 8 x (127 - 128) x 127 = -1016.
  const NumberExpectation& odd = at(sat.d, sat.x, 1, 0);
  EXPECT_EQ(odd.hi, max - 292 - 1016);
  EXPECT_EQ(odd.lo, max - 8 * 128 * 127);  // clamped at MAX after the first product, then 8 x -16256
  EXPECT_EQ(at(wrap.d, wrap.x, 1, 0).members.at(0).bits, static_cast<std::uint32_t>(max - 292 - 1016));
}

// A device that accumulates with one bit less than D's significand fails every accumulation case
// (.f32: 23 bits; .f16: 10), and so does one that accumulates .f32 in .f16.
TEST(MmaNumbers, AccumulationWithLessThanItsPrecisionFails) {
  for (auto const& k : numbers_suite().kernels) {
    if (k.kind != &mma_kind() || k.steps.size() != 1 || !mma_kind().takes(k, numbers_case("accumulation"))) continue;
    const NumbersRun r(k.subject_instance().mnemonic(), "accumulation");
    const int bits = r.x.d.format->mantissa_bits;  // one short of the significand's bits + 1
    EXPECT_GT(r.on([&](long double acc, long double a, long double b) {
                 return test::round_bits(acc + a * b, bits);
               }).comparison.mismatches,
              0)
        << k.name;
    EXPECT_EQ(r.correct().comparison.mismatches, 0) << k.name;
  }
  const NumbersRun f32(kF16F32, "accumulation");
  EXPECT_GT(f32.on([](long double acc, long double a, long double b) { return test::round_bits(acc + a * b, 11); })
                .comparison.mismatches,
            0);
}

// .f16 products rounded to .f16 before the accumulation: against "at least single precision".
TEST(MmaNumbers, F16ProductsRoundedToHalfFail) {
  const NumbersRun r(kF16F32, "products");
  EXPECT_GT(r.on([](long double acc, long double a, long double b) {
               return acc + test::round_bits(a * b, 11);
             }).comparison.mismatches,
            0);
  EXPECT_EQ(r.correct().comparison.mismatches, 0);
  // .bf16 ("specified precision"): the rounded product is allowed, and observed as such.
  const NumbersRun bf(kBf16, "products");
  const CaseOutcome o = bf.on([](long double acc, long double a, long double b) { return acc + test::round_bits(a * b, 8); });
  EXPECT_EQ(o.comparison.mismatches, 0) << (o.comparison.diff.empty() ? "" : o.comparison.diff.front());
  EXPECT_NE(o.observed.find("the product rounded to .bf16"), std::string::npos) << o.observed;
}

// .f64: a separate multiply and add fails in every mode; each mode's expected values fail every other
// mode's kernel (the default's and .rn's are the same).
TEST(MmaNumbers, F64SeparateMultiplyAddAndOtherRoundingsFail) {
  const std::vector<std::string> modes = {"", ".rn", ".rz", ".rm", ".rp"};
  for (auto const& m : modes) {
    const NumbersRun r(f64_form(m), "f64");
    EXPECT_GT(r.on([](long double acc, long double a, long double b) {
                 volatile double p = static_cast<double>(a) * static_cast<double>(b);
                 return static_cast<long double>(static_cast<double>(acc) + p);
               }).comparison.mismatches,
              0)
        << m;
    EXPECT_EQ(r.correct().comparison.mismatches, 0) << m;
    for (auto const& other : modes) {
      const NumbersRun o(f64_form(other), "f64");
      LaunchState s = r.in.state;
      for (int w = 0; w < r.in.shape.warps; ++w) {
        std::vector<MatrixValues> dm(1, MatrixValues{.rows = r.x.m, .cols = r.x.n, .format = r.x.d.format, .bits = {}});
        for (auto const& e : o.d.d[0]) dm[0].bits.push_back(e.members.at(0).bits);
        mma_place(r.x.d, dm, s.regs.data() + static_cast<std::size_t>(w * kWarpLanes * r.x.words), r.x.words);
      }
      const bool same = m == other || ((m == "" || m == ".rn") && (other == "" || other == ".rn"));
      EXPECT_EQ(r.on(s).comparison.mismatches > 0, !same) << "kernel " << m << ", values of " << other;
    }
  }
}

// Integers: wrapping under .satfinite fails; clamping each partial sum without it fails; with it,
// the in-order clamping is allowed and observed as such.
TEST(MmaNumbers, IntegerOverflowTheWrongWayFails) {
  constexpr long double lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  auto wrap = [](long double acc, long double a, long double b) {
    return static_cast<long double>(static_cast<std::int32_t>(
        static_cast<std::uint32_t>(static_cast<std::int64_t>(acc) + static_cast<std::int64_t>(a * b))));
  };
  auto clamp = [&](long double acc, long double a, long double b) { return std::clamp(acc + a * b, lo, hi); };
  auto s32 = [](long double v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & 0xFFFFFFFFu; };
  const NumbersRun sat(kS8Sat, "int-overflow"), plain(kS8Wrap, "int-overflow");
  EXPECT_GT(sat.on(device(sat.x, sat.d, sat.in, wrap, s32)).comparison.mismatches, 0);
  EXPECT_GT(plain.on(device(plain.x, plain.d, plain.in, clamp, s32)).comparison.mismatches, 0);
  EXPECT_EQ(plain.on(device(plain.x, plain.d, plain.in, wrap, s32)).comparison.mismatches, 0);
  const CaseOutcome in_order = sat.on(device(sat.x, sat.d, sat.in, clamp, s32));
  EXPECT_EQ(in_order.comparison.mismatches, 0);
  EXPECT_NE(in_order.observed.find("each partial sum clamped, in k order"), std::string::npos) << in_order.observed;
  const CaseOutcome final_only = sat.correct();
  EXPECT_EQ(final_only.comparison.mismatches, 0);
  EXPECT_NE(final_only.observed.find("only the final value is clamped"), std::string::npos) << final_only.observed;
}

// What a device returned where the words allow more than one result, in the case's observation.
TEST(MmaNumbers, TheObservationNamesWhatTheDeviceReturned) {
  const NumbersRun f32(kF16F32, "accumulation");
  const CaseOutcome kept = f32.correct();
  EXPECT_NE(kept.observed.find("64 of 64: C + 8: the exact sum C + 7 rounded once"), std::string::npos)
      << kept.observed;
  const CaseOutcome lost =
      f32.on([](long double acc, long double a, long double b) { return test::round_bits(acc + a * b, 24); });
  EXPECT_EQ(lost.comparison.mismatches, 0);
  EXPECT_NE(lost.observed.find("64 of 64: C: every 1 lost"), std::string::npos) << lost.observed;
  const NumbersRun sub(kF16F32, "subnormal");
  const CaseOutcome flushed = sub.on([](long double acc, long double a, long double b) {
    return std::fabs(a) < std::ldexp(1.0L, -14) ? acc : acc + a * b;
  });
  EXPECT_EQ(flushed.comparison.mismatches, 0);
  EXPECT_NE(flushed.observed.find("flushed to zero"), std::string::npos) << flushed.observed;
  const NumbersRun over(kF16F16, "overflow");
  EXPECT_NE(over.correct().observed.find("+inf"), std::string::npos) << over.correct().observed;
}

// The observation travels: through the report's JSON, and into the evidence of the claims the case
// rests on.
TEST(MmaNumbers, ClaimsQuoteTheObservation) {
  const NumbersRun r(kF16F16, "accumulation");
  CaseResult res{.kernel = r.k.name, .family = "mma", .case_name = "mma-num-accumulation", .status = Status::Pass};
  res.observed = r.correct().observed;
  ASSERT_FALSE(res.observed.empty());
  const JsonDocument doc(case_result_json(res).dump(), "x.json");
  const CaseResult back = read_case_result(doc.root());
  EXPECT_EQ(back.observed, res.observed);
  const std::vector<ClaimVerdict> vs = evaluate_claims(numbers_suite(), Audit{}, {res});
  const auto v =
      std::find_if(vs.begin(), vs.end(), [](auto const& c) { return c.id == "mma-num-m16n8k16-f16-accumulate-half"; });
  ASSERT_NE(v, vs.end());
  EXPECT_EQ(v->verdict, Verdict::Confirmed) << v->evidence;
  EXPECT_NE(v->evidence.find("observed where the documents allow more than one result: [1 case, first " + case_id(res) +
                             "] " + res.observed),
            std::string::npos)
      << v->evidence;
}

// A numbers case asks about arithmetic, not about where elements go: a layout claim that names no
// cases never rests on one (CaseSpec::named_only), so a GPU whose accumulation the words forbid
// leaves the variant's layout claim judged by its layout cases, and the numbers claim undecided.
TEST(MmaNumbers, ALayoutClaimDoesNotRestOnANumbersCase) {
  const NumbersRun r(kF16F16, "accumulation");
  const CaseResult layout{.kernel = r.k.name, .family = "mma", .case_name = "mma-unique", .status = Status::Pass};
  const CaseResult numbers{.kernel = r.k.name,
                           .family = "mma",
                           .case_name = "mma-num-accumulation",
                           .status = Status::Fail,
                           .reason = "1 element differs",
                           .mismatches = 1};
  const std::vector<ClaimVerdict> vs = evaluate_claims(numbers_suite(), Audit{}, {layout, numbers});
  auto verdict = [&](const std::string& id) {
    auto v = std::find_if(vs.begin(), vs.end(), [&](auto const& c) { return c.id == id; });
    EXPECT_NE(v, vs.end()) << id;
    return v == vs.end() ? ClaimVerdict{} : *v;
  };
  const ClaimVerdict lay = verdict("mma-m16n8k16-f16-layout");
  EXPECT_EQ(lay.verdict, Verdict::Confirmed) << lay.evidence;
  EXPECT_EQ(lay.evidence.find("mma-num-"), std::string::npos) << lay.evidence;
  const ClaimVerdict half = verdict("mma-num-m16n8k16-f16-accumulate-half");
  EXPECT_NE(half.verdict, Verdict::Confirmed) << half.evidence;
}

// A question the kind does not know is refused where it is written, naming the ones it knows.
TEST(MmaNumbers, AnUnknownQuestionIsPlaced) {
  std::string what;
  try {
    load_specs(spec_files("cases.yaml", "numbers: f64", "numbers: f65"));
  } catch (const SpecError& e) { what = e.what(); }
  EXPECT_NE(what.find("cases.yaml:"), std::string::npos) << what;
  EXPECT_NE(what.find("unknown question 'f65'; expected one of accumulation, products, subnormal, overflow, f64, "
                      "int-overflow"),
            std::string::npos)
      << what;
}

// On the reference model's device (which fuses .f64, keeps every sum exact and rounds once), every
// claim of the numbers block holds: confirmed, or observed (expect: observe), with what it returned
// quoted where the words allow more than one result.
TEST(MmaNumbers, OnACorrectDeviceEveryNumbersClaimHolds) {
  std::vector<CaseResult> results;
  for (auto const& k : numbers_suite().kernels) {
    if (k.kind != &mma_kind() || k.steps.size() != 1) continue;
    DeviceEmulator device;
    for (auto const& c : numbers_suite().specs.cases.cases) {
      if (c.name.rfind("mma-num-", 0) != 0 || !mma_kind().takes(k, c)) continue;
      auto p = mma_kind().prepare(numbers_suite().specs.cases, c, k);
      const CaseOutcome o = p->check(device.run(k, p->input, Mutant::None));
      CaseResult r{.kernel = k.name, .family = "mma", .case_name = c.name, .status = Status::Pass};
      if (o.comparison.mismatches) r.status = Status::Fail;
      r.observed = o.observed;
      results.push_back(std::move(r));
    }
  }
  int judged = 0;
  for (auto const& v : evaluate_claims(numbers_suite(), Audit{}, results)) {
    if (v.id.rfind("mma-num-", 0) != 0) continue;
    ++judged;
    const bool observe = v.id.ends_with("-unspecified");
    EXPECT_EQ(v.verdict, observe ? Verdict::Observed : Verdict::Confirmed) << v.id << ": " << v.evidence;
    if (observe) {  // unspecified arithmetic, not undefined behaviour
      EXPECT_EQ(v.evidence.rfind("left unspecified by the documents, observed: ", 0), 0u) << v.id << ": " << v.evidence;
    }
    if (v.id == "mma-num-m16n8k16-f16-accumulate-half" || v.id == "mma-num-m16n8k16-satfinite")
      std::cout << v.id << ": " << v.evidence.substr(0, 900) << "\n";
  }
  EXPECT_EQ(judged, 52);
}

// mma.sp's numbers (kinds/mma/mma_numbers, the `sparse-` questions; cases.yaml mma-sp-num-*): the
// dense designs at half the k, placed in the compressed A with metadata that selects them. Expected
// values against hand-computed ones; every case passing on a correct device and failing on one that
// drops a value the metadata selects or reads another selector's metadata; each rule of 9.7.14.6.3's
// "Precision and rounding" broken alone (a bit less accumulation, .f16 products rounded to .f16,
// wrapping under .satfinite, clamping without it) failing the claims that quote it and no other;
// and the wrong devices (does nothing, zeroes, shuffles) failing every case. (MmaCheck.* also takes
// these cases, with every mma case, on its five wrong devices.)
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <set>

#include "judge/claims.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_numbers_check.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/mma/mma_sparse.hpp"
#include "support/device_emulator.hpp"
#include "support/round_bits.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& sp_num_suite() { return loaded_suite(); }

const KernelPlan& kernel_named(const std::string& name) {
  for (auto const& k : sp_num_suite().kernels)
    if (k.name == name) return k;
  throw std::runtime_error("no kernel " + name);
}

// Every (kernel, case) of the sparse numbers cases: what the main line launches.
struct Run {
  const KernelPlan* k;
  const CaseSpec* c;
};
std::vector<Run> sparse_runs() {
  std::vector<Run> out;
  for (auto const& k : sp_num_suite().kernels)
    for (auto const& c : sp_num_suite().specs.cases.cases)
      if (k.kind == &mma_kind() && c.name.starts_with("mma-sp-num-") && mma_kind().takes(k, c)) out.push_back({&k, &c});
  return out;
}

std::string question(const CaseSpec& c) { return "sparse-" + c.name.substr(std::string("mma-sp-num-").size()); }

// A device through the warp's registers: A as the metadata places it (optionally with each row's
// first non-zero value dropped, or read at `selector`), each product added in k order by `step`,
// D encoded by its type (.s32: the low 32 bits).
using Step = std::function<long double(long double acc, long double a, long double b)>;
struct Device {
  Step step = [](long double acc, long double a, long double b) { return acc + a * b; };
  bool drop = false;
  int selector = -1;  // -1: the instance's
};

std::uint64_t encode(const ElementFormat& f, long double v) {
  if (f.kind != ElementKind::Float) return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & 0xFFFFFFFFu;
  return element_encode(f, static_cast<double>(v));
}

void drop_first_nonzero(MatrixValues& a) {
  for (int i = 0; i < a.rows; ++i)
    for (int q = 0; q < a.cols; ++q)
      if (a.at(i, q) != 0) {
        a.at(i, q) = 0;
        break;
      }
}

LaunchState run_device(MmaInfo x, const LaunchInput& in, const Device& dev) {
  if (dev.selector >= 0) x.sparse.selector = dev.selector;
  LaunchState s = in.state;
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = s.regs.data() + static_cast<std::size_t>(w * kWarpLanes * x.words);
    auto a = mma_a_matrices(x, warp, x.words);
    const auto b = mma_matrices(x, x.b, warp, x.words), c = mma_matrices(x, x.c, warp, x.words);
    std::vector<MatrixValues> d;
    for (std::size_t g = 0; g < a.size(); ++g) {
      if (dev.drop) drop_first_nonzero(a[g]);
      MatrixValues m{.rows = x.m, .cols = x.n, .format = x.d.format, .bits = {}};
      for (int i = 0; i < x.m; ++i)
        for (int j = 0; j < x.n; ++j) {
          long double acc = element_value(*x.c.format, c[g].at(i, j));
          for (int q = 0; q < x.k; ++q)
            acc = dev.step(acc, element_value(*x.a.format, a[g].at(i, q)), element_value(*x.b.format, b[g].at(q, j)));
          m.bits.push_back(encode(*x.d.format, acc));
        }
      d.push_back(std::move(m));
    }
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int k = 0; k < x.d.words(); ++k) warp[lane * x.words + x.d.first_word + k] = 0;
    mma_place(x.d, d, warp, x.words);
  }
  return s;
}

constexpr long double kMin = std::numeric_limits<std::int32_t>::min(), kMax = std::numeric_limits<std::int32_t>::max();
long double wrap(long double acc, long double a, long double b) {
  return static_cast<long double>(static_cast<std::int32_t>(
      static_cast<std::uint32_t>(static_cast<std::int64_t>(acc) + static_cast<std::int64_t>(a * b))));
}
long double clamp(long double acc, long double a, long double b) { return std::clamp(acc + a * b, kMin, kMax); }

// The device each rule of "Precision and rounding" forbids, one rule broken each.
Device one_bit_less(const MmaInfo& x) {
  const int bits = x.d.format->mantissa_bits;
  return {.step = [bits](long double acc, long double a, long double b) { return test::round_bits(acc + a * b, bits); }};
}
Device f16_products() {
  return {.step = [](long double acc, long double a, long double b) { return acc + test::round_bits(a * b, 11); }};
}

struct Prepared {
  MmaInfo x;
  NumbersDesign d;
  LaunchInput in;
  Prepared(const KernelPlan& k, const std::string& q)
      : x(mma_info(k.subject_instance())), d(numbers_design(q, x)), in(make_numbers_input(sp_num_suite().specs.cases, x, d)) {}
  CaseOutcome on(const LaunchState& s) const { return check_numbers(x, d, in, s); }
  CaseOutcome on(const Device& dev) const { return on(run_device(x, in, dev)); }
};

bool is_float(const MmaInfo& x) { return x.d.format->kind == ElementKind::Float; }

// Each sparse numbers case on a device: pass or fail, with its observation (as the runner records it).
std::vector<CaseResult> results_on(const std::function<LaunchState(const KernelPlan&, const Prepared&)>& device) {
  std::vector<CaseResult> out;
  for (auto const& [k, c] : sparse_runs()) {
    const Prepared p(*k, question(*c));
    const CaseOutcome o = p.on(device(*k, p));
    CaseResult r{.kernel = k->name, .family = "mma", .case_name = c->name, .status = Status::Pass};
    if (o.comparison.mismatches) {
      r.status = Status::Fail;
      r.mismatches = static_cast<int>(o.comparison.mismatches);
      r.reason = o.comparison.diff.front();
    }
    r.observed = o.observed;
    out.push_back(std::move(r));
  }
  return out;
}

std::map<std::string, ClaimVerdict> sparse_claims(const std::vector<CaseResult>& results) {
  std::map<std::string, ClaimVerdict> out;
  for (auto const& v : evaluate_claims(sp_num_suite(), Audit{}, results))
    if (v.id.starts_with("mma-sp-num-")) out[v.id] = v;
  return out;
}

// The claims (of 24) a device breaking one rule must fail: those whose id contains one of `parts`.
void expect_only(const std::map<std::string, ClaimVerdict>& vs, const std::vector<std::string>& parts,
                 const std::string& device) {
  EXPECT_EQ(vs.size(), 24u);
  for (auto const& [id, v] : vs) {
    const bool caught = std::any_of(parts.begin(), parts.end(), [&](auto const& p) { return id.find(p) != std::string::npos; });
    const Verdict holds = id.ends_with("-unspecified") ? Verdict::Observed : Verdict::Confirmed;
    if (caught) {
      EXPECT_NE(v.verdict, Verdict::Confirmed) << device << " " << id << ": " << v.evidence;
    } else {
      EXPECT_EQ(v.verdict, holds) << device << " " << id << ": " << v.evidence;
    }
  }
}

constexpr const char* kSpF16 = "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32_e_0";
constexpr const char* kSpS8Sat = "mma.sp__ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32_e_0";
constexpr const char* kSpS8Wrap = "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32_e_0";

}  // namespace

// 16 accumulation + 12 products + 16 subnormal + 32 integer launches: selector 0, both spellings.
TEST(MmaSparseNumbers, TheCasesTakeEverySparseFormAtSelectorZero) {
  std::map<std::string, int> per_case;
  std::set<std::string> variants;
  for (auto const& [k, c] : sparse_runs()) {
    ++per_case[c->name];
    variants.insert(k->subject_instance().variant().name);
    EXPECT_EQ(mma_info(k->subject_instance()).sparse.selector, 0) << k->name;
  }
  EXPECT_EQ(per_case["mma-sp-num-accumulation"], 16);
  EXPECT_EQ(per_case["mma-sp-num-products"], 12);
  EXPECT_EQ(per_case["mma-sp-num-subnormal"], 16);
  EXPECT_EQ(per_case["mma-sp-num-int-overflow"], 32);
  EXPECT_EQ(variants.size(), 8u);
  // and no dense numbers case takes a sparse kernel, no sparse one a dense kernel
  for (auto const& k : sp_num_suite().kernels)
    for (auto const& c : sp_num_suite().specs.cases.cases)
      if (k.kind == &mma_kind() && k.steps.size() == 1 && c.name.starts_with("mma-num-") && mma_kind().takes(k, c)) {
        EXPECT_EQ(mma_info(k.subject_instance()).sparse.chunk, 0) << k.name << " " << c.name;
      }
}

// By hand, .m16n8k16 .f32.f16.f16.f32, selector 0: chunk 0 of every row takes 0b0100 (columns 0 and
// 1), chunk 1 0b1000 (columns 0 and 2); B's rows 0, 1, 4, 6 the design's rows 0-3 (1: L = 7 of
// k/2 = 8), rows 2, 3, 5, 7 the trap 3; lane 0's e holds row 0's fields (bits 3..0, 7..4) and row
// 8's (bits 19..16); lane 1 (selector 1's lane) another field for chunk 0. D at row 0 col 0 is
// 2^23 + 7 = 0x4B000007 (as in the dense case, now from the compressed A).
TEST(MmaSparseNumbers, ExpectedValuesAreTheHandComputedOnes) {
  const Prepared p(kernel_named(kSpF16), "sparse-accumulation");
  ASSERT_GE(p.d.fields.size(), 2u);
  EXPECT_EQ(p.d.fields[0], 0b0100u);
  EXPECT_EQ(p.d.fields[1], 0b1000u);
  const MatrixValues& b = p.d.b[0];
  ASSERT_EQ(b.rows, 16);
  for (int r : {0, 1, 4, 6}) EXPECT_EQ(b.at(r, 3), 0x3C00u) << r;  // .f16 1
  for (int r : {2, 3, 5, 7}) EXPECT_EQ(b.at(r, 3), 0x4200u) << r;  // .f16 3
  EXPECT_EQ(p.d.a[0].cols, 8);
  EXPECT_EQ(p.d.d[0][0].members.at(0).bits, 0x4B000007u);
  const std::uint32_t* regs = p.in.state.regs.data();
  const int e = p.x.sparse.e_word, words = p.x.words;
  EXPECT_EQ(regs[e] & 0xFFu, 0x84u);
  EXPECT_EQ((regs[e] >> 16) & 0xFu, 0b0100u);
  EXPECT_NE(regs[words + e] & 0xFu, 0b0100u);
  // s8, k = 32: k/2 = 16, even rows 8 x 127 x 127 = 129032 onto MAX_INT32 - idx; B's unselected rows 1.
  const Prepared sat(kernel_named(kSpS8Sat), "sparse-int-overflow"), plain(kernel_named(kSpS8Wrap), "sparse-int-overflow");
  EXPECT_EQ(sat.d.d[0][0].members.at(0).bits, 0x7FFFFFFFu);
  EXPECT_EQ(plain.d.d[0][0].members.at(0).bits, static_cast<std::uint32_t>(static_cast<long long>(kMax) + 129032));
  EXPECT_EQ(sat.d.b[0].at(2, 0), 1u);
  // Row 3 col 0 (idx 24, signed A): in range, MIN_INT32 + 24 + 129032, exact under .satfinite too.
  EXPECT_EQ(sat.d.d[0][24].judged, NumberExpectation::Judged::Exact);
  EXPECT_EQ(sat.d.d[0][24].members.at(0).bits, static_cast<std::uint32_t>(static_cast<long long>(kMin) + 24 + 129032));
  EXPECT_EQ(sat.d.b[0].at(0, 0), 127u);
}

// Correct: every case passes. A value the metadata selects dropped, or the metadata read at another
// selector (forms of more than one): every case fails.
TEST(MmaSparseNumbers, ADroppedOrMisplacedValueFailsEveryCase) {
  for (auto const& [k, c] : sparse_runs()) {
    const Prepared p(*k, question(*c));
    DeviceEmulator emulator;
    const CaseOutcome ok = p.on(emulator.run(*k, p.in, Mutant::None));
    EXPECT_EQ(ok.comparison.mismatches, 0) << k->name << "/" << c->name << ": "
                                           << (ok.comparison.diff.empty() ? "" : ok.comparison.diff.front());
    Device exact;
    if (!is_float(p.x)) exact.step = p.x.rule.satfinite ? Step(clamp) : Step(wrap);
    if (is_float(p.x) || !p.x.rule.satfinite) {  // an exact device, as the reference model (clamped once)
      EXPECT_EQ(p.on(exact).comparison.mismatches, 0) << k->name << "/" << c->name;
    }
    Device dropping = exact;
    dropping.drop = true;
    EXPECT_GT(p.on(dropping).comparison.mismatches, 0) << k->name << "/" << c->name << " passed with a value dropped";
    if (4 / p.x.sparse.threads > 1) {
      Device other = exact;
      other.selector = 1;
      EXPECT_GT(p.on(other).comparison.mismatches, 0) << k->name << "/" << c->name << " passed at selector 1";
    }
  }
}

// Each rule broken alone fails the claims that quote it, and the others hold: accumulation with one
// bit less than D's significand (.f32 D: the accumulation claims, .f16 inputs' and .bf16/.tf32's,
// not the products' one: C + p fits 23 bits wherever alpha beta is odd; .f16 D: the half-precision ones), .f16 products rounded to .f16, wrapping under .satfinite,
// clamping without it. A dropped value fails every claim but the observations.
TEST(MmaSparseNumbers, EachRuleBrokenAloneFailsItsClaims) {
  DeviceEmulator emulator;
  auto correct = [&](const KernelPlan& k, const Prepared& p) { return emulator.run(k, p.in, Mutant::None); };
  expect_only(sparse_claims(results_on(correct)), {}, "correct");
  auto breaking = [&](const std::function<bool(const MmaInfo&)>& applies, const std::function<Device(const MmaInfo&)>& dev) {
    return [=, &emulator](const KernelPlan& k, const Prepared& p) {
      return applies(p.x) ? run_device(p.x, p.in, dev(p.x)) : emulator.run(k, p.in, Mutant::None);
    };
  };
  auto f32d = [](const MmaInfo& x) { return is_float(x) && x.d.format->name == "f32"; };
  auto f16d = [](const MmaInfo& x) { return is_float(x) && x.d.format->name == "f16"; };
  expect_only(sparse_claims(results_on(breaking(f32d, one_bit_less))),
              {"accumulate-single", "bf16-precision", "tf32-precision"}, "f32 one bit less");
  expect_only(sparse_claims(results_on(breaking(f16d, one_bit_less))), {"accumulate-half"}, "f16 one bit less");
  auto f16_in = [](const MmaInfo& x) { return x.a.format->name == "f16" && x.d.format->name == "f32"; };
  expect_only(sparse_claims(results_on(breaking(f16_in, [](const MmaInfo&) { return f16_products(); }))),
              {"products-single"}, "f16 products");
  auto sat = [](const MmaInfo& x) { return !is_float(x) && x.rule.satfinite; };
  auto plain = [](const MmaInfo& x) { return !is_float(x) && !x.rule.satfinite; };
  expect_only(sparse_claims(results_on(breaking(sat, [](const MmaInfo&) { return Device{.step = wrap}; }))),
              {"satfinite"}, "wrap under .satfinite");
  expect_only(sparse_claims(results_on(breaking(plain, [](const MmaInfo&) { return Device{.step = clamp}; }))), {"wrap"},
              "clamp without .satfinite");
  auto any = [](const MmaInfo&) { return true; };
  auto drop = [](const MmaInfo& x) {
    Device d{.drop = true};
    if (!is_float(x)) d.step = x.rule.satfinite ? Step(clamp) : Step(wrap);
    return d;
  };
  expect_only(sparse_claims(results_on(breaking(any, drop))),
              {"single", "half", "precision", "satfinite", "wrap"}, "dropped value");
}

// The fake device runner's wrong devices (does nothing, zeroes, shuffles): every sparse numbers case
// fails, so no claim resting on them is confirmed; the observations' claims report their failed cases.
TEST(MmaSparseNumbers, TheWrongDevicesFailEveryCase) {
  for (Mutant m : {Mutant::Echo, Mutant::Zero, Mutant::Shuffled}) {
    DeviceEmulator emulator;
    const auto results = results_on([&](const KernelPlan& k, const Prepared& p) { return emulator.run(k, p.in, m); });
    ASSERT_EQ(results.size(), 76u);
    for (auto const& r : results) EXPECT_EQ(r.status, Status::Fail) << r.kernel << "/" << r.case_name;
    for (auto const& [id, v] : sparse_claims(results)) {
      EXPECT_NE(v.verdict, Verdict::Confirmed) << id;
      EXPECT_NE(v.evidence.find(" 0 passed,"), std::string::npos) << id << ": " << v.evidence;
    }
  }
}

// What the device returned where the words allow more than one result, quoted in the claims: the
// correct device's .f16-input products exact, .bf16 products either; the odd rows' accumulation.
TEST(MmaSparseNumbers, TheObservationsNameWhatTheDeviceReturned) {
  DeviceEmulator emulator;
  const auto vs = sparse_claims(
      results_on([&](const KernelPlan& k, const Prepared& p) { return emulator.run(k, p.in, Mutant::None); }));
  const ClaimVerdict& un = vs.at("mma-sp-num-m16n8k16-f16-unspecified");
  EXPECT_EQ(un.evidence.rfind("left unspecified by the documents, observed: ", 0), 0u) << un.evidence;
  EXPECT_NE(un.evidence.find("the exact sum C + 7 rounded once"), std::string::npos) << un.evidence;
  EXPECT_NE(un.evidence.find("(mma.sp: the k/2 = 8 non-zero values of each row of A)"), std::string::npos)
      << un.evidence;
  const Prepared bf(kernel_named("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32_e_0"), "sparse-products");
  const CaseOutcome rounded = bf.on(Device{.step = [](long double acc, long double a, long double b) {
    return acc + test::round_bits(a * b, 8);
  }});
  EXPECT_EQ(rounded.comparison.mismatches, 0) << (rounded.comparison.diff.empty() ? "" : rounded.comparison.diff.front());
  EXPECT_NE(rounded.observed.find("the product rounded to .bf16"), std::string::npos) << rounded.observed;
}

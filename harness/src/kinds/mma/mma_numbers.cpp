#include "kinds/mma/mma_numbers.hpp"

#include "kinds/mma/mma_sparse.hpp"
#include "kinds/mma/mma_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace ptxcts {
namespace {

using Expect = NumberExpectation;

bool narrow_float(const ElementFormat* f) { return f->kind == ElementKind::Float && f->mantissa_bits < 23; }
bool named(const ElementFormat* f, const char* name) { return f->name == name; }

// The bits of a value the format holds exactly; a value it does not hold is a design error.
std::uint64_t exactly(const ElementFormat& f, long double v) {
  if (f.kind != ElementKind::Float)
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & ((std::uint64_t{1} << f.bits) - 1);
  bool exact = true;
  std::uint64_t bits = 0;
  if (f.name == "f32") {
    const float x = static_cast<float>(v);
    exact = static_cast<long double>(x) == v;
    bits = std::bit_cast<std::uint32_t>(x);
  } else if (f.name == "f64") {
    const double x = static_cast<double>(v);
    exact = static_cast<long double>(x) == v;
    bits = std::bit_cast<std::uint64_t>(x);
  } else {
    bits = element_encode(f, static_cast<double>(v));
    exact = static_cast<long double>(element_value(f, bits)) == v;
  }
  if (!exact) throw std::logic_error(fmt::format("numbers: .{} does not hold {}", f.name, static_cast<double>(v)));
  return bits;
}

// IEEE infinity and the largest finite value of .f16 and .f32.
std::uint64_t infinity_bits(const ElementFormat& f) {
  return ((std::uint64_t{1} << f.exponent_bits) - 1) << f.mantissa_bits;
}

// The smallest subnormal of a float format: 2^(1 - bias - mantissa bits).
long double smallest_subnormal(const ElementFormat& f) {
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  return std::ldexp(1.0L, 1 - bias - f.mantissa_bits);
}

// A design under construction: zero matrices (every format encodes zero as zero bits) and D's
// elements all exact until set.
struct Builder {
  const MmaInfo& x;
  NumbersDesign out;
  explicit Builder(const MmaInfo& info) : x(info) {
    auto zeros = [&](const MmaOperandInfo& o) {
      return MatrixValues{.rows = o.rows,
                          .cols = o.cols,
                          .format = o.format,
                          .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(o.rows * o.cols))};
    };
    for (int g = 0; g < x.computations; ++g) {
      out.a.push_back(zeros(x.a));
      out.b.push_back(zeros(x.b));
      out.c.push_back(zeros(x.c));
      out.d.emplace_back(static_cast<std::size_t>(x.m * x.n));
    }
  }
  void a(int g, int i, int q, long double v) { out.a[g].at(i, q) = exactly(*x.a.format, v); }
  void b(int g, int q, int j, long double v) { out.b[g].at(q, j) = exactly(*x.b.format, v); }
  void c(int g, int i, int j, long double v) { out.c[g].at(i, j) = exactly(*x.c.format, v); }
  Expect& d(int g, int i, int j) { return out.d[g][static_cast<std::size_t>(i * x.n + j)]; }
  int idx(int g, int i, int j) const { return (g * x.m + i) * x.n + j; }
  std::uint64_t dbits(long double v) const { return exactly(*x.d.format, v); }
  void exact(int g, int i, int j, long double v, int group) {
    d(g, i, j) = {.judged = Expect::Judged::Exact, .members = {{dbits(v), "exact"}}, .group = group};
  }
};

// An odd row's D: C plus L 1s, each half an ulp of C, in any order and rounding: C + 2t, t = 0..L.
Expect lost_ones(const Builder& b, long double c, int L, const std::string& d) {
  Expect e{.judged = Expect::Judged::Range, .group = 1};
  for (int t = 0; t <= L; ++t)
    e.members.push_back(
        {b.dbits(c + 2 * t),
         t == 0 ? fmt::format("C: every 1 lost (each product added to C in turn, rounding to nearest even at .{}'s "
                              "precision)",
                              d)
         : 2 * t == L + 1 ? fmt::format("C + {}: the exact sum C + {} rounded once to nearest even (the 1s kept: the "
                                        "products summed before C, or an accumulator wider than .{})",
                                        L + 1, L, d)
                          : fmt::format("C + {}: another order or rounding", 2 * t)});
  return e;
}

// Float accumulation. Even rows: C = 2^m + 2 idx (m: D's mantissa bits) plus L products 1 x 1 (L
// odd): every partial sum, in any order, is an integer D's type holds, and the result needs all of
// its bits, so D = C + L exactly on any device that accumulates with at least D's precision.
// Odd rows: C = 2^(m+1) + 2 (L+1) idx, where each 1 is half an ulp: the order and rounding the
// documents leave unspecified decide which of C, C + 2, ..., C + 2L the GPU gives.
NumbersDesign accumulation(const MmaInfo& x) {
  Builder b(x);
  const ElementFormat& df = *x.d.format;
  const int m = df.mantissa_bits, L = std::min(x.k - 1, 7);
  const long long step = 2LL * (L + 1);
  b.out.groups = {
      fmt::format("even rows: C = 2^{} + 2 idx plus {} products 1 x 1, every partial sum exact in .{} in any order", m,
                  L, df.name),
      fmt::format("odd rows: C = 2^{} + {} idx plus {} products 1 x 1, each 1 half an ulp of C in .{}", m + 1, step, L,
                  df.name)};
  for (int g = 0; g < x.computations; ++g) {
    for (int i = 0; i < x.m; ++i)
      for (int q = 0; q < L; ++q) b.a(g, i, q, 1);
    for (int q = 0; q < L; ++q)
      for (int j = 0; j < x.n; ++j) b.b(g, q, j, 1);
    for (int i = 0; i < x.m; ++i)
      for (int j = 0; j < x.n; ++j) {
        const long double i0 = b.idx(g, i, j);
        if (i % 2 == 0) {
          const long double c = std::ldexp(1.0L, m) + 2 * i0;
          b.c(g, i, j, c);
          b.exact(g, i, j, c + L, 0);
          continue;
        }
        const long double c = std::ldexp(1.0L, m + 1) + static_cast<long double>(step) * i0;
        b.c(g, i, j, c);
        b.d(g, i, j) = lost_ones(b, c, L, df.name);
      }
  }
  return std::move(b.out);
}

// Element-wise products: A's and B's only non-zero elements 1 + alpha u and 1 + beta u (u: an ulp
// of 1 in the input type), C = idx mod 8: D = C + the exact product needs at most 24 bits. .f16
// inputs ("at least single precision"): exact. Other types ("with specified precision"): the exact
// product or the product rounded to the input type, which the GPU gave observed.
NumbersDesign products(const MmaInfo& x) {
  Builder b(x);
  const ElementFormat &af = *x.a.format, &bf = *x.b.format;
  const bool strict = named(&af, "f16") && named(&bf, "f16");
  const long double ua = std::ldexp(1.0L, -af.mantissa_bits), ub = std::ldexp(1.0L, -bf.mantissa_bits);
  const int na = (1 << af.mantissa_bits) - 1, nb = (1 << bf.mantissa_bits) - 1;
  b.out.groups = {fmt::format("one product per element, (1 + alpha 2^-{}) x (1 + beta 2^-{}), plus C = idx mod 8",
                              af.mantissa_bits, bf.mantissa_bits)};
  for (int g = 0; g < x.computations; ++g) {
    for (int i = 0; i < x.m; ++i) b.a(g, i, 0, 1 + (1 + i % na) * ua);
    for (int j = 0; j < x.n; ++j) b.b(g, 0, j, 1 + (1 + j % nb) * ub);
    for (int i = 0; i < x.m; ++i)
      for (int j = 0; j < x.n; ++j) {
        const long double c = b.idx(g, i, j) % 8;
        const long double p = (1 + (1 + i % na) * ua) * (1 + (1 + j % nb) * ub);
        b.c(g, i, j, c);
        if (strict) {
          b.exact(g, i, j, c + p, 0);
          continue;
        }
        const long double rounded = element_value(af, element_encode(af, static_cast<double>(p)));
        b.d(g, i, j) = {
            .judged = Expect::Judged::Range,
            .members = {{b.dbits(c + p), "the exact product (no rounding before the accumulation)"},
                        {b.dbits(c + rounded),
                         fmt::format("the product rounded to .{} (nearest even) before the accumulation", af.name)}},
            .group = 0};
      }
  }
  return std::move(b.out);
}

// Subnormal inputs. Even rows: A = 1, B = 1 + j mod 2, C = idx: exact. Odd rows: A a subnormal s u
// (u: the input type's smallest subnormal), C = 0: D = s (1 + j mod 2) u exactly, or what the GPU makes of
// a subnormal input (unspecified; observed).
NumbersDesign subnormal(const MmaInfo& x) {
  Builder b(x);
  const ElementFormat& af = *x.a.format;
  const long double u = smallest_subnormal(af);
  const int smax = (1 << af.mantissa_bits) - 1;
  b.out.groups = {"even rows: A = 1, B = 1 + j mod 2, C = idx",
                  fmt::format("odd rows: A a subnormal .{} (s x 2^{}), B = 1 + j mod 2, C = 0", af.name,
                              std::ilogb(static_cast<double>(u)))};
  for (int g = 0; g < x.computations; ++g) {
    for (int j = 0; j < x.n; ++j) b.b(g, 0, j, 1 + j % 2);
    for (int i = 0; i < x.m; ++i) {
      const long double s = 1 + (i / 2) % std::min(smax, 7);
      b.a(g, i, 0, i % 2 == 0 ? 1.0L : s * u);
      for (int j = 0; j < x.n; ++j) {
        if (i % 2 == 0) {
          b.c(g, i, j, b.idx(g, i, j));
          b.exact(g, i, j, b.idx(g, i, j) + 1 + j % 2, 0);
          continue;
        }
        b.d(g, i, j) = {
            .judged = Expect::Judged::Any,
            .members = {{b.dbits(s * (1 + j % 2) * u), "the exact product: the subnormal input used as it is"},
                        {0, "+0: the subnormal input (or the result) flushed to zero"}},
            .group = 1};
      }
    }
  }
  return std::move(b.out);
}

// Overflow. A = 2^E; even columns: B = 2^E and C the largest finite value of D's type, so the sum
// overflows (the documents do not say what D is then: observed); odd columns: B small, C = idx, exact.
NumbersDesign overflow(const MmaInfo& x) {
  Builder b(x);
  const ElementFormat& df = *x.d.format;
  const bool half = named(&df, "f16");
  const int e = half ? 8 : 60;
  const long double big = std::ldexp(1.0L, e), small = half ? 1.0L : std::ldexp(1.0L, -e);
  const std::uint64_t inf = infinity_bits(df);
  const long double max = element_value(df, inf - 1);
  b.out.groups = {fmt::format("odd columns: A = 2^{}, B = {}, C = idx", e, static_cast<double>(small)),
                  fmt::format("even columns: A = B = 2^{}, C = the largest finite .{}: the sum overflows", e, df.name)};
  for (int g = 0; g < x.computations; ++g) {
    for (int i = 0; i < x.m; ++i) b.a(g, i, 0, big);
    for (int j = 0; j < x.n; ++j) b.b(g, 0, j, j % 2 == 0 ? big : small);
    for (int i = 0; i < x.m; ++i)
      for (int j = 0; j < x.n; ++j) {
        if (j % 2 == 1) {
          b.c(g, i, j, b.idx(g, i, j));
          b.exact(g, i, j, b.idx(g, i, j) + big * small, 0);
          continue;
        }
        b.c(g, i, j, max);
        b.d(g, i, j) = {
            .judged = Expect::Judged::Any,
            .members = {{inf, "+inf (an overflow rounded to nearest goes to infinity)"},
                        {inf - 1, fmt::format("the largest finite .{} (saturated, or rounded toward zero)", df.name)}},
            .group = 1};
      }
  }
  return std::move(b.out);
}

// fma(a, b, c) rounded as `mode` says (rn, rz, rm, rp), computed by the host's own fused multiply-add.
double host_fma(double a, double b, double c, const std::string& mode) {
  const int saved = std::fegetround();
  std::fesetround(mode == "rz" ? FE_TOWARDZERO : mode == "rm" ? FE_DOWNWARD : mode == "rp" ? FE_UPWARD : FE_TONEAREST);
  volatile double va = a, vb = b, vc = c;
  volatile double r = std::fma(va, vb, vc);
  std::fesetround(saved);
  return r;
}

// .f64. Even rows: a = 1 + alpha 2^-40 (k index 0), b = 1 + beta 2^-40, c = -(1 + (alpha + beta)
// 2^-40): the fused result alpha beta 2^-80 is exact in every mode, where a rounded product then an
// addition gives 0 (or 2^-52). Odd rows: a = +-(1 + alpha 2^-27) (k index 1), b = 1 + beta 2^-27,
// c = 0: the product's last bits are below an ulp and not a tie, positive and negative, nearer the
// lower and the upper neighbour, so .rn, .rz, .rm and .rp each give a D no other mode gives.
NumbersDesign f64(const MmaInfo& x) {
  Builder b(x);
  const std::string& mode = x.rule.rounding;
  b.out.groups = {"even rows: one product, fused with c its result is alpha beta 2^-80 exactly",
                  fmt::format("odd rows: one inexact product, rounded .{}", mode)};
  for (int g = 0; g < x.computations; ++g) {
    for (int j = 0; j < x.n; ++j) {
      b.b(g, 0, j, 1 + (2 * j + 2) * std::ldexp(1.0L, -40));
      b.b(g, 1, j, 1 + (2 * j + 1) * std::ldexp(1.0L, -27));
    }
    for (int i = 0; i < x.m; ++i) {
      const int r = i / 2;
      const long double av = i % 2 == 0 ? 1 + (2 * i + 1) * std::ldexp(1.0L, -40)
                                        : (r % 2 ? -1 : 1) * (1 + (2 * r + 1) * std::ldexp(1.0L, -27));
      b.a(g, i, i % 2, av);
      for (int j = 0; j < x.n; ++j) {
        const double bv = element_value(*x.b.format, b.out.b[g].at(i % 2, j));
        const long double cv = i % 2 == 0 ? -(1 + ((2 * i + 1) + (2 * j + 2)) * std::ldexp(1.0L, -40)) : 0.0L;
        b.c(g, i, j, cv);
        b.exact(g, i, j, host_fma(static_cast<double>(av), bv, static_cast<double>(cv), mode), i % 2);
      }
    }
  }
  return std::move(b.out);
}

struct IntRange {
  long long min, max;
};
IntRange int_range(const ElementFormat& f) {
  return f.kind == ElementKind::Signed ? IntRange{-(1LL << (f.bits - 1)), (1LL << (f.bits - 1)) - 1}
                                       : IntRange{0, (1LL << f.bits) - 1};
}

// What a 32-bit accumulator gives for the exact sum: clamped (.satfinite) or wrapped.
long long to_s32(long long v, bool satfinite) {
  constexpr long long lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  if (satfinite) return std::clamp(v, lo, hi);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

void int_final_row(Builder& b, int g, int i, long long sum, bool sat);
void int_partial_row(Builder& b, int g, int i, const IntRange& ar, long long bmax, bool sat);

// Integer overflow. B = its type's largest value; even rows: A = its largest in the first k/2
// columns, C = MAX_INT32 - idx: the final sum overflows, every partial sum on the way up (clamped or
// wrapped, exactly). Odd rows, signed A: the largest then the smallest, C just below MAX_INT32: the
// partial sums in k order overflow, the final sum does not (.satfinite: which "accumulated value"
// is clamped is observed; wrapped: exact). Unsigned A: odd rows from MIN_INT32 up, in range, exact.
// `in_range`: rows 3, 7, ... of a signed A as an unsigned A's odd rows (mma.sp's: so that every
// form has elements that every value of A decides, where .satfinite leaves the odd rows a range).
NumbersDesign int_overflow(const MmaInfo& x, bool in_range) {
  Builder b(x);
  const IntRange ar = int_range(*x.a.format), br = int_range(*x.b.format);
  const bool sat = x.rule.satfinite;
  b.out.groups = {"even rows: the final sum overflows",
                  ar.min < 0 ? in_range ? "rows 1, 5, ...: partial sums in k order overflow, the final sum does not"
                                        : "odd rows: partial sums in k order overflow, the final sum does not"
                             : "odd rows: in range from MIN_INT32"};
  if (in_range && ar.min < 0) b.out.groups.push_back("rows 3, 7, ...: A's largest in the first k/2 columns onto C from MIN_INT32 up, in range");
  for (int g = 0; g < x.computations; ++g) {
    for (int q = 0; q < x.k; ++q)
      for (int j = 0; j < x.n; ++j) b.b(g, q, j, static_cast<long double>(br.max));
    for (int i = 0; i < x.m; ++i) {
      if (i % 2 == 0) int_final_row(b, g, i, static_cast<long long>(x.k / 2) * ar.max * br.max, sat);
      else if (!in_range || ar.min >= 0 || i % 4 != 3) int_partial_row(b, g, i, ar, br.max, sat);
      else {
        int_partial_row(b, g, i, {0, ar.max}, br.max, sat);
        for (int j = 0; j < x.n; ++j) b.d(g, i, j).group = 2;
      }
    }
  }
  return std::move(b.out);
}

void int_final_row(Builder& b, int g, int i, long long sum, bool sat) {
  constexpr long long max = std::numeric_limits<std::int32_t>::max();
  const IntRange ar = int_range(*b.x.a.format);
  for (int q = 0; q < b.x.k / 2; ++q) b.a(g, i, q, static_cast<long double>(ar.max));
  for (int j = 0; j < b.x.n; ++j) {
    const long long c = max - b.idx(g, i, j);
    b.c(g, i, j, static_cast<long double>(c));
    b.exact(g, i, j, static_cast<long double>(to_s32(c + sum, sat)), 0);
  }
}

void int_partial_row(Builder& b, int g, int i, const IntRange& ar, long long bmax, bool sat) {
  constexpr long long max = std::numeric_limits<std::int32_t>::max(), min = std::numeric_limits<std::int32_t>::min();
  const int half = b.x.k / 2;
  for (int q = 0; q < b.x.k; ++q)
    if (ar.min < 0 || q < half) b.a(g, i, q, static_cast<long double>(q < half ? ar.max : ar.min));
  for (int j = 0; j < b.x.n; ++j) {
    if (ar.min >= 0) {
      const long long c = min + b.idx(g, i, j);
      b.c(g, i, j, static_cast<long double>(c));
      b.exact(g, i, j, static_cast<long double>(c + half * ar.max * bmax), 1);
      continue;
    }
    const long long c = max - 300 + b.idx(g, i, j), exact = c + half * (ar.max + ar.min) * bmax;
    b.c(g, i, j, static_cast<long double>(c));
    if (!sat) {
      b.exact(g, i, j, static_cast<long double>(exact), 1);
      continue;
    }
    long long in_order = c;  // each partial sum clamped, in k order
    for (int q = 0; q < b.x.k; ++q) in_order = std::clamp(in_order + (q < half ? ar.max : ar.min) * bmax, min, max);
    b.d(g, i, j) = {.judged = Expect::Judged::Range,
                    .members = {{b.dbits(static_cast<long double>(exact)),
                                 "the exact sum: only the final value is clamped (no partial sum was)"},
                                {b.dbits(static_cast<long double>(in_order)), "each partial sum clamped, in k order"}},
                    .interval = true,
                    .lo = in_order,
                    .hi = exact,
                    .group = 1};
  }
}

bool float_inputs(const MmaInfo& x) { return narrow_float(x.a.format) && narrow_float(x.b.format); }
bool half_or_single(const ElementFormat* f) { return named(f, "f16") || named(f, "f32"); }
bool holds(const ElementFormat& f, long double v) {
  return static_cast<long double>(element_value(f, element_encode(f, static_cast<double>(v)))) == v;
}

constexpr std::string_view kSparse = "sparse-";

// The dense question a `sparse-` question asks of mma.sp's compressed A ("" for a dense question).
std::string sparse_base(const std::string& q) {
  return q.starts_with(kSparse) ? q.substr(kSparse.size()) : std::string();
}

NumbersDesign dense_design(const std::string& q, const MmaInfo& x, bool sparse = false);

// mma.sp: the dense question's design at half the k, its A the compressed A (k/2 non-zero values a
// row). Each chunk c of every row takes the meaningful field fields[c % 6] (.tf32: of 2), which
// places its non-zero values at the field's columns; B's row of dense column c * chunk + kept[t] is
// the design's row c * (chunk / 2) + t, and each row no field selects holds a trap (3, integers 1),
// which a zero of A multiplies to nothing, but a value placed at a column the field does not name
// (a wrong field, selector or half of e) multiplies to another D. D's expectations are the dense
// design's: the same products, the other k terms exactly zero.
NumbersDesign sparse_design(const std::string& q, const MmaInfo& x) {
  MmaInfo half = x;
  half.k = x.k / 2;
  half.b.rows = x.k / 2;
  half.sparse = {};
  NumbersDesign d = dense_design(q, half, true);
  const int chunk = x.sparse.chunk, per = chunk / 2;
  const std::vector<unsigned> all = meaningful_fields(chunk);
  for (int c = 0; c < x.k / chunk; ++c) d.fields.push_back(all[static_cast<std::size_t>(c) % all.size()]);
  const ElementFormat& bf = *x.b.format;
  const std::uint64_t trap = exactly(bf, bf.kind == ElementKind::Float ? 3.0L : 1.0L);
  for (auto& b : d.b) {
    MatrixValues dense{.rows = x.k, .cols = x.n, .format = b.format,
                       .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(x.k * x.n), trap)};
    for (int c = 0; c < x.k / chunk; ++c) {
      const std::vector<int> kept = kept_columns(chunk, d.fields[static_cast<std::size_t>(c)]);
      for (int t = 0; t < per; ++t)
        for (int j = 0; j < x.n; ++j) dense.at(c * chunk + kept[static_cast<std::size_t>(t)], j) = b.at(c * per + t, j);
    }
    b = std::move(dense);
  }
  for (auto& g : d.groups) g += fmt::format(" (mma.sp: the k/2 = {} non-zero values of each row of A)", half.k);
  return d;
}

NumbersDesign dense_design(const std::string& q, const MmaInfo& x, bool sparse) {
  if (q == "accumulation") return accumulation(x);
  if (q == "products") return products(x);
  if (q == "subnormal") return subnormal(x);
  if (q == "overflow") return overflow(x);
  if (q == "f64") return f64(x);
  if (q == "int-overflow") return int_overflow(x, sparse);
  throw std::logic_error("numbers: unknown question " + q);
}

bool dense_apply(const std::string& q, const MmaInfo& x) {
  if (x.rule.product != "multiply" || x.c.format != x.d.format) return false;
  const ElementFormat* d = x.d.format;
  if (q == "accumulation" || q == "subnormal") return float_inputs(x) && half_or_single(d);
  if (q == "products") return float_inputs(x) && named(d, "f32");
  if (q == "overflow") {  // A = 2^E, B = 2^E and (.f32) 2^-E, all held exactly
    const long double e = std::ldexp(1.0L, named(d, "f16") ? 8 : 60);
    return float_inputs(x) && (named(d, "f16") || named(d, "f32")) && holds(*x.a.format, e) && holds(*x.b.format, e) &&
           (named(d, "f16") || holds(*x.b.format, 1 / e));
  }
  if (q == "f64") return named(d, "f64");
  if (q == "int-overflow")
    return named(d, "s32") && x.a.format->kind != ElementKind::Float && x.a.format->kind != ElementKind::Bit;
  return false;
}

}  // namespace

// A dense question asks dense mma alone; a `sparse-` one mma.sp alone, the dense question's types.
bool numbers_apply(const std::string& q, const MmaInfo& x) {
  const std::string base = sparse_base(q);
  if (base.empty()) return !x.sparse.chunk && dense_apply(q, x);
  return x.sparse.chunk && base != "overflow" && base != "f64" && dense_apply(base, x);
}

bool numbers_apply(const std::string& q, const Instance& inst) {
  const MmaSpec& spec = *inst.variant().semantics_as<MmaSpec>();
  if (!spec.why_unchecked.empty()) return false;
  auto type = [&](const AxisOrFixed& e) {
    return find_element_format(e.axis.empty() ? e.fixed : inst.option(e.axis).text);
  };
  MmaInfo x;
  for (auto [info, op] : {std::pair{&x.a, &spec.a}, {&x.b, &spec.b}, {&x.c, &spec.c}, {&x.d, &spec.d}})
    if (!(info->format = type(op->element))) return false;
  x.sparse.chunk = spec.sparse.chunk;
  x.rule.product = spec.product.axis.empty() ? spec.product.fixed : "";
  return numbers_apply(q, x);
}

NumbersDesign numbers_design(const std::string& q, const MmaInfo& x) {
  const std::string base = sparse_base(q);
  return base.empty() ? dense_design(q, x) : sparse_design(base, x);
}

}  // namespace ptxcts

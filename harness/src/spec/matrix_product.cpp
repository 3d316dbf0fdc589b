#include "spec/matrix_product.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include <vector>

namespace ptxcts {
namespace {

// Every element's value, row-major as the bits: each decoded once, not once per product it is in.
std::vector<double> values_of(const MatrixValues& v) {
  std::vector<double> out(v.bits.size());
  for (std::size_t e = 0; e < v.bits.size(); ++e) out[e] = element_value(*v.format, v.bits[e]);
  return out;
}

}  // namespace

// D = A * B + C, exact for the case data; integers wrap or (.satfinite) clamp, .f64 rounds as asked,
// each product fused with the sum so far.
MatrixValues multiply_accumulate(const ProductRule& x, const MatrixValues& a, const MatrixValues& b,
                                 const MatrixValues& c) {
  MatrixValues d{
      .rows = x.m, .cols = x.n, .format = x.d, .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(x.m * x.n))};
  const bool integer = x.d->kind != ElementKind::Float;
  const std::vector<double> a_values = values_of(a), b_values = values_of(b);
  auto a_at = [&](int i, int q) { return a_values[static_cast<std::size_t>(i * a.cols + q)]; };
  auto b_at = [&](int q, int j) { return b_values[static_cast<std::size_t>(q * b.cols + j)]; };
  const bool xor_product = x.product == "xor", and_product = x.product == "and";
  for (int i = 0; i < x.m; ++i)
    for (int j = 0; j < x.n; ++j) {
      if (integer) {
        long long acc = static_cast<long long>(element_value(*c.format, c.at(i, j)));
        for (int q = 0; q < x.k; ++q) {
          const long long av = static_cast<long long>(a_at(i, q));
          const long long bv = static_cast<long long>(b_at(q, j));
          acc += xor_product ? (av ^ bv) : and_product ? (av & bv) : av * bv;
        }
        if (x.satfinite)
          acc = std::clamp<long long>(acc, std::numeric_limits<std::int32_t>::min(),
                                      std::numeric_limits<std::int32_t>::max());
        d.at(i, j) = static_cast<std::uint64_t>(acc) & 0xFFFFFFFFu;
      } else {
        // The case data keeps every product and partial sum exact in double, so one rounding at the
        // end; the rounding mode still decides the sign of an exact zero (x + -x is -0 under .rm).
        // Each product is fused with the sum so far, as .f64's "identical to that of .f64 precision
        // fused multiply-add" says (the same for the exact data of the other types).
        const int saved = std::fegetround();
        std::fesetround(x.rounding == "rz"   ? FE_TOWARDZERO
                        : x.rounding == "rm" ? FE_DOWNWARD
                        : x.rounding == "rp" ? FE_UPWARD
                                             : FE_TONEAREST);
        volatile double acc = element_value(*c.format, c.at(i, j));
        for (int q = 0; q < x.k; ++q) {
          volatile double av = a_at(i, q), bv = b_at(q, j);
          acc = std::fma(av, bv, acc);
        }
        std::fesetround(saved);
        d.at(i, j) = element_encode(*x.d, acc);
      }
    }
  return d;
}

}  // namespace ptxcts

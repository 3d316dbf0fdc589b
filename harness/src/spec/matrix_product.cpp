#include "spec/matrix_product.hpp"

#include <algorithm>
#include <cfenv>
#include <limits>

namespace ptxcts {

// D = A * B + C, exact for the case data; integers wrap or (.satfinite) clamp, .f64 rounds as asked.
MatrixValues multiply_accumulate(const ProductRule& x, const MatrixValues& a, const MatrixValues& b,
                                 const MatrixValues& c) {
  MatrixValues d{
      .rows = x.m, .cols = x.n, .format = x.d, .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(x.m * x.n))};
  const bool integer = x.d->kind != ElementKind::Float;
  for (int i = 0; i < x.m; ++i)
    for (int j = 0; j < x.n; ++j) {
      if (integer) {
        long long acc = static_cast<long long>(element_value(*c.format, c.at(i, j)));
        for (int q = 0; q < x.k; ++q) {
          const long long av = static_cast<long long>(element_value(*a.format, a.at(i, q)));
          const long long bv = static_cast<long long>(element_value(*b.format, b.at(q, j)));
          acc += x.product == "xor" ? (av ^ bv) : x.product == "and" ? (av & bv) : av * bv;
        }
        if (x.satfinite)
          acc = std::clamp<long long>(acc, std::numeric_limits<std::int32_t>::min(),
                                      std::numeric_limits<std::int32_t>::max());
        d.at(i, j) = static_cast<std::uint64_t>(acc) & 0xFFFFFFFFu;
      } else {
        // The case data keeps every product and partial sum exact in double, so one rounding at the
        // end; the rounding mode still decides the sign of an exact zero (x + -x is -0 under .rm).
        const int saved = std::fegetround();
        std::fesetround(x.rounding == "rz"   ? FE_TOWARDZERO
                        : x.rounding == "rm" ? FE_DOWNWARD
                        : x.rounding == "rp" ? FE_UPWARD
                                             : FE_TONEAREST);
        volatile double acc = element_value(*c.format, c.at(i, j));
        for (int q = 0; q < x.k; ++q) {
          volatile double p = element_value(*a.format, a.at(i, q)) * element_value(*b.format, b.at(q, j));
          acc = acc + p;
        }
        std::fesetround(saved);
        d.at(i, j) = element_encode(*x.d, acc);
      }
    }
  return d;
}

}  // namespace ptxcts

// A wrong device's arithmetic for the numbers tests (test_mma_numbers.cpp, test_mma_sparse_numbers.cpp):
// a value rounded to fewer significant bits than a claim allows, so that the claim can be seen to fail.
#pragma once

#include <cmath>

namespace ptxcts::test {

// `v` rounded to `bits` significant bits, to nearest even.
inline long double round_bits(long double v, int bits) {
  if (v == 0 || !std::isfinite(v)) return v;
  int e = 0;
  std::frexp(v, &e);
  const long double scale = std::ldexp(1.0L, bits - e);
  return std::nearbyint(v * scale) / scale;
}

}  // namespace ptxcts::test

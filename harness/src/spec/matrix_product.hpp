// What D = A * B + C computes, as the manual states it for wmma.mma and mma: over matrices of raw
// element bits, products of the element types' values, integer accumulation that wraps (or, with
// .satfinite, clamps to the 32-bit range), .xor.popc / .and.popc for single bits, and floats exact
// for the case data (one rounding at the end, in the mode asked for).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/element_format.hpp"

namespace ptxcts {

// A matrix of raw element bits, row-major.
struct MatrixValues {
  int rows = 0, cols = 0;
  const ElementFormat* format = nullptr;
  std::vector<std::uint64_t> bits;
  std::uint64_t& at(int r, int c) { return bits[static_cast<std::size_t>(r * cols + c)]; }
  std::uint64_t at(int r, int c) const { return bits[static_cast<std::size_t>(r * cols + c)]; }
};

struct ProductRule {
  int m = 0, n = 0, k = 0;
  const ElementFormat* d = nullptr;  // the result's type (a, b and c carry theirs)
  bool satfinite = false;
  std::string rounding = "rn";       // rn, rz, rm, rp
  std::string product = "multiply";  // multiply, xor, and
};

MatrixValues multiply_accumulate(const ProductRule& rule, const MatrixValues& a, const MatrixValues& b,
                                 const MatrixValues& c);

}  // namespace ptxcts

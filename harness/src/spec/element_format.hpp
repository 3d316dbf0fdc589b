// The element types of WMMA matrices and what their bits mean as numbers: what the reference model
// needs to compute D = A * B + C, and the case data to choose values every format holds exactly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxcts {

enum class ElementKind { Float, Signed, Unsigned, Bit };

struct ElementFormat {
  std::string name;  // "f16"
  int bits = 0;      // in memory, per element (tf32: 32, its container)
  ElementKind kind = ElementKind::Float;
  int exponent_bits = 0, mantissa_bits = 0;  // floats: the IEEE-style encoding (tf32: 8 and 10)
  // The narrow floats of mma (.e4m3, .e3m2, .e2m3, .e2m1) spend their top exponent on numbers:
  // no infinity (.e4m3 keeps one NaN pattern, S.1111.111).
  bool finite = false;
  int register_bits() const { return bits == 64 ? 64 : 32; }
};

const ElementFormat* find_element_format(std::string_view name);  // "f16" or ".f16"; null if unknown
std::vector<std::string> element_format_names();

// The number `bits` encodes (integers sign-extended; b1: 0 or 1). tf32 ignores the 13 bits below its
// 10-bit mantissa.
double element_value(const ElementFormat& f, std::uint64_t bits);
// The encoding of `value`: floats rounded to nearest even (tf32 in its 32-bit container, low bits
// zero), integers wrapped to the width.
std::uint64_t element_encode(const ElementFormat& f, double value);

}  // namespace ptxcts

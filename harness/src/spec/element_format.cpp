#include "spec/element_format.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace ptxcts {
namespace {

const std::vector<ElementFormat>& formats() {
  static const std::vector<ElementFormat> all = {
      {.name = "f16", .bits = 16, .kind = ElementKind::Float, .exponent_bits = 5, .mantissa_bits = 10},
      {.name = "bf16", .bits = 16, .kind = ElementKind::Float, .exponent_bits = 8, .mantissa_bits = 7},
      {.name = "tf32", .bits = 32, .kind = ElementKind::Float, .exponent_bits = 8, .mantissa_bits = 10},
      {.name = "f32", .bits = 32, .kind = ElementKind::Float, .exponent_bits = 8, .mantissa_bits = 23},
      {.name = "f64", .bits = 64, .kind = ElementKind::Float, .exponent_bits = 11, .mantissa_bits = 52},
      {.name = "s8", .bits = 8, .kind = ElementKind::Signed},
      {.name = "u8", .bits = 8, .kind = ElementKind::Unsigned},
      {.name = "s4", .bits = 4, .kind = ElementKind::Signed},
      {.name = "u4", .bits = 4, .kind = ElementKind::Unsigned},
      {.name = "s32", .bits = 32, .kind = ElementKind::Signed},
      {.name = "b1", .bits = 1, .kind = ElementKind::Bit},
      // mma's alternate floating point types (PTX ISA 9.0, 9.7.14.5.14 mma: .f8type, .f8f6f4type)
      {.name = "e4m3", .bits = 8, .kind = ElementKind::Float, .exponent_bits = 4, .mantissa_bits = 3, .finite = true},
      {.name = "e5m2", .bits = 8, .kind = ElementKind::Float, .exponent_bits = 5, .mantissa_bits = 2},
      {.name = "e3m2", .bits = 6, .kind = ElementKind::Float, .exponent_bits = 3, .mantissa_bits = 2, .finite = true},
      {.name = "e2m3", .bits = 6, .kind = ElementKind::Float, .exponent_bits = 2, .mantissa_bits = 3, .finite = true},
      {.name = "e2m1", .bits = 4, .kind = ElementKind::Float, .exponent_bits = 2, .mantissa_bits = 1, .finite = true},
  };
  return all;
}

// Floats in an IEEE-style layout with `e` exponent and `m` mantissa bits, the sign above them.
double decode_float(std::uint64_t x, int e, int m) {
  const std::uint64_t emask = (std::uint64_t{1} << e) - 1, mmask = (std::uint64_t{1} << m) - 1;
  const int bias = static_cast<int>(emask >> 1);
  const std::uint64_t exp = (x >> m) & emask, frac = x & mmask;
  const double sign = (x >> (e + m)) & 1 ? -1.0 : 1.0;
  if (exp == emask)
    return frac ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (exp == 0) return sign * std::ldexp(static_cast<double>(frac), 1 - bias - m);
  return sign * std::ldexp(static_cast<double>(frac | (std::uint64_t{1} << m)), static_cast<int>(exp) - bias - m);
}

std::uint64_t encode_float(double v, int e, int m) {
  const std::uint64_t emask = (std::uint64_t{1} << e) - 1;
  const int bias = static_cast<int>(emask >> 1);
  const std::uint64_t sign = std::signbit(v) ? std::uint64_t{1} << (e + m) : 0;
  v = std::fabs(v);
  if (std::isnan(v)) return sign | (emask << m) | (std::uint64_t{1} << (m - 1));
  if (v == 0) return sign;
  int ex = 0;
  std::frexp(v, &ex);       // v = f * 2^ex, f in [0.5, 1)
  int exp = ex - 1 + bias;  // biased exponent of a normal encoding
  const int scale = exp >= 1 ? ex - 1 - m : 1 - bias - m;
  double q = std::nearbyint(std::ldexp(v, -scale));    // the significand, rounded to nearest even
  if (exp < 1) exp = q >= std::ldexp(1.0, m) ? 1 : 0;  // subnormal, or rounded up into the normals
  else if (q >= std::ldexp(1.0, m + 1)) {
    ++exp;
    q = std::ldexp(1.0, m);
  }
  if (exp >= static_cast<int>(emask)) return sign | (emask << m);  // overflow: infinity
  const std::uint64_t frac = static_cast<std::uint64_t>(q) & ((std::uint64_t{1} << m) - 1);
  return sign | (static_cast<std::uint64_t>(exp) << m) | frac;
}

// A narrow float with no infinity: the top exponent holds numbers (.e4m3: but for its NaN, all ones).
double decode_finite(std::uint64_t x, const ElementFormat& f) {
  const int e = f.exponent_bits, m = f.mantissa_bits;
  if (f.name == "e4m3" && (x & 0x7F) == 0x7F) return std::numeric_limits<double>::quiet_NaN();
  const std::uint64_t emask = (std::uint64_t{1} << e) - 1, mmask = (std::uint64_t{1} << m) - 1;
  const int bias = static_cast<int>(emask >> 1);
  const std::uint64_t exp = (x >> m) & emask, frac = x & mmask;
  const double sign = (x >> (e + m)) & 1 ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(static_cast<double>(frac), 1 - bias - m);
  return sign * std::ldexp(static_cast<double>(frac | (std::uint64_t{1} << m)), static_cast<int>(exp) - bias - m);
}

// The nearest of a narrow format's (at most 256) finite encodings; ties to the even one.
std::uint64_t encode_finite(double v, const ElementFormat& f) {
  std::uint64_t best = 0;
  double best_err = std::numeric_limits<double>::infinity();
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << f.bits); ++x) {
    const double d = decode_finite(x, f);
    if (std::isnan(d) || std::signbit(d) != std::signbit(v)) continue;
    const double err = std::fabs(d - v);
    if (err < best_err || (err == best_err && (x & 1) == 0)) best = x, best_err = err;
  }
  return best;
}

}  // namespace

const ElementFormat* find_element_format(std::string_view name) {
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  for (auto const& f : formats())
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> element_format_names() {
  std::vector<std::string> out;
  for (auto const& f : formats()) out.push_back(f.name);
  return out;
}

double element_value(const ElementFormat& f, std::uint64_t bits) {
  const std::uint64_t mask = f.bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.bits) - 1;
  bits &= mask;
  switch (f.kind) {
    case ElementKind::Float:
      if (f.name == "tf32") return decode_float(bits >> 13, 8, 10);
      if (f.finite) return decode_finite(bits, f);
      if (f.bits == 64) {
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
      }
      return decode_float(bits, f.exponent_bits, f.mantissa_bits);
    case ElementKind::Signed: {
      const std::int64_t v = static_cast<std::int64_t>(bits << (64 - f.bits)) >> (64 - f.bits);
      return static_cast<double>(v);
    }
    case ElementKind::Unsigned:
    case ElementKind::Bit: return static_cast<double>(bits);
  }
  return 0;
}

std::uint64_t element_encode(const ElementFormat& f, double value) {
  const std::uint64_t mask = f.bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.bits) - 1;
  switch (f.kind) {
    case ElementKind::Float:
      if (f.name == "tf32") return encode_float(value, 8, 10) << 13;
      if (f.finite) return encode_finite(value, f);
      if (f.bits == 64) {
        std::uint64_t b;
        std::memcpy(&b, &value, 8);
        return b;
      }
      return encode_float(value, f.exponent_bits, f.mantissa_bits);
    default: return static_cast<std::uint64_t>(static_cast<std::int64_t>(value)) & mask;
  }
}

}  // namespace ptxcts

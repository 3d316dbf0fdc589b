#include "spec/element_format.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace ptxcts {
namespace {

const std::vector<ElementFormat>& formats() {
  static const std::vector<ElementFormat> all = {
      {"f16", 16, ElementKind::Float, 5, 10},
      {"bf16", 16, ElementKind::Float, 8, 7},
      {"tf32", 32, ElementKind::Float, 8, 10},
      {"f32", 32, ElementKind::Float, 8, 23},
      {"f64", 64, ElementKind::Float, 11, 52},
      {"s8", 8, ElementKind::Signed},
      {"u8", 8, ElementKind::Unsigned},
      {"s4", 4, ElementKind::Signed},
      {"u4", 4, ElementKind::Unsigned},
      {"s32", 32, ElementKind::Signed},
      {"b1", 1, ElementKind::Bit},
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

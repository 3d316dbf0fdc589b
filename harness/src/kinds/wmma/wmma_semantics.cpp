#include "kinds/wmma/wmma_semantics.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptxcts {
using Matrix = WmmaValues;

std::uint64_t read_bits(const std::vector<std::uint8_t>& mem, std::size_t base, long long bit, int width) {
  std::uint64_t v = 0;
  if (bit % 8 == 0 && width % 8 == 0) {  // whole bytes (all but the sub-byte formats): little-endian
    const std::size_t at = base + static_cast<std::size_t>(bit / 8);
    if (at + static_cast<std::size_t>(width / 8) > mem.size())
      throw std::out_of_range("wmma model: read outside the tiles");
    for (int b = width / 8 - 1; b >= 0; --b) v = (v << 8) | mem[at + static_cast<std::size_t>(b)];
    return v;
  }
  for (int b = 0; b < width; ++b) {
    const long long at = bit + b;
    v |= static_cast<std::uint64_t>((mem.at(base + static_cast<std::size_t>(at / 8)) >> (at % 8)) & 1) << b;
  }
  return v;
}

void write_bits(std::vector<std::uint8_t>& mem, std::size_t base, long long bit, int width, std::uint64_t v) {
  if (bit % 8 == 0 && width % 8 == 0) {
    const std::size_t at = base + static_cast<std::size_t>(bit / 8);
    if (at + static_cast<std::size_t>(width / 8) > mem.size())
      throw std::out_of_range("wmma model: write outside the tiles");
    for (int b = 0; b < width / 8; ++b) mem[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
    return;
  }
  for (int b = 0; b < width; ++b) {
    const long long at = bit + b;
    std::uint8_t& byte = mem.at(base + static_cast<std::size_t>(at / 8));
    byte = static_cast<std::uint8_t>((byte & ~(1u << (at % 8))) | (((v >> b) & 1) << (at % 8)));
  }
}

std::uint64_t element_mask(const ElementFormat& f) {
  return f.bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.bits) - 1;
}

WmmaValues wmma_load_matrix(const WmmaMatrixInfo& m, const std::vector<std::uint8_t>& mem, std::size_t base,
                            std::uint32_t stride) {
  Matrix out{.rows = m.rows,
             .cols = m.cols,
             .format = m.format,
             .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(m.rows * m.cols))};
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) out.at(r, c) = read_bits(mem, base, m.bit_offset(r, c, stride), m.format->bits);
  return out;
}

void wmma_store_matrix(const WmmaMatrixInfo& m, const WmmaValues& x, std::vector<std::uint8_t>& mem, std::size_t base,
                       std::uint32_t stride) {
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) write_bits(mem, base, m.bit_offset(r, c, stride), m.format->bits, x.at(r, c));
}

WmmaValues wmma_multiply(const WmmaMmaInfo& x, const WmmaValues& a, const WmmaValues& b, const WmmaValues& c) {
  return multiply_accumulate({.m = x.m,
                              .n = x.n,
                              .k = x.k,
                              .d = x.d.format,
                              .satfinite = x.satfinite,
                              .rounding = x.rounding,
                              .product = x.product},
                             a, b, c);
}

}  // namespace ptxcts

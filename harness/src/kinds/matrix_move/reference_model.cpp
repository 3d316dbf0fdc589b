#include "kinds/matrix_move/reference_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace ptxcts {
namespace {

std::uint32_t read_bits(const std::vector<std::uint8_t>& mem, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int b = 0; b < bytes; ++b) v |= std::uint32_t{mem[at + static_cast<std::size_t>(b)]} << (8 * b);
  return v;
}

void write_bits(std::vector<std::uint8_t>& mem, std::size_t at, int bytes, std::uint32_t v) {
  for (int b = 0; b < bytes; ++b) mem[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
}

// A widening load's element: the low memory_bits of `bits`, sign- or zero-extended to element_bits.
std::uint32_t widen(const Layout& L, std::uint32_t bits) {
  const std::uint32_t m = (1u << L.memory_bits) - 1, v = bits & m;
  const std::uint32_t emask = L.element_bits == 32 ? 0xFFFFFFFFu : ((1u << L.element_bits) - 1);
  if (L.widen_signed && (v >> (L.memory_bits - 1)) != 0) return (v | ~m) & emask;
  return v;
}

// A move: destination element (lane, r, i) takes the source element at the same matrix position.
void apply_move(const Layout& L, const LaunchShape& shape, LaunchState& s) {
  std::map<std::tuple<int, int, int>, std::size_t> source_at;
  for (std::size_t q = 0; q < L.source.size(); ++q)
    source_at[{L.source[q].matrix, L.source[q].row, L.source[q].col}] = q;
  const std::vector<std::uint32_t> before = s.regs;
  const int per_reg = L.elements_per_register;
  const std::uint32_t emask = L.element_bits == 32 ? 0xFFFFFFFFu : ((1u << L.element_bits) - 1);
  for (int w = 0; w < shape.warps; ++w)
    for (std::size_t d = 0; d < L.element.size(); ++d) {
      const ElementPos& p = L.element[d];
      const std::size_t q = source_at.at({p.matrix, p.row, p.col});
      const int dl = static_cast<int>(d) / (L.registers * per_reg), dr = static_cast<int>(d) / per_reg % L.registers,
                di = static_cast<int>(d) % per_reg;
      const int sl = static_cast<int>(q) / (L.registers * per_reg), sr = static_cast<int>(q) / per_reg % L.registers,
                si = static_cast<int>(q) % per_reg;
      const std::uint32_t v =
          (before[static_cast<std::size_t>((w * kWarpLanes + sl) * shape.regs + sr)] >> (si * L.element_bits)) & emask;
      std::uint32_t& reg = s.regs[static_cast<std::size_t>((w * kWarpLanes + dl) * shape.regs + dr)];
      reg = (reg & ~(emask << (di * L.element_bits))) | (v << (di * L.element_bits));
    }
}

}  // namespace

LaunchState expected_state(const std::vector<ModelStep>& steps, const LaunchInput& input) {
  LaunchState s = input.state;
  const LaunchShape& shape = input.shape;
  const int threads = shape.threads();
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Layout& L = steps[k].layout;
    if (steps[k].instance->variant().operation == "move") {
      apply_move(L, shape, s);
      continue;
    }
    const bool load = steps[k].instance->variant().operation == "load";
    const int ebytes = L.element_bits / 8;
    const std::uint32_t emask = L.element_bits == 32 ? 0xFFFFFFFFu : ((1u << L.element_bits) - 1);
    for (int w = 0; w < shape.warps; ++w) {
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int thread = w * kWarpLanes + lane;
        for (int r = 0; r < L.registers; ++r) {
          std::uint32_t& reg = s.regs[static_cast<std::size_t>(thread * shape.regs + r)];
          for (int i = 0; i < L.elements_per_register; ++i) {
            const ElementPos& p = L.at(lane, r, i);
            const int supplier = w * kWarpLanes + L.row_lane[static_cast<std::size_t>(p.matrix * L.rows + p.row)];
            const std::uint64_t bit = static_cast<std::uint64_t>(p.col) * static_cast<std::uint64_t>(L.memory_bits);
            const std::uint64_t off =
                input.offsets[k * static_cast<std::size_t>(threads) + static_cast<std::size_t>(supplier)] + bit / 8;
            // A packed element's bits, read little-endian from the bytes it spans (a 6-bit one may span two).
            const bool packed = load && L.memory_bits < L.element_bits;
            const int span =
                packed ? static_cast<int>(bit % 8 + static_cast<std::uint64_t>(L.memory_bits) + 7) / 8 : ebytes;
            if (off + static_cast<std::uint64_t>(span) > static_cast<std::uint64_t>(shape.tile_bytes))
              throw std::runtime_error(
                  fmt::format("step {}: warp {} lane {} row address +{} is outside the {}-byte tile", k, w,
                              supplier % kWarpLanes, off, shape.tile_bytes));
            const std::size_t at = static_cast<std::size_t>(w) * static_cast<std::size_t>(shape.tile_bytes) + off;
            const int shift = i * L.element_bits;
            if (packed) {
              reg = (reg & ~(emask << shift)) | (widen(L, read_bits(s.smem, at, span) >> (bit % 8)) << shift);
            } else if (load) {
              std::uint32_t v = read_bits(s.smem, at, ebytes);
              reg = (reg & ~(emask << shift)) | (v << shift);
            } else {
              write_bits(s.smem, at, ebytes, (reg >> shift) & emask);
            }
          }
        }
      }
    }
  }
  return s;
}

}  // namespace ptxcts

#include "kinds/matrix_move/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace ptxcts {
namespace {

struct Where {
  int step, matrix, row, col;
};

// Which (matrix, row, col) of which step every tile byte range belongs to, per warp.
std::map<std::size_t, Where> addressed_elements(const std::vector<ModelStep>& steps, const LaunchInput& in) {
  std::map<std::size_t, Where> out;
  const int threads = in.shape.threads();
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Layout& L = steps[k].layout;
    for (int w = 0; w < in.shape.warps; ++w)
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!L.active[static_cast<std::size_t>(lane)]) continue;
        const ElementPos& p = L.lane_row[static_cast<std::size_t>(lane)];
        std::size_t base =
            static_cast<std::size_t>(w) * static_cast<std::size_t>(in.shape.tile_bytes) +
            in.offsets[k * static_cast<std::size_t>(threads) + static_cast<std::size_t>(w * kWarpLanes + lane)];
        for (int c = L.cols - 1; c >= 0; --c)  // (packed sub-byte elements: a byte is named by its first)
          out[base + static_cast<std::size_t>(c * L.memory_bits / 8)] = {
              .step = static_cast<int>(k), .matrix = p.matrix, .row = p.row, .col = c};
      }
  }
  return out;
}

// Every mismatch is counted; only the lines kept (the first max_lines) are written out.
struct Notes {
  Comparison& c;
  std::size_t max_lines;
  template <typename Line>
  void note(Line&& line) {
    ++c.mismatches;
    if (c.diff.size() < max_lines) c.diff.push_back(line());
  }
};

// Registers, element by element, named by the last step that writes registers (a load).
void compare_registers(const std::vector<ModelStep>& steps, const LaunchShape& s, const LaunchState& expected,
                       const LaunchState& actual, Notes& notes) {
  const ModelStep* load = nullptr;
  for (auto const& st : steps)
    if (st.instance->variant().operation != "store") load = &st;
  const int ebits = load ? load->layout.element_bits : 32;
  const int per_reg = 32 / ebits;
  const std::uint32_t emask = ebits == 32 ? 0xFFFFFFFFu : ((1u << ebits) - 1);
  for (int t = 0; t < s.threads(); ++t)
    for (int r = 0; r < s.regs; ++r) {
      std::uint32_t e = expected.regs[static_cast<std::size_t>(t * s.regs + r)],
                    a = actual.regs[static_cast<std::size_t>(t * s.regs + r)];
      if (e == a) continue;
      for (int i = 0; i < per_reg; ++i) {
        std::uint32_t ev = (e >> (i * ebits)) & emask, av = (a >> (i * ebits)) & emask;
        if (ev == av) continue;
        notes.note([&] {
          std::string pos;
          if (load && r < load->layout.registers) {
            const ElementPos& p = load->layout.at(t % kWarpLanes, r, i);
            pos = fmt::format(" (matrix {} row {} col {})", p.matrix, p.row, p.col);
          }
          return fmt::format("warp {} lane {} register {} element {}{}: expected 0x{:0{}x}, got 0x{:0{}x}",
                             t / kWarpLanes, t % kWarpLanes, r, i, pos, ev, ebits / 4, av, ebits / 4);
        });
      }
    }
}

// Shared memory, at the element size of the last step.
// (moves leave memory as it was; a widening load's packed elements are compared byte by byte)
void compare_memory(const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& expected,
                    const LaunchState& actual, Notes& notes) {
  const LaunchShape& s = input.shape;
  const int mbytes = std::max(1, steps.back().layout.memory_bits / 8);
  std::optional<std::map<std::size_t, Where>> where;  // made for the first line that names an element
  for (std::size_t at = 0; at + static_cast<std::size_t>(mbytes) <= expected.smem.size();
       at += static_cast<std::size_t>(mbytes)) {
    std::uint32_t ev = 0, av = 0;
    for (int b = 0; b < mbytes; ++b) {
      ev |= std::uint32_t{expected.smem[at + static_cast<std::size_t>(b)]} << (8 * b);
      av |= std::uint32_t{actual.smem[at + static_cast<std::size_t>(b)]} << (8 * b);
    }
    if (ev == av) continue;
    notes.note([&] {
      const std::size_t warp = at / static_cast<std::size_t>(s.tile_bytes),
                        off = at % static_cast<std::size_t>(s.tile_bytes);
      if (!where) where = addressed_elements(steps, input);
      std::string pos = " (not addressed: must stay unchanged)";
      if (auto it = where->find(at); it != where->end())
        pos = fmt::format(" (step {} matrix {} row {} col {})", it->second.step, it->second.matrix, it->second.row,
                          it->second.col);
      return fmt::format("warp {} tile +0x{:04x}{}: expected 0x{:0{}x}, got 0x{:0{}x}", warp, off, pos, ev, mbytes * 2,
                         av, mbytes * 2);
    });
  }
}

}  // namespace

Comparison compare_states(const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& expected,
                          const LaunchState& actual, std::size_t max_lines) {
  Comparison c;
  Notes notes{c, max_lines};
  if (actual.regs.size() != expected.regs.size() || actual.smem.size() != expected.smem.size()) {
    notes.note([&] {
      return fmt::format("the device returned {} registers and {} tile bytes; expected {} and {}", actual.regs.size(),
                         actual.smem.size(), expected.regs.size(), expected.smem.size());
    });
    return c;
  }
  compare_registers(steps, input.shape, expected, actual, notes);
  compare_memory(steps, input, expected, actual, notes);
  return c;
}

}  // namespace ptxcts

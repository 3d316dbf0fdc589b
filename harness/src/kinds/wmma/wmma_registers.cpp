#include "kinds/wmma/wmma_registers.hpp"

#include <fmt/format.h>

#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_semantics.hpp"
#include "spec/layout.hpp"

namespace ptxcts {
namespace {

using Matrix = WmmaValues;

}  // namespace

std::vector<std::uint64_t> register_elements(const LaunchState& s, const LaunchShape& shape, int warp, int first_word,
                                             int words, const ElementFormat& f) {
  std::vector<std::uint64_t> out;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::size_t at = static_cast<std::size_t>((warp * kWarpLanes + lane) * shape.regs + first_word);
    if (f.bits == 64) {
      for (int r = 0; r + 1 < words; r += 2)
        out.push_back(s.regs[at + static_cast<std::size_t>(r)] |
                      (std::uint64_t{s.regs[at + static_cast<std::size_t>(r) + 1]} << 32));
    } else {
      for (int r = 0; r < words; ++r)
        for (int i = 0; i < 32 / f.bits; ++i)
          out.push_back((s.regs[at + static_cast<std::size_t>(r)] >> (i * f.bits)) & element_mask(f));
    }
  }
  return out;
}

Signatures signatures(const KernelPlan& k, const LaunchInput& in, const LaunchState& regs_from,
                      const LaunchState& mem_from) {
  const WmmaMatrixInfo m = wmma_matrix_info(*k.steps[0]);
  const int warps = in.shape.warps;
  Signatures out;
  std::vector<Matrix> x;
  for (int w = 0; w < warps; ++w) {
    const std::size_t tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(in.shape.tile_bytes);
    x.push_back(wmma_load_matrix(m, mem_from.smem, tile + in.offsets[static_cast<std::size_t>(w * kWarpLanes)],
                                 in.offsets[static_cast<std::size_t>(in.shape.threads() + w * kWarpLanes)]));
    const std::vector<std::uint64_t> held = register_elements(regs_from, in.shape, w, 0, in.shape.regs, *m.format);
    if (out.slot.empty()) out.slot.assign(held.size(), {});
    for (std::size_t p = 0; p < held.size(); ++p) out.slot[p].push_back(held[p]);
  }
  out.per_lane = out.slot.size() / kWarpLanes;
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      std::vector<std::uint64_t> sig;
      for (auto const& xw : x) sig.push_back(xw.at(r, c));
      out.element[sig].push_back({r, c});
    }
  return out;
}

std::string slot_name(const ElementFormat& f, std::size_t e) {
  const std::size_t per_reg = f.bits == 64 ? 1 : static_cast<std::size_t>(32 / f.bits);
  if (per_reg == 1) return fmt::format("r{}", e);
  if (per_reg == 2) return fmt::format("r{}.{}", e / 2, e % 2 ? "hi" : "lo");
  return fmt::format("r{}.{}", e / per_reg, e % per_reg);
}

}  // namespace ptxcts

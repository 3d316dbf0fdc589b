// The shfl test kind's GPU in software (support/device_emulator): shfl.sync.idx.b32 run as the
// manual's pseudocode reads (PTX ISA 9.0, 9.7.9.6 shfl.sync, Semantics), step by step: maxLane,
// minLane, j and pval from each lane's own b and c, then d = SourceA[j]. Shuffled, each lane gets the
// d meant for the lane after it.
#include <array>

#include "kinds/shfl/shfl_kind.hpp"
#include "support/device_emulator.hpp"

namespace ptxcts::test {
namespace {

LaunchState run_shfl_kernel(const KernelPlan&, const LaunchInput& in, bool shuffle, Mutant) {
  LaunchState s = in.state;
  const std::size_t regs = static_cast<std::size_t>(in.shape.regs);
  auto reg = [&](int w, std::uint32_t lane, int r) {
    return in.state.regs[(static_cast<std::size_t>(w) * kWarpLanes + lane) * regs + static_cast<std::size_t>(r)];
  };
  for (int w = 0; w < in.shape.warps; ++w) {
    std::array<std::uint32_t, kWarpLanes> d{};
    for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane) {
      const std::uint32_t bval = reg(w, lane, kShflB) & 0x1f, cval = reg(w, lane, kShflC) & 0x1f,
                          segmask = (reg(w, lane, kShflC) >> 8) & 0x1f;
      const std::uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
      const std::uint32_t minLane = lane & segmask;
      std::uint32_t j = minLane | (bval & ~segmask);
      const bool pval = j <= maxLane;
      if (!pval) j = lane;
      d[lane] = reg(w, j, kShflA);
    }
    for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane)
      s.regs[(static_cast<std::size_t>(w) * kWarpLanes + lane) * regs + kShflD] = d[shuffle ? (lane + 1) % kWarpLanes : lane];
  }
  return s;
}

const bool registered = add_kind_emulator({.kind = &shfl_kind(), .run = run_shfl_kernel, .mutants = {}});

}  // namespace
}  // namespace ptxcts::test

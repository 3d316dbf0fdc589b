// What one kernel launch consumes and produces, in the layout the device kernel uses:
// per warp a shared-memory tile; per step and thread a byte offset into the warp's tile;
// per thread `regs` 32-bit fragment registers. wmma kernels have two offset rows per step: the
// step's byte offset, then (in rows steps/2..) its stride in elements.
#pragma once

#include <cstdint>
#include <vector>

namespace ptxcts {

struct LaunchShape {
  int warps = 0, tile_bytes = 0, steps = 0, regs = 0;
  int threads() const { return warps * 32; }
};

struct LaunchState {
  std::vector<std::uint8_t> smem;   // warps * tile_bytes
  std::vector<std::uint32_t> regs;  // threads * regs
  bool operator==(const LaunchState&) const = default;
};

struct LaunchInput {
  LaunchShape shape;
  std::vector<std::uint32_t> offsets;  // steps * threads
  LaunchState state;
};

}  // namespace ptxcts

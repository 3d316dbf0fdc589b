// The manual's mma semantics over a warp's registers: the matrices the registers of an operand
// hold (through its layout; mma.sp's A through its metadata), D = A * B + C for each computation, and D's registers from D.
#pragma once

#include <cstdint>
#include <vector>

#include "kinds/mma/mma_info.hpp"
#include "model/launch.hpp"

namespace ptxcts {

// The matrices (one per computation) that a warp's registers hold for operand `o`; `warp` points at
// lane 0's words, `stride` words per thread.
std::vector<MatrixValues> mma_matrices(const MmaInfo& x, const MmaOperandInfo& o, const std::uint32_t* warp, int stride);
// A's matrices (m x k): the operand's, or for mma.sp its non-zero values placed by the metadata
// (kinds/mma/mma_sparse.hpp).
std::vector<MatrixValues> mma_a_matrices(const MmaInfo& x, const std::uint32_t* warp, int stride);
// Writes the matrices into the warp's registers of operand `o`.
void mma_place(const MmaOperandInfo& o, const std::vector<MatrixValues>& m, std::uint32_t* warp, int stride);

// What one mma does to a warp's registers: d from a, b and c (exposed for device emulators).
void mma_execute(const MmaInfo& x, std::uint32_t* warp, int stride);

// The registers the launch must end with: every warp's d computed, all else as it came in.
LaunchState mma_expected(const MmaInfo& x, const LaunchInput& in);

}  // namespace ptxcts

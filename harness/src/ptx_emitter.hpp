// Fills the kernel skeleton (kernels/warp_matrix.ptx.in) with a kernel plan's instructions.
#pragma once

#include <string>

#include "ptx_version.hpp"
#include "suite.hpp"

namespace ptxcts {

// Throws std::runtime_error if the skeleton lacks a field or has one this emitter does not know.
std::string emit_ptx(const std::string& skeleton, const KernelPlan& kernel, const std::string& target, PtxVersion ptx);

}  // namespace ptxcts

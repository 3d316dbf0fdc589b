// The observed wmma layout: for a single-instruction kernel with unique data, which matrix element
// each lane's fragment registers hold.
#pragma once

#include <string>

#include "model/launch.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// For single-instruction kernels with unique data: where each element of the matrix sits in the
// fragment registers (the same in every warp), one line per lane ("lane 0: r0.lo=(0,0) r0.hi=(0,1)
// ..."; sub-word elements as r0.0, r0.1, ...); "" when it cannot be told.
std::string observe_wmma_layout(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual);

}  // namespace ptxcts

// The wmma check: runs the model over a kernel's steps (what each load yields, wmma.mma computes and
// each store writes) and compares the device's result with it.
#pragma once

#include <cstddef>

#include "model/comparison.hpp"
#include "model/launch.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// Compares the device's result with the model. A store whose fragment came from outside the kernel
// (registers in) is checked by what it may write: each element of the matrix one of the fragment's
// values, every other byte untouched. Throws std::runtime_error if the model cannot say what
// the result must be.
Comparison check_wmma(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual,
                      std::size_t max_lines = 16);

}  // namespace ptxcts

// The wmma reference model: the inputs of one (wmma kernel, case), and what the manual says must
// come out. Fragments' register layouts are unspecified, so the model follows matrices, not
// registers: a load yields the matrix its layout and stride select, wmma.mma computes
// D = A * B + C exactly, and a store writes the matrix where its layout and stride say. A store
// whose fragment came from outside the kernel (registers in) is checked by what it may write: each
// element of the matrix one of the fragment's values, every other byte untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compare.hpp"
#include "launch.hpp"
#include "spec_model.hpp"
#include "suite.hpp"

namespace ptxcts {

// Throws std::runtime_error when the case cannot be laid out (a matrix larger than its region).
LaunchInput make_wmma_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& kernel);

// Compares the device's result with the model. Throws std::runtime_error if the model cannot say
// what the result must be.
Comparison check_wmma(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual, std::size_t max_lines = 16);

// For single-instruction kernels with unique 16-bit or wider elements: where each element of the
// matrix sits in warp 0's fragment registers, one line per lane
// ("lane 0: r0.lo=(0,0) r0.hi=(0,1) ..."); "" when it cannot be told.
std::string observe_wmma_layout(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual);

}  // namespace ptxcts

// One (kernel, case) as the host sees it, for either kind of kernel: its inputs, and the verdict
// on what the device gave back (ldmatrix/stmatrix/movmatrix through the layout model,
// wmma through wmma_model). The runner and the benchmarks go through here.
#pragma once

#include <vector>

#include "model/compare.hpp"
#include "model/launch.hpp"
#include "model/reference_model.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// `steps`: the kernel's model steps (kernel.model_steps(); empty for wmma kernels).
// Throws std::runtime_error when the case cannot be laid out for the kernel.
LaunchInput case_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& kernel, const std::vector<ModelStep>& steps);

// Throws std::runtime_error when the reference model cannot say what the result must be.
Comparison check_case(const KernelPlan& kernel, const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& actual);

}  // namespace ptxcts

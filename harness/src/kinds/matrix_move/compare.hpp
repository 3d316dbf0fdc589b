// The matrix-move kind's comparison: what the device produced against the reference model's
// expectation, every difference described the way a kernel engineer reads it: warp, lane, register, element, matrix
// position.
#pragma once

#include <string>
#include <vector>

#include "kinds/matrix_move/reference_model.hpp"
#include "model/comparison.hpp"
#include "model/launch.hpp"

namespace ptxcts {

Comparison compare_states(const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& expected,
                          const LaunchState& actual, std::size_t max_lines = 16);

}  // namespace ptxcts

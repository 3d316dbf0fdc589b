// The matrix-move kind's reference model: what ldmatrix, stmatrix and movmatrix must do, computed from the spec's
// formulas alone (via Layout). Independent of the device and of the emitted PTX.
#pragma once

#include <vector>

#include "model/launch.hpp"
#include "spec/layout.hpp"

namespace ptxcts {

struct ModelStep {
  const Instance* instance;
  Layout layout;
};

// Applies the steps in order to `input.state` and returns the expected final state.
// Throws std::runtime_error if an address the model needs lies outside the warp's tile.
LaunchState expected_state(const std::vector<ModelStep>& steps, const LaunchInput& input);

}  // namespace ptxcts

// Compares what the device produced with the reference model's expectation and describes every
// difference the way a kernel engineer reads it: warp, lane, register, element, matrix position.
#pragma once

#include <string>
#include <vector>

#include "model/launch.hpp"
#include "model/reference_model.hpp"

namespace ptxcts {

struct Comparison {
  int mismatches = 0;
  std::vector<std::string> diff;  // the first `max_lines` differences
};

Comparison compare_states(const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& expected,
                          const LaunchState& actual, std::size_t max_lines = 16);

}  // namespace ptxcts

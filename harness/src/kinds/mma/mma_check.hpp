// The mma check: every register of every lane against the manual's semantics. A wrong element of d
// is named as a kernel engineer reads it (warp, lane, element, register, row and column), with the
// place whose value it holds where that identifies it; a, b and c must come back as they went in.
#pragma once

#include <cstddef>

#include "kinds/mma/mma_info.hpp"
#include "model/comparison.hpp"
#include "model/launch.hpp"

namespace ptxcts {

Comparison check_mma(const MmaInfo& x, const LaunchInput& input, const LaunchState& actual, std::size_t max_lines = 16);

}  // namespace ptxcts

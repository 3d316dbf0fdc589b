// An mma case's inputs: per warp, values every operand type holds exactly, chosen so that every
// product and sum is exact in the result type (so the check can demand bit-exact results): random,
// or unique (each element's position spelled in those values, one digit per warp, so that any two
// elements differ in some warp); d's registers poisoned, so that a device that writes nothing is seen.
#pragma once

#include "kinds/mma/mma_info.hpp"
#include "model/launch.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

inline constexpr std::uint32_t kMmaPoison = 0xDEADBEEFu;

LaunchInput make_mma_input(const CaseSet& set, const CaseSpec& c, const MmaInfo& x);

}  // namespace ptxcts

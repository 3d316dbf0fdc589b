// A wmma case's inputs: where each step's matrix sits in a warp's tile and at what stride, and the
// values the tiles and fragment registers start with (random, unique, poison, index digits).
#pragma once

#include <vector>

#include "kinds/wmma/wmma_kernel.hpp"
#include "model/launch.hpp"
#include "plan/suite.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// First 32-bit word of each of the kernel's fragments in a thread's registers (.b32 ones, then .b64).
std::vector<int> wmma_fragment_words(const KernelPlan& k);

// Throws std::runtime_error when the case cannot be laid out (a matrix larger than its region).
LaunchInput make_wmma_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& kernel);

}  // namespace ptxcts

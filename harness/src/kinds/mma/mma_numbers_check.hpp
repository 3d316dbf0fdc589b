// A numbers case (kinds/mma/mma_numbers.hpp) on the device: its launch input (the design's A, B and
// C in every warp, mma.sp's metadata e from the design's fields, d poisoned) and its check: a, b, c
// (and e) unchanged; each element of d judged as its
// expectation says (the exact bits, a member of the range, or anything); and, for the elements whose
// value the documents leave to the GPU, what it returned, in words (CaseOutcome::observed: per group,
// how many elements of warp 0 gave each member, with one example's bits).
#pragma once

#include "kinds/mma/mma_numbers.hpp"
#include "model/comparison.hpp"
#include "model/launch.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

LaunchInput make_numbers_input(const CaseSet& set, const MmaInfo& x, const NumbersDesign& design);
CaseOutcome check_numbers(const MmaInfo& x, const NumbersDesign& design, const LaunchInput& input,
                          const LaunchState& actual, std::size_t max_lines = 16);

}  // namespace ptxcts

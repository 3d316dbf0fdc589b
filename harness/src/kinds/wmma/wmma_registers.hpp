// Internal to the wmma model (the check and the observed layout): what a warp's fragment registers
// hold, element by element, and the signatures (values across the warps) that tell elements apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/launch.hpp"
#include "plan/suite.hpp"
#include "spec/element_format.hpp"

namespace ptxcts {

// The values of a warp's fragment registers, as elements of `f`, lane by lane.
std::vector<std::uint64_t> register_elements(const LaunchState& s, const LaunchShape& shape, int warp, int first_word,
                                             int words, const ElementFormat& f);

// A single-instruction kernel's matrix and fragment, seen across the warps: each register slot's
// values in warps 0, 1, ... (its signature), and which matrix elements have each signature. Unique
// data (and, for narrow elements, index digits) makes every element's signature its own.
struct Signatures {
  std::vector<std::vector<std::uint64_t>> slot;                                    // [lane * per_lane + e][warp]
  std::map<std::vector<std::uint64_t>, std::vector<std::pair<int, int>>> element;  // signature -> (row, col)
  std::size_t per_lane = 0;
};

// The signatures of a single-instruction kernel's register slots (registers from `regs_from`) and
// of its matrix's elements (the matrix loaded from `mem_from`'s tiles).
Signatures signatures(const KernelPlan& k, const LaunchInput& in, const LaunchState& regs_from,
                      const LaunchState& mem_from);

// A register slot's name: r0, r0.lo / r0.hi, or r0.0, r0.1, ... for sub-word elements.
std::string slot_name(const ElementFormat& f, std::size_t e);

}  // namespace ptxcts

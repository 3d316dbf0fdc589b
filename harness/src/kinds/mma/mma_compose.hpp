// Kernels that compose mma with the instructions the documents say feed and drain it, for the
// composition claims (specs/mma.yaml): ldmatrix loading A and B from shared memory into mma's
// fragments, stmatrix storing mma's D, movmatrix transposing a block of D. The expected result
// comes from the matrices alone (the tile's rows are the operand's rows), never from the loading
// or storing instruction's own spec, so the kernel checks the composition the documents promise.
#pragma once

#include <deque>
#include <vector>

#include "kinds/mma/mma_emitter.hpp"
#include "kinds/mma/mma_info.hpp"
#include "model/comparison.hpp"
#include "model/launch.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

class InstructionKind;

// One kernel per composition claim, its steps the claim's instructions in order.
std::vector<KernelPlan> plan_mma_compositions(const InstructionKind& kind, const std::deque<Instance>& instances,
                                              const SpecSet& specs);
bool is_composition(const KernelPlan& k);
const Instance& mma_step(const KernelPlan& k);  // the kernel's mma
int compose_extra_words(const KernelPlan& k);   // words past the mma's (movmatrix's result)
// The composition's instructions with their operands and addresses.
void compose_instructions(const KernelPlan& k, const MmaInfo& x, MmaProgram& prog);

LaunchInput make_compose_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& k, const MmaInfo& x);
// What the kernel must leave: registers and tiles.
LaunchState compose_expected(const KernelPlan& k, const MmaInfo& x, const LaunchInput& in);
Comparison check_compose(const KernelPlan& k, const MmaInfo& x, const LaunchInput& in, const LaunchState& actual,
                         std::size_t max_lines = 16);

}  // namespace ptxcts

// The wmma kernels of the suite, planned from the wmma instances:
//   - one kernel per wmma.load / wmma.store instance: what the audit judges, and what shows the
//     fragments' register layout (unique values in, registers out, or the reverse for stores);
//   - round trips: per accumulator type, shape, state space and stride operand, wmma.load.c in both
//     layouts, each stored back with wmma.store.d in both layouts (every layout pair);
//   - products: per wmma.mma instance, A, B and C loaded (layouts as the mma says, the stride
//     operand given, state spaces taken in turn), D = A * B + C, D stored.
#pragma once

#include <deque>
#include <vector>

#include "kinds/wmma/wmma_kernel.hpp"
#include "plan/suite.hpp"
#include "spec/instance.hpp"

namespace ptxcts {

class InstructionKind;

std::vector<KernelPlan> plan_wmma_kernels(const InstructionKind& kind, const std::deque<Instance>& instances,
                                          const SpecSet& specs);

// Whether a wmma case applies to a wmma kernel.
bool wmma_takes(const KernelPlan& kernel, const CaseSpec& c);

}  // namespace ptxcts

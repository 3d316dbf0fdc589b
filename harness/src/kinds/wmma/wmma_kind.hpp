// The wmma kind: wmma.load, wmma.store and wmma.mma, whose fragments' register layouts the manual
// leaves unspecified, so the model follows matrices: wmma_info (what an instance's qualifiers
// mean), wmma_planner (single instructions, round trips, products), wmma_emitter
// (kernels/wmma.ptx.in), wmma_case_data (inputs), wmma_semantics (loads, stores, D = A * B + C),
// wmma_check (the check), wmma_observe (the observed layout), wmma_registers (shared by the last two).
// May call: spec/, plan/, emit/, model/.
#pragma once

#include "kinds/instruction_kind.hpp"

namespace ptxcts {

const InstructionKind& wmma_kind();

}  // namespace ptxcts

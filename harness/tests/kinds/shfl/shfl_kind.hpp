// The shfl test kind: shfl.sync.idx.b32, a warp-level data movement instruction (PTX ISA 9.0,
// 9.7.9.6 Data Movement and Conversion Instructions: shfl.sync), added to the suite from this room
// alone to show what adding a kind costs (README.md). It implements kinds/instruction_kind.hpp and
// registers itself with the kind list of the programs this room is linked into (the tests' own,
// never the product's).
#pragma once

#include <cstdint>

#include "kinds/instruction_kind.hpp"

namespace ptxcts {

// The kernel's registers per thread, in the instruction's operand order (shfl.ptx.in's %frag0..3).
inline constexpr int kShflD = 0, kShflA = 1, kShflB = 2, kShflC = 3, kShflRegisters = 4;

const InstructionKind& shfl_kind();

}  // namespace ptxcts

// The mma kind: mma.sync, whose fragments the manual lays out lane by lane (9.7.14.5.1-13). One
// kernel per instance; every register of every lane is checked against the formulas.
#pragma once

#include "kinds/instruction_kind.hpp"

namespace ptxcts {

const InstructionKind& mma_kind();

}  // namespace ptxcts

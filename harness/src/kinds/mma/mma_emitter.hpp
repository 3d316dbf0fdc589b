// Fills the mma kernel skeleton (kernels/mma.ptx.in): the registers in (a, b, c, d, mma.sp's
// metadata e, then any a composition adds), one shared-memory address per step that has one, the instructions with their
// operands, every register and the tiles out.
#pragma once

#include <string>
#include <vector>

#include "kinds/mma/mma_info.hpp"
#include "plan/suite.hpp"
#include "spec/ptx_version.hpp"

namespace ptxcts {

inline constexpr const char* kMmaSkeleton = "mma.ptx.in";

struct MmaProgram {
  int regs32 = 0, regs64 = 0, words = 0;  // per thread
  std::vector<std::string> instructions;  // operands filled in
  std::vector<bool> addressed;            // per step: takes a shared-memory address
  std::string load, store;                // the register moves in and out
  std::string before, after;              // a lanes shape's code around the instructions ("": none)
  std::string predicate;                  // a lanes shape's guard of each instruction ("@%p0 ": lanes 0 to 15)
  std::string instruction_text() const;   // joined by " ; "
};

// The registers of the mma's operands: "{%w0, %w1}" for a, and so on.
std::string mma_operand_list(const MmaInfo& x, const MmaOperandInfo& o);
// The mma instruction with its operands.
std::string mma_instruction(const Instance& inst, const MmaInfo& x);

// A plain mma kernel, or a composition's (kinds/mma/mma_compose.hpp).
MmaProgram mma_program(const KernelPlan& kernel);

// Throws std::runtime_error for a skeleton without a field this emitter fills.
std::string emit_mma_ptx(const std::string& skeleton, const std::string& kernel_name, const MmaProgram& program,
                         const std::string& target, PtxVersion ptx);

}  // namespace ptxcts

// Fills the wmma kernel skeleton (kernels/wmma.ptx.in): fragment registers, one address and one
// stride per step, and the wmma instructions with their operands.
#pragma once

#include <string>
#include <vector>

#include "kinds/wmma/wmma_kernel.hpp"
#include "plan/suite.hpp"
#include "spec/ptx_version.hpp"

namespace ptxcts {

inline constexpr const char* kWmmaSkeleton = "wmma.ptx.in";

struct WmmaProgram {
  std::string memory = "shared";          // where the tiles live: shared or global
  int regs32 = 0, regs64 = 0;             // fragment registers per thread
  std::vector<std::string> instructions;  // operands filled in
  std::vector<std::string> spaces;        // per step: shared, global, generic, or "" (no address: mma)
  LanesCode around;                       // a lanes shape's code around the instructions (empty: none)
  std::string instruction_text() const;   // joined by " ; "
};

WmmaProgram wmma_program(const KernelPlan& kernel);

// Throws std::runtime_error for a skeleton without a field this emitter fills, or a state space
// the kernel's memory cannot serve.
std::string emit_wmma_ptx(const std::string& skeleton, const std::string& kernel_name, const WmmaProgram& program,
                          const std::string& target, PtxVersion ptx);

}  // namespace ptxcts

// The matrix-move kind's emitter: fills kernels/warp_matrix.ptx.in with the ldmatrix, stmatrix or
// movmatrix instruction(s) of a kernel, each reading its row address from the case's offsets.
#pragma once

#include <string>
#include <vector>

#include "kinds/lanes_shape.hpp"
#include "plan/suite.hpp"
#include "spec/ptx_version.hpp"

namespace ptxcts {

inline constexpr const char* kMatrixMoveSkeleton = "warp_matrix.ptx.in";

// One instruction under test, with operands in the skeleton's registers: the fragment
// registers %frag0.. and the address register of its step.
struct EmitStep {
  std::string instruction;
  int registers = 1;
  int address_width = 64;  // 0: no address (a move)
  std::string space = "shared";
};

std::vector<EmitStep> emit_steps(const KernelPlan& kernel);

// The code around the instruction of a lanes shape's kernel (matrix_move_cases.hpp; the other form
// with the same operands as the instruction); empty for every other kernel.
LanesCode matrix_move_lanes_code(const KernelPlan& kernel);

// Throws std::runtime_error if the skeleton lacks a field or has one this emitter does not know.
// `around`: a lanes shape's code before, guarding and after the instructions.
std::string emit_ptx(const std::string& skeleton, const std::string& kernel_name, const std::vector<EmitStep>& steps,
                     const std::string& target, PtxVersion ptx, const LanesCode& around = {});
inline std::string emit_ptx(const std::string& skeleton, const KernelPlan& kernel, const std::string& target,
                            PtxVersion ptx) {
  return emit_ptx(skeleton, kernel.name, emit_steps(kernel), target, ptx, matrix_move_lanes_code(kernel));
}

// The instruction text(s) of a kernel as emitted, joined by " ; ".
std::string instruction_text(const std::vector<EmitStep>& steps);

}  // namespace ptxcts

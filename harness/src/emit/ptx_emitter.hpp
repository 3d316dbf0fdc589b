// Fills the kernel skeleton (kernels/warp_matrix.ptx.in) with the instruction(s) under test.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "spec/ptx_version.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// One instruction under test, with operands in the skeleton's registers: the fragment
// registers %frag0.. and the address register of its step.
struct EmitStep {
  std::string instruction;
  int registers = 1;
  int address_width = 64;    // 0: no address (a move)
  std::string space = "shared";
};

std::vector<EmitStep> emit_steps(const KernelPlan& kernel);
EmitStep emit_step(const AuditForm& form);

// Throws std::runtime_error if the skeleton lacks a field or has one this emitter does not know.
std::string emit_ptx(const std::string& skeleton, const std::string& kernel_name, const std::vector<EmitStep>& steps,
                     const std::string& target, PtxVersion ptx);
inline std::string emit_ptx(const std::string& skeleton, const KernelPlan& kernel, const std::string& target, PtxVersion ptx) {
  return emit_ptx(skeleton, kernel.name, emit_steps(kernel), target, ptx);
}

// The instruction text(s) of a kernel as emitted, joined by " ; ".
std::string instruction_text(const std::vector<EmitStep>& steps);

// Replaces every {{FIELD}} of a skeleton. Throws std::runtime_error if the skeleton lacks a field
// or has one not in `fields`.
std::string fill_skeleton(const std::string& skeleton, const std::map<std::string, std::string>& fields);

// The operand placeholders of an instruction's text ({regs}, {addr}, ...), shared by both emitters:
// every occurrence of `field` in `text` becomes `value`.
void fill_placeholder(std::string& text, const std::string& field, const std::string& value);
// A vector operand of numbered registers: "{%<prefix><first>, %<prefix><first + 1>, ...}".
std::string register_list(const std::string& prefix, int first, int count);

// The skeletons of kernels/: warp_matrix.ptx.in (ldmatrix, stmatrix, movmatrix) and wmma.ptx.in.
struct KernelSkeletons {
  std::string matrix, wmma;
};

// A kernel or an audit form, emitted with the skeleton of its kind; and its instruction text(s).
std::string emit_kernel_ptx(const KernelSkeletons& skeletons, const KernelPlan& kernel, const std::string& target, PtxVersion ptx);
std::string emit_form_ptx(const KernelSkeletons& skeletons, const AuditForm& form, const std::string& target, PtxVersion ptx);
std::string kernel_instruction_text(const KernelPlan& kernel);
std::string form_instruction_text(const AuditForm& form);

}  // namespace ptxcts

#include "kinds/matrix_move/matrix_move_emitter.hpp"

#include "emit/skeleton.hpp"
#include "kinds/matrix_move/matrix_move_cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace ptxcts {
namespace {

std::string address_register(int width, int step) { return width ? fmt::format("%addr{}_{}", width, step) : ""; }

// Per step: read this thread's offset, add the tile address, widen or convert as the form needs.
std::string address_code(const EmitStep& st, int step) {
  if (st.address_width == 0) return "";
  std::string code = fmt::format(
      "    ld.global.u32       %t10, [%q5];\n"
      "    add.u64             %q5, %q5, %q7;\n"
      "    add.u32             %addr32_{0}, %t9, %t10;\n",
      step);
  if (st.space == "generic") {
    code += fmt::format(
        "    cvt.u64.u32         %addr64_{0}, %addr32_{0};\n"
        "    cvta.shared.u64     %addr64_{0}, %addr64_{0};   // generic address of the row\n",
        step);
    if (st.address_width == 32) code += fmt::format("    cvt.u32.u64         %addr32_{0}, %addr64_{0};\n", step);
  } else if (st.address_width == 64) {
    code += fmt::format("    cvt.u64.u32         %addr64_{0}, %addr32_{0};\n", step);
  }
  return code;
}

// Operands for {regs}/{addr} (or, for a move, {dst}/{src}: both the first fragment register).
std::string fill_operands(std::string text, int registers, int width, int step) {
  fill_placeholder(text, "{regs}", register_list("frag", 0, registers));
  fill_placeholder(text, "{addr}", address_register(width, step));
  fill_placeholder(text, "{dst}", "%frag0");
  fill_placeholder(text, "{src}", "%frag0");
  return text;
}

}  // namespace

std::vector<EmitStep> emit_steps(const KernelPlan& kernel) {
  std::vector<EmitStep> out;
  for (std::size_t k = 0; k < kernel.steps.size(); ++k) {
    const Instance& inst = *kernel.steps[k];
    const int step = static_cast<int>(k);
    out.push_back({.instruction = fill_operands(inst.text(), inst.registers(), inst.address_width(), step),
                   .registers = inst.registers(),
                   .address_width = inst.address_width(),
                   .space = inst.space()});
  }
  return out;
}

LanesCode matrix_move_lanes_code(const KernelPlan& kernel) {
  const MatrixMoveLanesKernel* shape = matrix_move_lanes_kernel(kernel);
  if (!shape) return {};
  std::string other;
  if (shape->other) {
    const Instance& inst = *shape->other;
    if (inst.registers() != kernel.steps.front()->registers())
      throw std::runtime_error("the other form " + inst.id() + " takes other registers than " + kernel.name);
    other = fill_operands(inst.text(), inst.registers(), inst.address_width(), 0);
  }
  return lanes_code(shape->lanes, "%t10", other);
}

std::string instruction_text(const std::vector<EmitStep>& steps) {
  std::string out;
  for (auto const& s : steps) out += (out.empty() ? "" : " ; ") + s.instruction;
  return out;
}

std::string emit_ptx(const std::string& skeleton, const std::string& kernel_name, const std::vector<EmitStep>& steps,
                     const std::string& target, PtxVersion ptx, const LanesCode& around) {
  int regs = 0;
  for (auto const& s : steps) regs = std::max(regs, s.registers);
  std::string load, store, addresses, body;
  for (int r = 0; r < regs; ++r) {
    load += fmt::format("    ld.global.u32       %frag{0}, [%q3+{1}];\n", r, 4 * r);
    store += fmt::format("    st.global.u32       [%q8+{1}], %frag{0};\n", r, 4 * r);
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    addresses += address_code(steps[k], static_cast<int>(k));
    body += "    " + around.predicate + steps[k].instruction + "\n";
  }
  body = around.before + body + around.after;
  return fill_skeleton(skeleton, {
                                     {"KERNEL_NAME", kernel_name},
                                     {"PTX_VERSION", ptx.str()},
                                     {"TARGET", target},
                                     {"REGS", std::to_string(regs)},
                                     {"REGS_BYTES", std::to_string(4 * regs)},
                                     {"STEPS", std::to_string(steps.size())},
                                     {"LOAD_FRAGMENT", load},
                                     {"STORE_FRAGMENT", store},
                                     {"ADDRESSES", addresses},
                                     {"BODY", body},
                                 });
}

}  // namespace ptxcts

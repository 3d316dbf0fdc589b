#include "emit/ptx_emitter.hpp"

#include "kinds/wmma/wmma_emitter.hpp"

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
      "    add.u32             %addr32_{0}, %t9, %t10;\n", step);
  if (st.space == "generic") {
    code += fmt::format(
        "    cvt.u64.u32         %addr64_{0}, %addr32_{0};\n"
        "    cvta.shared.u64     %addr64_{0}, %addr64_{0};   // generic address of the row\n", step);
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

void fill_placeholder(std::string& text, const std::string& field, const std::string& value) {
  for (std::size_t p; (p = text.find(field)) != std::string::npos;) text.replace(p, field.size(), value);
}

std::string register_list(const std::string& prefix, int first, int count) {
  std::string out = "{";
  for (int r = 0; r < count; ++r) out += fmt::format("{}%{}{}", r ? ", " : "", prefix, first + r);
  return out + "}";
}

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

EmitStep emit_step(const AuditForm& form) {
  std::string space = form.text.find(".shared") != std::string::npos ? "shared" : "generic";
  bool move = form.text.find("{src}") != std::string::npos;
  int width = move ? 0 : form.address_width;
  return {.instruction = fill_operands(form.text, form.registers, width, 0),
          .registers = form.registers,
          .address_width = width,
          .space = space};
}

std::string instruction_text(const std::vector<EmitStep>& steps) {
  std::string out;
  for (auto const& s : steps) out += (out.empty() ? "" : " ; ") + s.instruction;
  return out;
}

std::string emit_ptx(const std::string& skeleton, const std::string& kernel_name, const std::vector<EmitStep>& steps,
                     const std::string& target, PtxVersion ptx) {
  int regs = 0;
  for (auto const& s : steps) regs = std::max(regs, s.registers);
  std::string load, store, addresses, body;
  for (int r = 0; r < regs; ++r) {
    load += fmt::format("    ld.global.u32       %frag{0}, [%q3+{1}];\n", r, 4 * r);
    store += fmt::format("    st.global.u32       [%q8+{1}], %frag{0};\n", r, 4 * r);
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    addresses += address_code(steps[k], static_cast<int>(k));
    body += "    " + steps[k].instruction + "\n";
  }
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

std::string fill_skeleton(const std::string& skeleton, const std::map<std::string, std::string>& fields) {
  std::string out;
  std::size_t pos = 0;
  std::set<std::string> used;
  while (pos < skeleton.size()) {
    std::size_t open = skeleton.find("{{", pos);
    if (open == std::string::npos) { out.append(skeleton, pos); break; }
    std::size_t close = skeleton.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("kernel skeleton: unclosed '{{'");
    std::string name = skeleton.substr(open + 2, close - open - 2);
    auto it = fields.find(name);
    if (it == fields.end()) throw std::runtime_error(fmt::format("kernel skeleton: unknown field {{{{{}}}}}", name));
    out.append(skeleton, pos, open - pos);
    // Multi-line fields end in a newline; the skeleton puts each on its own line.
    std::string value = it->second;
    if (!value.empty() && value.back() == '\n' && close + 2 < skeleton.size() && skeleton[close + 2] == '\n') value.pop_back();
    out += value;
    used.insert(name);
    pos = close + 2;
  }
  for (auto const& [name, value] : fields)
    if (!used.count(name)) throw std::runtime_error(fmt::format("kernel skeleton: field {{{{{}}}}} is missing", name));
  return out;
}

std::string emit_kernel_ptx(const KernelSkeletons& sk, const KernelPlan& kernel, const std::string& target, PtxVersion ptx) {
  if (kernel.is_wmma()) return emit_wmma_ptx(sk.wmma, kernel.name, wmma_program(kernel), target, ptx);
  return emit_ptx(sk.matrix, kernel, target, ptx);
}

std::string emit_form_ptx(const KernelSkeletons& sk, const AuditForm& form, const std::string& target, PtxVersion ptx) {
  if (form.text.rfind("wmma.", 0) == 0) return emit_wmma_ptx(sk.wmma, file_safe(form.name), wmma_program(form), target, ptx);
  return emit_ptx(sk.matrix, file_safe(form.name), {emit_step(form)}, target, ptx);
}

std::string kernel_instruction_text(const KernelPlan& kernel) {
  if (kernel.is_wmma()) return wmma_program(kernel).instruction_text();
  return instruction_text(emit_steps(kernel));
}

std::string form_instruction_text(const AuditForm& form) {
  if (form.text.rfind("wmma.", 0) == 0) return wmma_program(form).instruction_text();
  return instruction_text({emit_step(form)});
}

}  // namespace ptxcts

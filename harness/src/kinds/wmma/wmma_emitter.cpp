#include "kinds/wmma/wmma_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "emit/skeleton.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_spec.hpp"

namespace ptxcts {
namespace {

struct RegisterRun {
  int first = 0, count = 0;
  bool wide = false;
  std::string list() const { return register_list(wide ? "x" : "w", first, count); }
};

// Registers for each fragment, .b32 and .b64 numbered separately.
std::vector<RegisterRun> allocate(const std::vector<WmmaFragment>& fragments, WmmaProgram& prog) {
  std::vector<RegisterRun> out;
  for (auto const& f : fragments) {
    int& next = f.wide ? prog.regs64 : prog.regs32;
    out.push_back({.first = next, .count = f.registers, .wide = f.wide});
    next += f.registers;
  }
  return out;
}

std::string fill(std::string text, const std::vector<RegisterRun>& runs, int step) {
  if (text.find("{d}") != std::string::npos) {
    if (runs.size() != 4) throw std::logic_error("wmma.mma needs four fragments");
    fill_placeholder(text, "{d}", runs[0].list());
    fill_placeholder(text, "{a}", runs[1].list());
    fill_placeholder(text, "{b}", runs[2].list());
    fill_placeholder(text, "{c}", runs[3].list());
  } else {
    fill_placeholder(text, "{regs}", runs.at(0).list());
    fill_placeholder(text, "{addr}", fmt::format("%addr{}", step));
    fill_placeholder(text, "{stride}", fmt::format("%stride{}", step));
  }
  return text;
}

std::string address_code(const std::string& memory, const std::string& space, int k) {
  std::string code =
      "    ld.global.u32       %t10, [%q5];\n"
      "    add.u64             %q5, %q5, %q7;\n";
  if (space.empty()) return code;  // wmma.mma: no address, but its row of offsets is there
  code += "    add.u32             %t10, %t10, %t9;\n";
  if (memory == "shared") {
    if (space == "global") throw std::runtime_error("a .global form cannot address tiles in shared memory");
    code += fmt::format("    add.u32             %t11, %t4, %t10;\n    cvt.u64.u32         %addr{0}, %t11;\n", k);
    if (space == "generic")
      code += fmt::format("    cvta.shared.u64     %addr{0}, %addr{0};   // generic address in shared memory\n", k);
  } else {
    if (space == "shared") throw std::runtime_error("a .shared form cannot address tiles in global memory");
    code += fmt::format("    cvt.u64.u32         %q11, %t10;\n    add.u64             %addr{0}, {1}, %q11;\n", k,
                        space == "global" ? "%q9" : "%q10");
  }
  return code;
}

}  // namespace

std::string WmmaProgram::instruction_text() const {
  std::string out;
  for (auto const& s : instructions) out += (out.empty() ? "" : " ; ") + s;
  return out;
}

WmmaProgram wmma_program(const KernelPlan& kernel) {
  WmmaProgram prog;
  prog.memory = wmma_kernel(kernel).memory;
  std::vector<RegisterRun> runs = allocate(wmma_kernel(kernel).fragments, prog);
  for (std::size_t k = 0; k < kernel.steps.size(); ++k) {
    std::vector<RegisterRun> mine;
    for (int f : wmma_kernel(kernel).bindings[k].fragments) mine.push_back(runs.at(static_cast<std::size_t>(f)));
    const Instance& inst = *kernel.steps[k];
    prog.spaces.push_back(inst.variant().semantics_as<WmmaMma>() ? "" : inst.space());
    prog.instructions.push_back(fill(inst.text(), mine, static_cast<int>(k)));
    // a lanes shape's other form: the same fragment, address and stride as the instruction
    if (const Instance* other = wmma_kernel(kernel).other) {
      if (wmma_matrix_info(*other).registers != wmma_matrix_info(inst).registers)
        throw std::runtime_error("the other form " + other->id() + " takes other registers than " + kernel.name);
      prog.around = lanes_code(wmma_kernel(kernel).lanes, "%t10", fill(other->text(), mine, static_cast<int>(k)));
    }
  }
  if (!wmma_kernel(kernel).other) prog.around = lanes_code(wmma_kernel(kernel).lanes, "%t10");
  return prog;
}

std::string emit_wmma_ptx(const std::string& skeleton, const std::string& kernel_name, const WmmaProgram& prog,
                          const std::string& target, PtxVersion ptx) {
  const int words = prog.regs32 + 2 * prog.regs64;
  std::string load, store, addresses, body, strides;
  for (int r = 0; r < prog.regs32; ++r) {
    load += fmt::format("    ld.global.u32       %w{0}, [%q3+{1}];\n", r, 4 * r);
    store += fmt::format("    st.global.u32       [%q8+{1}], %w{0};\n", r, 4 * r);
  }
  for (int r = 0; r < prog.regs64; ++r) {
    const int at = 4 * (prog.regs32 + 2 * r);
    load += fmt::format(
        "    ld.global.u32       %t10, [%q3+{1}];\n    ld.global.u32       %t11, [%q3+{2}];\n    mov.b64             "
        "%x{0}, {{%t10, %t11}};\n",
        r, at, at + 4);
    store += fmt::format(
        "    mov.b64             {{%t10, %t11}}, %x{0};\n    st.global.u32       [%q8+{1}], %t10;\n    st.global.u32   "
        "    [%q8+{2}], %t11;\n",
        r, at, at + 4);
  }
  for (std::size_t k = 0; k < prog.instructions.size(); ++k) {
    addresses += address_code(prog.memory, prog.spaces[k], static_cast<int>(k));
    strides += fmt::format("    ld.global.u32       %stride{0}, [%q5];\n    add.u64             %q5, %q5, %q7;\n", k);
    body += "    " + prog.around.predicate + prog.instructions[k] + "\n";
  }
  body = prog.around.before + body + prog.around.after;
  const bool shared = prog.memory == "shared";
  const std::string copy_in = shared ? "    add.u32             %t7, %t4, %t5;\n    st.shared.u32       [%t7], %t6;\n"
                                     : "    add.u64             %q2, %q9, %q1;\n    st.global.u32       [%q2], %t6;\n";
  const std::string copy_out = shared ? "    shl.b32             %t5, %t0, 2;\n"
                                        "COPY_OUT:\n"
                                        "    setp.ge.u32         %p1, %t5, %t3;\n"
                                        "    @%p1 bra            COPY_OUT_DONE;\n"
                                        "    add.u32             %t7, %t4, %t5;\n"
                                        "    ld.shared.u32       %t6, [%t7];\n"
                                        "    cvt.u64.u32         %q1, %t5;\n"
                                        "    add.u64             %q2, %q9, %q1;\n"
                                        "    st.global.u32       [%q2], %t6;\n"
                                        "    add.u32             %t5, %t5, %t8;\n"
                                        "    bra                 COPY_OUT;\n"
                                        "COPY_OUT_DONE:\n"
                                      : "    // the tiles are in global memory already\n";
  return fill_skeleton(skeleton, {
                                     {"KERNEL_NAME", kernel_name},
                                     {"PTX_VERSION", ptx.str()},
                                     {"TARGET", target},
                                     {"MEMORY", prog.memory},
                                     {"REGS32", std::to_string(std::max(1, prog.regs32))},
                                     {"REGS64", std::to_string(std::max(1, prog.regs64))},
                                     {"STEPS", std::to_string(std::max<std::size_t>(1, prog.instructions.size()))},
                                     {"REGS_BYTES", std::to_string(4 * std::max(1, words))},
                                     {"COPY_IN_STORE", copy_in},
                                     {"LOAD_FRAGMENTS", load},
                                     {"ADDRESSES", addresses + strides},
                                     {"BODY", body},
                                     {"STORE_FRAGMENTS", store},
                                     {"COPY_OUT", copy_out},
                                 });
}

}  // namespace ptxcts

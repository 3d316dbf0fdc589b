#include "kinds/mma/mma_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "emit/skeleton.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_compose.hpp"

namespace ptxcts {
namespace {

// .b32 registers %w and .b64 registers %x are numbered apart, in operand order a, b, c, d.
int first_register(const MmaInfo& x, const MmaOperandInfo& o) {
  int first = 0;
  for (const MmaOperandInfo* p : {&x.a, &x.b, &x.c, &x.d}) {
    if (p == &o) break;
    if (p->wide == o.wide) first += p->registers;
  }
  return first;
}

// mma.sp's metadata e: the .b32 register after d's.
int e_register(const MmaInfo& x) {
  int first = 0;
  for (const MmaOperandInfo* p : {&x.a, &x.b, &x.c, &x.d})
    if (!p->wide) first += p->registers;
  return first;
}

// Moves in and out of the words of one register (two words for .b64, low word first).
void move_register(MmaProgram& prog, bool wide, int reg, int word) {
  const int at = 4 * word;
  if (!wide) {
    prog.load += fmt::format("    ld.global.u32       %w{0}, [%q3+{1}];\n", reg, at);
    prog.store += fmt::format("    st.global.u32       [%q8+{1}], %w{0};\n", reg, at);
    return;
  }
  // two word loads: a thread's words are 4-byte aligned only
  prog.load += fmt::format(
      "    ld.global.u32       %t10, [%q3+{1}];\n    ld.global.u32       %t11, [%q3+{2}];\n"
      "    mov.b64             %x{0}, {{%t10, %t11}};\n",
      reg, at, at + 4);
  prog.store += fmt::format(
      "    mov.b64             {{%t10, %t11}}, %x{0};\n    st.global.u32       [%q8+{1}], %t10;\n"
      "    st.global.u32       [%q8+{2}], %t11;\n",
      reg, at, at + 4);
}

// The operands after c that a form adds (.block_scale's scale-a-data, {byte-id-a, thread-id-a},
// ...): a one-register operand gets a .b32 register of its own, zero; a vector whose elements the
// documents also write as immediates gets zeros ("{0, 0}", as the manual's examples write them).
// Such a form's result is not checked (MmaSpec::why_unchecked), so the values only need to assemble.
void fill_extra_operands(MmaProgram& prog, std::string& text, const Variant& v) {
  for (auto const& o : v.operands) {
    std::string value;
    if (o.single() && o.type == ".b32") {
      value = fmt::format("%w{}", prog.regs32++);
      prog.load += fmt::format("    mov.b32             {}, 0;\n", value);
    } else if (!o.single() && o.immediates) {
      value = "{";
      for (int e = 0; e < o.elements; ++e) value += e ? ", 0" : "0";
      value += "}";
    } else {
      throw std::runtime_error(fmt::format("{}: the mma kernel cannot write operand {{{}}} ({} {})", v.name, o.name,
                                           o.single() ? "one" : std::to_string(o.elements), o.type));
    }
    fill_placeholder(text, "{" + o.name + "}", value);
  }
}

}  // namespace

std::string MmaProgram::instruction_text() const {
  std::string out;
  for (auto const& s : instructions) out += (out.empty() ? "" : " ; ") + s;
  return out;
}

std::string mma_operand_list(const MmaInfo& x, const MmaOperandInfo& o) {
  return register_list(o.wide ? "x" : "w", first_register(x, o), o.registers);
}

std::string mma_instruction(const Instance& inst, const MmaInfo& x) {
  std::string text = inst.text();
  fill_placeholder(text, "{d}", mma_operand_list(x, x.d));
  fill_placeholder(text, "{a}", mma_operand_list(x, x.a));
  fill_placeholder(text, "{b}", mma_operand_list(x, x.b));
  fill_placeholder(text, "{c}", mma_operand_list(x, x.c));
  // mma.sp: its selector's value carries the metadata operand ("{c}, {e}, 0x1")
  if (x.sparse.chunk) fill_placeholder(text, "{e}", fmt::format("%w{}", e_register(x)));
  return text;
}

namespace {

// Lanes 16 to 31 of each warp exit just before the mma, or skip it under a predicate that is true
// for lanes 0 to 15 alone (the manual leaves both undefined: a kernel of its own).
// Or lanes 16 to 31 run another form of the mma (the same registers) on a divergent path.
void lanes_code(const MmaLanesKernel* shape, MmaProgram& prog) {
  if (!shape || shape->lanes == MmaCaseOptions::Lanes::All) return;
  prog.before = "    mov.u32             %t10, %laneid;\n    setp.lt.u32         %p0, %t10, 16;   // lanes 0 to 15\n";
  if (shape->lanes == MmaCaseOptions::Lanes::UpperExited) {
    prog.before += "    @!%p0 exit;                          // lanes 16 to 31 exit\n";
  } else if (shape->lanes == MmaCaseOptions::Lanes::UpperPredicatedOff) {
    prog.predicate = "@%p0 ";
  } else {
    prog.before += "    @%p0 bra            LANES_LOW;\n    " + mma_instruction(*shape->other, mma_info(*shape->other)) +
                   "   // lanes 16 to 31: another form\n    bra                 LANES_DONE;\nLANES_LOW:\n";
    prog.after = "LANES_DONE:\n";
  }
}

}  // namespace

MmaProgram mma_program(const KernelPlan& k) {
  MmaProgram prog;
  const MmaInfo x = mma_info(mma_step(k));
  for (const MmaOperandInfo* o : {&x.a, &x.b, &x.c, &x.d}) {
    const int first = first_register(x, *o);
    for (int r = 0; r < o->registers; ++r) move_register(prog, o->wide, first + r, o->first_word + (o->wide ? 2 * r : r));
    (o->wide ? prog.regs64 : prog.regs32) += o->registers;
  }
  if (x.sparse.chunk) move_register(prog, false, prog.regs32++, x.sparse.e_word);
  prog.words = x.words;
  for (int extra = 0; extra < compose_extra_words(k); ++extra) move_register(prog, false, prog.regs32++, prog.words++);
  lanes_code(mma_lanes_kernel(k), prog);
  if (!is_composition(k)) {
    std::string instruction = mma_instruction(mma_step(k), x);
    fill_extra_operands(prog, instruction, mma_step(k).variant());
    prog.instructions.push_back(std::move(instruction));
    prog.addressed.push_back(false);
    return prog;
  }
  compose_instructions(k, x, prog);
  return prog;
}

std::string emit_mma_ptx(const std::string& skeleton, const std::string& kernel_name, const MmaProgram& prog,
                         const std::string& target, PtxVersion ptx) {
  std::string addresses, body;
  for (std::size_t k = 0; k < prog.instructions.size(); ++k) {
    addresses += "    ld.global.u32       %t10, [%q5];\n    add.u64             %q5, %q5, %q7;\n";
    if (prog.addressed[k]) addresses += fmt::format("    add.u32             %addr{}, %t9, %t10;\n", k);
    body += "    " + prog.predicate + prog.instructions[k] + "\n";
  }
  body = prog.before + body + prog.after;
  return fill_skeleton(skeleton, {
                                     {"KERNEL_NAME", kernel_name},
                                     {"PTX_VERSION", ptx.str()},
                                     {"TARGET", target},
                                     {"REGS32", std::to_string(std::max(1, prog.regs32))},
                                     {"REGS64", std::to_string(std::max(1, prog.regs64))},
                                     {"STEPS", std::to_string(std::max<std::size_t>(1, prog.instructions.size()))},
                                     {"REGS_BYTES", std::to_string(4 * prog.words)},
                                     {"LOAD_REGISTERS", prog.load},
                                     {"ADDRESSES", addresses},
                                     {"BODY", body},
                                     {"STORE_REGISTERS", prog.store},
                                 });
}

}  // namespace ptxcts

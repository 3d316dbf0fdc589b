// Operand forms and address modes around a block's representative form: vector operands without
// braces, operands swapped, left out or one too many, an immediate where the manual writes a
// register (a vector's element, the stride, the address without brackets) and a register where it
// writes an immediate (the address's offset); every address mode and address register width in
// every state space.
#include <fmt/format.h>

#include "judge/address_words.hpp"
#include "judge/negative_space_parts.hpp"
#include "kinds/kinds.hpp"

namespace ptxcts {
namespace {

// The operands of an instruction's text (" {regs}, [{addr}], {stride};" -> "{regs}", "[{addr}]", "{stride}").
std::vector<std::string> operands_of(const std::string& text) {
  std::vector<std::string> ops;
  std::size_t at = text.find(' ');
  const std::size_t end = text.rfind(';');
  if (at == std::string::npos || end == std::string::npos) return ops;
  std::string cur;
  for (std::size_t p = at + 1; p < end; ++p) {
    if (text[p] == ',' && (cur.empty() || cur.back() == '}' || cur.back() == ']')) {
      ops.push_back(cur);
      cur.clear();
      if (p + 1 < end && text[p + 1] == ' ') ++p;
      continue;
    }
    cur += text[p];
  }
  if (!cur.empty()) ops.push_back(cur);
  return ops;
}

std::string with_operands(const std::string& text, const std::vector<std::string>& ops) {
  std::string out = text.substr(0, text.find(' ')) + " ";
  for (std::size_t k = 0; k < ops.size(); ++k) out += (k ? ", " : "") + ops[k];
  return out + ";";
}

// The name inside a vector operand's braces ("{a}" -> "a"), "" for any other operand.
std::string vector_name(const OperandShape& shape, const std::string& op) {
  if (op.size() < 3 || op.front() != '{' || op.back() != '}') return "";
  const std::string name = op.substr(1, op.size() - 2);
  return shape.registers.count(name) ? name : "";
}

std::string operand_type(const OperandShape& shape, const std::string& name) {
  auto t = shape.types.find(name);
  return t == shape.types.end() ? ".b32" : t->second;
}

// A vector operand whose last element is an immediate, or a scalar one (the stride, mma.sp's
// metadata, a scale operand) an immediate, or the address without its brackets; "" : none to try.
std::string immediate_for(const std::string& op, const std::string& name, OperandShape& sh) {
  if (!name.empty()) {
    if (sh.immediates.count(name)) return "";  // documented: the examples write one
    const int n = sh.registers.at(name);
    std::string v = "{";
    for (int j = 0; j + 1 < n; ++j) v += fmt::format("%im{}, ", j);
    if (n > 1) sh.declarations += fmt::format(".reg {} %im<{}>;\n", operand_type(sh, name), n - 1);
    return v + "1}";
  }
  if (op == "[{addr}]") return "{addr}";  // the address register without its brackets
  if (op.size() > 2 && op.front() == '{' && op.back() == '}' && op.find(',') == std::string::npos) return "16";
  return "";
}

bool is_integer(const std::string& op) {
  return !op.empty() && op.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void operand_form_mutations(MutationSet& out, const ClassifiedCombination& valid, const OperandShape& shape,
                            const GrammarPools* pools) {
  const std::string& text = valid.combo.text;
  const std::vector<std::string> ops = operands_of(text);
  auto add = [&](std::string detail, std::string t, OperandShape sh) {
    // A text some syntax block spells with these registers (a form without its optional stride or
    // selector): a documented form the grammar asks, no operand form.
    if (pools && pools->texts.count(t) && sh.declarations == shape.declarations && sh.unbraced.empty()) return;
    out.add({.kind = "operand-form", .detail = std::move(detail), .text = std::move(t), .shape = std::move(sh),
             .expected = DocClass::Undocumented, .words = "", .source = ""});
  };
  for (auto const& [name, n] : shape.registers) {
    OperandShape sh = shape;
    sh.unbraced.insert(name);
    add(fmt::format("{{{}}} without braces", name), text, sh);
  }
  for (std::size_t k = 0; k + 1 < ops.size(); ++k) {
    const std::string a = vector_name(shape, ops[k]), b = vector_name(shape, ops[k + 1]);
    // Two vectors alike (movmatrix's dst and src, mma's d and c of one type): swapped, the same form.
    if (!a.empty() && !b.empty() && shape.registers.at(a) == shape.registers.at(b) && operand_type(shape, a) == operand_type(shape, b))
      continue;
    std::vector<std::string> swapped = ops;
    std::swap(swapped[k], swapped[k + 1]);
    add(fmt::format("{} and {} swapped", ops[k], ops[k + 1]), with_operands(text, swapped), shape);
  }
  for (std::size_t k = 0; k < ops.size(); ++k) {  // every operand left out, each position
    std::vector<std::string> fewer = ops;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
    add(fmt::format("{}operand {} left out", k + 1 == ops.size() ? "last " : "", ops[k]), with_operands(text, fewer), shape);
  }
  if (!ops.empty()) {
    OperandShape sh = shape;
    sh.declarations += ".reg .b32 %xo;\n";
    std::vector<std::string> more = ops;
    more.push_back("%xo");
    add("one operand too many", with_operands(text, more), sh);
  }
  for (std::size_t k = 0; k < ops.size(); ++k) {
    std::vector<std::string> imm = ops;
    OperandShape sh = shape;
    if (is_integer(ops[k])) {  // a register where the documents write an immediate (mma.sp's selector)
      imm[k] = "%xo";
      sh.declarations += ".reg .b32 %xo;\n";
      add(fmt::format("register in place of the immediate {}", ops[k]), with_operands(text, imm), sh);
      continue;
    }
    imm[k] = immediate_for(ops[k], vector_name(shape, ops[k]), sh);
    if (!imm[k].empty()) add(fmt::format("immediate in place of {}", ops[k]), with_operands(text, imm), sh);
  }
  if (text.find("[{addr}]") != std::string::npos) {  // a register where the offset is an immediate
    OperandShape sh = shape;
    sh.address = "[{addr}+%io]";
    sh.declarations += ".reg .b64 %io;\n";
    out.add({.kind = "operand-form", .detail = "register in place of the address's immediate offset", .text = text,
             .shape = sh, .expected = DocClass::Undocumented, .words = "", .source = "", .ends_parse = true});
  }
}

void address_mode_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& /*s*/,
                            const OperandShape& shape, const std::set<std::string>& texts32) {
  const Combination& c = valid.combo;
  if (c.text.find("[{addr}]") == std::string::npos) return;
  const bool has_ss = !c.block->positions.empty() && [&] {
    for (auto const& p : c.block->positions)
      if (p.name == "ss") return true;
    return false;
  }();
  const SectionWords address = address_words(*c.block), spaces = state_space_words(*c.block);
  // Whether the documents let the address be a variable (InstructionKind::documents_variable_addresses).
  const bool variables = !valid.instance || kind_of(valid.instance->variant()).documents_variable_addresses();
  for (const char* space : kStateSpaces) {
    if (!has_ss && *space) continue;
    const std::string text = has_ss ? text_with(c, "ss", space) : c.text;
    bool documented_space = !has_ss;
    for (auto const& p : c.block->positions)
      if (p.name == "ss")
        for (auto const& v : p.values) documented_space = documented_space || v.text == space;
    const SpaceVerdict said = state_space_allowed(*c.block, space);
    auto add = [&](std::string kind, std::string detail, OperandShape sh, DocClass documented, bool alone = false) {
      Mutation m{.kind = std::move(kind), .detail = fmt::format("{} in state space {}", detail, *space ? space : "generic"),
                 .text = text, .shape = std::move(sh), .expected = DocClass::Undocumented, .words = "", .source = "",
                 .ends_parse = alone};
      if (!documented_space && said.said && !said.allowed)
        m.expected = DocClass::Invalid, m.words = spaces.words, m.source = spaces.source, m.words_paraphrase = spaces.paraphrase;
      else if (documented_space && documented == DocClass::Valid)
        m.expected = DocClass::Valid, m.words = address.words, m.source = address.source, m.words_paraphrase = address.paraphrase;
      out.add(std::move(m));
    };
    for (int width : {16, 32, 64})
      for (const char* form : {"[{addr}]", "[{addr}+16]"}) {
        if (width == 64 && form == std::string("[{addr}]")) continue;  // the form itself, or its grammar sibling
        // A 16-bit address ptxas refuses only when it lowers the instruction, and then at the first
        // such one of a module: each costs a ptxas run, so it is asked in the spaces the block spells.
        if (width == 16 && !documented_space) continue;
        OperandShape sh = shape;
        sh.address_width = width;
        sh.address = form;
        const bool valid_width = width == 64 || (width == 32 && texts32.count(text));
        // (64-bit with an offset: the kind of the offset asked on every form, whose findings specs know)
        add(width == 64 ? "address" : "address-width",
            fmt::format("{}-bit address register, written {}", width, form == std::string("[{addr}]") ? "[reg]" : "[reg+16]"),
            sh, valid_width ? DocClass::Valid : DocClass::Undocumented, width == 16);
      }
    OperandShape imm = shape;
    imm.address = "[16]";
    add("address", "immediate address [16]", imm, DocClass::Valid);
    // A variable of the state space (generic: a .shared one, the space these instructions name).
    const std::string var_space = std::string(*space && std::string(space) != ".shared::cluster" ? space : ".shared");
    for (const char* form : {"[pv]", "[pv+16]"}) {
      OperandShape sh = shape;
      sh.address = form;
      sh.declarations += fmt::format("{} .align 16 .b8 pv[1024];\n", var_space == ".shared::cta" ? ".shared" : var_space);
      add("address-mode", fmt::format("variable address {}", form), sh, variables ? DocClass::Valid : DocClass::Undocumented);
    }
  }
}

}  // namespace ptxcts

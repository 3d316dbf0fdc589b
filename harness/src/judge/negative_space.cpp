#include "judge/negative_space.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ptxcts {
namespace {

// Register types a probe tries in place of the documented one: PTX's fundamental register types
// of 16, 32 and 64 bits ("Fundamental Types").
const std::vector<std::string> kRegisterTypes = {".b16", ".u16", ".f16", ".b32", ".u32", ".s32",
                                                 ".f32", ".b64", ".u64", ".f64"};

int type_bits(const std::string& t) {
  std::string digits;
  for (char c : t)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  return digits.empty() ? 0 : std::stoi(digits);
}

// The ldmatrix, stmatrix and wmma sections all send the address operand to "Addresses as Operands".
constexpr const char* kAddressWords = "Supported addressing modes for p are described in Addresses as Operands.";
constexpr const char* kAddressSource =
    "PTX ISA 9.0, 9.7.14.5.15 ldmatrix, Description (and 6.4.1 Addresses as Operands: [reg], [reg+immOff], "
    "[immAddr])";

// A combination's mnemonic as units: the opcode, then each qualifier (a fixed token of the syntax,
// or a position's value, which may span tokens such as .b8x16.b6x16_p32), then the rest.
struct Unit {
  std::string text;
  bool optional = false;  // a position that may be left out
  bool position = false;
};
struct Split {
  std::string opcode;
  std::vector<Unit> units;
  std::string rest;  // from the first space on
};

Split split(const Combination& c) {
  Split s;
  const GrammarBlock& b = *c.block;
  const std::string& syn = b.syntax;
  std::size_t p = 0;
  std::string literal;
  auto flush_literal = [&] {
    std::size_t at = 0;
    while (at < literal.size()) {
      std::size_t next = literal.find('.', at + 1);
      if (next == std::string::npos) next = literal.size();
      std::string tok = literal.substr(at, next - at);
      if (s.opcode.empty() && s.units.empty() && tok[0] != '.') s.opcode = tok;
      else s.units.push_back({.text = tok, .optional = false, .position = false});
      at = next;
    }
    literal.clear();
  };
  for (; p < syn.size() && syn[p] != ' '; ++p) {
    if (syn[p] != '{') {
      literal += syn[p];
      continue;
    }
    flush_literal();
    std::size_t close = syn.find('}', p);
    const std::string name = syn.substr(p + 1, close - p - 1);
    for (std::size_t k = 0; k < b.positions.size(); ++k)
      if (b.positions[k].name == name && !b.positions[k].values[c.choice[k]].text.empty())
        s.units.push_back(
            {.text = b.positions[k].values[c.choice[k]].text, .optional = b.positions[k].optional(), .position = true});
    p = close;
  }
  flush_literal();
  // The rest: the combination's text from its first space (positions there are already filled).
  s.rest = c.text.substr(std::min(c.text.find(' '), c.text.size()));
  return s;
}

std::string join(const Split& s, const std::vector<Unit>& units) {
  std::string out = s.opcode;
  for (auto const& u : units) out += u.text;
  return out + s.rest;
}

// Whether an exclusion of the variant forbids its instance's text with a 32-bit address, and why.
const Exclusion* excluded_32bit(const Instance& inst) {
  for (auto const& e : inst.variant().exclusions) {
    auto w = e.when.find("address_width");
    if (w == e.when.end() || w->second != "32") continue;
    bool all = true;
    for (auto const& [axis, text] : e.when)
      if (axis != "address_width") all = all && inst.has_option(axis, text);
    if (all) return &e;
  }
  return nullptr;
}

}  // namespace

OperandShape documented_shape(const Combination& c) {
  OperandShape s;
  for (auto const& [operand, f] : c.block->registers) s.registers[operand] = c.registers(operand);
  s.types = c.block->types;
  return s;
}

namespace {

// A mutation's identity: its text, address and operands (two mutations alike are tried once).
std::string mutation_key(const std::string& text, const std::string& address, int address_width,
                         const OperandShape& shape) {
  std::string key = text + "|" + address + "|" + std::to_string(address_width);
  for (auto const& [o, n] : shape.registers) key += o + std::to_string(n);
  for (auto const& [o, t] : shape.types) key += o + t;
  return key;
}

// The mutations of one form, each once; one that comes back to the form itself is none.
struct Mutations {
  std::vector<Mutation> out;
  std::set<std::string> seen;

  Mutations(const Combination& c, const OperandShape& shape) {
    seen.insert(mutation_key(c.text, "[{addr}]", 64, shape));
  }
  void add(Mutation m) {
    if (seen.insert(mutation_key(m.text, m.shape.address, m.shape.address_width, m.shape)).second)
      out.push_back(std::move(m));
  }
};

// Qualifiers: each required one left out, each optional one doubled.
void qualifier_mutations(Mutations& out, const Split& s, const OperandShape& shape, const GrammarBlock& b) {
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    std::vector<Unit> u = s.units;
    if (!s.units[k].optional) {
      u.erase(u.begin() + static_cast<std::ptrdiff_t>(k));
      out.add({.kind = "drop",
               .detail = "without " + s.units[k].text,
               .text = join(s, u),
               .shape = shape,
               .expected = DocClass::Invalid,
               .words = "the syntax writes " + s.units[k].text + " as required: " + b.manual,
               .source = b.cite.source});
    } else {
      u.insert(u.begin() + static_cast<std::ptrdiff_t>(k), s.units[k]);
      out.add({.kind = "double",
               .detail = s.units[k].text + " twice",
               .text = join(s, u),
               .shape = shape,
               .expected = DocClass::Undocumented,
               .words = "",
               .source = ""});
    }
  }
}

// Orders: every neighbouring pair of qualifiers swapped, and every order of the optional ones.
void order_mutations(Mutations& out, const Split& s, const OperandShape& shape) {
  auto add = [&](std::string detail, const std::vector<Unit>& u) {
    out.add({.kind = "order",
             .detail = std::move(detail),
             .text = join(s, u),
             .shape = shape,
             .expected = DocClass::Undocumented,
             .words = "",
             .source = ""});
  };
  for (std::size_t k = 0; k + 1 < s.units.size(); ++k) {
    std::vector<Unit> u = s.units;
    std::swap(u[k], u[k + 1]);
    add(fmt::format("{} before {}", s.units[k + 1].text, s.units[k].text), u);
  }
  std::vector<std::size_t> optional_slots;
  for (std::size_t k = 0; k < s.units.size(); ++k)
    if (s.units[k].optional) optional_slots.push_back(k);
  if (optional_slots.size() <= 1 || optional_slots.size() > 4) return;
  std::vector<std::size_t> perm = optional_slots;
  while (std::next_permutation(perm.begin(), perm.end())) {
    std::vector<Unit> u = s.units;
    std::string order;
    for (std::size_t j = 0; j < perm.size(); ++j) {
      u[optional_slots[j]] = s.units[perm[j]];
      order += s.units[perm[j]].text;
    }
    add("optional qualifiers as " + order, u);
  }
}

// Registers: one fewer, one more; every other register type.
void register_mutations(Mutations& out, const Combination& c, const OperandShape& shape) {
  const GrammarBlock& b = *c.block;
  for (auto const& [operand, n] : shape.registers)
    for (int delta : {-1, +1}) {
      if (n + delta < 1) continue;  // no registers at all is "{}", not a vector: nothing to learn
      OperandShape sh = shape;
      sh.registers[operand] = n + delta;
      out.add({.kind = "registers",
               .detail = fmt::format("{{{}}}: {} registers (documented {})", operand, n + delta, n),
               .text = c.text,
               .shape = sh,
               .expected = DocClass::Invalid,
               .words = fmt::format("{{{}}} takes {} registers in the spec's reading of {}", operand, n, b.manual),
               .source = b.cite.source});
    }
  for (auto const& [operand, type] : shape.types)
    for (auto const& t : kRegisterTypes) {
      if (t == type) continue;
      OperandShape sh = shape;
      sh.types[operand] = t;
      const bool same_size = type_bits(t) == type_bits(type);
      out.add({.kind = "register-type",
               .detail = fmt::format("{{{}}} as {} registers (documented {})", operand, t, type),
               .text = c.text,
               .shape = sh,
               .expected = same_size ? DocClass::Undocumented : DocClass::Invalid,
               .words = same_size ? "" : fmt::format("the operand is {} registers ({})", type, b.manual),
               .source = same_size ? "" : b.cite.source});
    }
}

// Address forms: a 32-bit address register (valid where a 32-bit instance has the text, invalid
// where an exclusion says so), an offset and an immediate address.
void address_mutations(Mutations& out, const ClassifiedCombination& valid, const OperandShape& shape,
                       const std::set<std::string>& texts32) {
  const Combination& c = valid.combo;
  if (c.text.find("[{addr}]") == std::string::npos) return;
  OperandShape a32 = shape;
  a32.address_width = 32;
  Mutation m{.kind = "address",
             .detail = "32-bit address register",
             .text = c.text,
             .shape = a32,
             .expected = DocClass::Undocumented,
             .words = "",
             .source = ""};
  if (texts32.count(c.text)) {
    m.expected = DocClass::Valid;
    m.words = kAddressWords;
    m.source = kAddressSource;
  } else if (const Exclusion* e = valid.instance ? excluded_32bit(*valid.instance) : nullptr) {
    m.expected = DocClass::Invalid;
    m.words = e->reason;
    m.source = "specs: exclusion of variant " + valid.instance->variant().name;
  }
  out.add(m);
  for (const char* form : {"[{addr}+16]", "[16]"}) {
    OperandShape sh = shape;
    sh.address = form;
    out.add({.kind = "address",
             .detail = fmt::format("address written {}", form == std::string("[16]") ? "[16]" : "[%ad+16]"),
             .text = c.text,
             .shape = sh,
             .expected = DocClass::Valid,
             .words = kAddressWords,
             .source = kAddressSource});
  }
}

}  // namespace

std::vector<Mutation> mutations_of(const ClassifiedCombination& valid, const std::set<std::string>& texts32) {
  const Combination& c = valid.combo;
  const OperandShape shape = documented_shape(c);
  const Split s = split(c);
  Mutations out(c, shape);
  qualifier_mutations(out, s, shape, *c.block);
  order_mutations(out, s, shape);
  register_mutations(out, c, shape);
  address_mutations(out, valid, shape, texts32);
  return std::move(out.out);
}

}  // namespace ptxcts

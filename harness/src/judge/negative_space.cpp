#include "judge/negative_space.hpp"

#include "judge/address_words.hpp"
#include "judge/negative_space_parts.hpp"

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

namespace {
// A mutation's identity: its text, address and operands (two mutations alike are tried once).
std::string mutation_key(const std::string& text, const OperandShape& shape) {
  std::string key = text + "|" + shape.address + "|" + std::to_string(shape.address_width) + "|" + shape.declarations;
  for (auto const& [o, n] : shape.registers) key += o + std::to_string(n);
  for (auto const& [o, t] : shape.types) key += o + t;
  for (auto const& o : shape.unbraced) key += "!" + o;
  return key;
}
}  // namespace

MutationSet::MutationSet(const Combination& c, const OperandShape& shape) { seen.insert(mutation_key(c.text, shape)); }

void MutationSet::add(Mutation m) {
  if (seen.insert(mutation_key(m.text, m.shape)).second) out.push_back(std::move(m));
}

OperandShape documented_shape(const Combination& c) {
  OperandShape s;
  for (auto const& [operand, f] : c.block->registers) s.registers[operand] = c.registers(operand);
  s.types = c.block->types;
  for (auto const& o : c.block->operands)
    if (o.immediates) s.immediates.insert(o.name);
  return s;
}

namespace {

// Qualifiers: each required one left out, each optional one doubled.
void qualifier_mutations(MutationSet& out, const MnemonicUnits& s, const OperandShape& shape, const GrammarBlock& b) {
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    std::vector<MnemonicUnit> u = s.units;
    if (!s.units[k].optional) {
      u.erase(u.begin() + static_cast<std::ptrdiff_t>(k));
      out.add({.kind = "drop",
               .detail = "without " + s.units[k].text,
               .text = join_units(s, u),
               .shape = shape,
               .expected = DocClass::Invalid,
               .words = "the syntax writes " + s.units[k].text + " as required: " + b.manual,
               .source = b.cite.source});
    } else {
      u.insert(u.begin() + static_cast<std::ptrdiff_t>(k), s.units[k]);
      out.add({.kind = "double",
               .detail = s.units[k].text + " twice",
               .text = join_units(s, u),
               .shape = shape,
               .expected = DocClass::Undocumented,
               .words = "",
               .source = ""});
    }
  }
}

// Orders: every neighbouring pair of qualifiers swapped, and every order of the optional ones.
void order_mutations(MutationSet& out, const MnemonicUnits& s, const OperandShape& shape) {
  auto add = [&](std::string detail, const std::vector<MnemonicUnit>& u) {
    out.add({.kind = "order",
             .detail = std::move(detail),
             .text = join_units(s, u),
             .shape = shape,
             .expected = DocClass::Undocumented,
             .words = "",
             .source = ""});
  };
  for (std::size_t k = 0; k + 1 < s.units.size(); ++k) {
    std::vector<MnemonicUnit> u = s.units;
    std::swap(u[k], u[k + 1]);
    add(fmt::format("{} before {}", s.units[k + 1].text, s.units[k].text), u);
  }
  std::vector<std::size_t> optional_slots;
  for (std::size_t k = 0; k < s.units.size(); ++k)
    if (s.units[k].optional) optional_slots.push_back(k);
  if (optional_slots.size() <= 1 || optional_slots.size() > 4) return;
  std::vector<std::size_t> perm = optional_slots;
  while (std::next_permutation(perm.begin(), perm.end())) {
    std::vector<MnemonicUnit> u = s.units;
    std::string order;
    for (std::size_t j = 0; j < perm.size(); ++j) {
      u[optional_slots[j]] = s.units[perm[j]];
      order += s.units[perm[j]].text;
    }
    add("optional qualifiers as " + order, u);
  }
}

// Registers: one fewer, one more (on the block's representative form, every count from none, "{}",
// up to twice the documented one); every other register type.
void register_mutations(MutationSet& out, const Combination& c, const OperandShape& shape, bool whole_range) {
  const GrammarBlock& b = *c.block;
  for (auto const& [operand, n] : shape.registers)
    for (int count = whole_range ? 0 : n - 1; count <= (whole_range ? 2 * n : n + 1); ++count) {
      if (count == n || (!whole_range && count < 1)) continue;
      OperandShape sh = shape;
      sh.registers[operand] = count;
      out.add({.kind = "registers",
               .detail = fmt::format("{{{}}}: {} registers (documented {})", operand, count, n),
               .text = c.text,
               .shape = sh,
               .expected = DocClass::Invalid,
               .words = fmt::format("{{{}}} takes {} registers in the spec's reading of {}", operand, n, b.manual),
               .source = b.cite.source,
               .ends_parse = count == 0});
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
void address_mutations(MutationSet& out, const ClassifiedCombination& valid, const OperandShape& shape,
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
  const SectionWords section = address_words(*c.block);
  if (texts32.count(c.text)) {
    m.expected = DocClass::Valid;
    m.words = section.words;
    m.source = section.source;
    m.words_paraphrase = section.paraphrase;
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
             .words = section.words,
             .source = section.source,
             .words_paraphrase = section.paraphrase});
  }
}

}  // namespace

std::vector<Mutation> mutations_of(const ClassifiedCombination& valid, const std::set<std::string>& texts32,
                                   WideParts wide, const GrammarPools* pools) {
  const Combination& c = valid.combo;
  const OperandShape shape = documented_shape(c);
  const MnemonicUnits s = mnemonic_units(c);
  MutationSet out(c, shape);
  qualifier_mutations(out, s, shape, *c.block);
  order_mutations(out, s, shape);
  register_mutations(out, c, shape, wide.registers);
  address_mutations(out, valid, shape, texts32);
  // Every state space on every form (those written generic stand for the rest: the same text).
  state_space_mutations(out, valid, s, shape);
  if (wide.values && pools) value_mutations(out, valid, s, shape, *pools);
  if (wide.operands) {
    operand_form_mutations(out, valid, shape, pools);
    address_mode_mutations(out, valid, s, shape, texts32);
  }
  return std::move(out.out);
}

std::vector<Mutation> wide_mutations_of(const ClassifiedCombination& valid, const std::set<std::string>& texts32,
                                        WideParts wide, const GrammarPools& pools) {
  const Combination& c = valid.combo;
  const OperandShape shape = documented_shape(c);
  MutationSet out(c, shape);
  if (wide.registers) register_mutations(out, c, shape, true);
  if (wide.values) value_mutations(out, valid, mnemonic_units(c), shape, pools);
  if (wide.operands) {
    operand_form_mutations(out, valid, shape, &pools);
    address_mode_mutations(out, valid, mnemonic_units(c), shape, texts32);
  }
  return std::move(out.out);
}

QuestionKind question_of_mutation_kind(const std::string& kind) {
  using enum QuestionKind;
  if (kind == "order") return QualifierOrders;
  if (kind == "registers") return RegisterCounts;
  if (kind == "register-type") return RegisterTypes;
  if (kind == "fragment-register-type") return FragmentRegisterTypes;  // judge/register_types.hpp
  if (kind == "address-width") return AddressWidths;
  if (kind == "address" || kind == "address-mode") return AddressModes;
  if (kind == "operand-form") return OperandForms;
  if (kind == "type-shape") return TypeShape;
  if (kind == "version-spelling") return PtxVersions;  // the other spelling at a version
  if (kind == "rule-version") return PtxVersions;      // a rule bounded in versions, at its range's edges
  return InvalidValues;                                 // drop, double, value, conflict, state-space
}

QuestionKind question_of(const Mutation& m) {
  if (m.kind == "address" && m.shape.address_width != 64) return QuestionKind::AddressWidths;
  return question_of_mutation_kind(m.kind);
}

}  // namespace ptxcts

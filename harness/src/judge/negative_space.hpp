// The negative space around a documented form, generated: each required qualifier left out, each
// optional one doubled, other orders of the qualifiers, one register fewer and one more, other
// register types, other address forms (negative_space.cpp, on every documented form); and around
// one representative form of each syntax block, the rest of the space the documents open: other
// values and state spaces (invalid_values), operand forms, address modes and address register
// widths in every state space (operand_forms), every register count from none to twice the
// documented one; and every element type on every shape and matrix (type_shape_product). Each
// mutation says what the documents make of it (and with which words), so that what ptxas does
// with it can be judged.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "judge/probe_text.hpp"
#include "judge/question_kind.hpp"
#include "spec/grammar.hpp"

namespace ptxcts {

struct Mutation {
  std::string kind;    // drop, double, order, registers, register-type, address, value, conflict,
                       // state-space, operand-form, address-mode, address-width, type-shape,
                       // version-spelling (judge/audit_plan: the other spelling at a version),
                       // rule-version (a rule bounded in PTX ISA versions, at its range's edges)
  std::string detail;  // e.g. "without .aligned", "{regs}: 3 registers (documented 4)"
  std::string text;    // the instruction, operand placeholders kept
  OperandShape shape;
  DocClass expected = DocClass::Undocumented;
  std::string words, source;  // the documents' words that decide it, and where ("" if undocumented)
  // Why `words` is not verbatim in the reference text of the manual it cites ("" : verbatim).
  std::string words_paraphrase{};
  // ptxas stops at it (a syntax error ends the parse: "{}", "[%ad+%io]"; a 16-bit address fails only
  // where ptxas lowers the instruction, which stops at the first such failure), so that what follows
  // it in a module is assembled again: such probes share modules only among themselves, and are
  // asked on their first target only.
  bool ends_parse = false;
};

// The operand shape a documented-valid combination is written with (its block's registers and types).
OperandShape documented_shape(const Combination& c);

// Mutations, each once: one that comes back to the form itself, or repeats one already made, is none.
struct MutationSet {
  std::vector<Mutation> out;
  std::unordered_set<std::string> seen;  // only asked whether it holds one: hashed, not ordered

  MutationSet(const Combination& c, const OperandShape& shape);
  void add(Mutation m);
};

// Every value each position name takes in any syntax block of the documents ("shape" -> .m8n8,
// .m16n8k16, ...), with the values no syntax spells that the audit tries too (.x3, .x8, .b32, ...).
struct GrammarPools {
  std::map<std::string, std::set<std::string>> by_position;
  std::set<std::string> shapes;  // every shape, of a position or fixed in a syntax
  std::set<std::string> texts;   // every combination's text (those the grammar asks already)
};
GrammarPools grammar_pools(const std::vector<GrammarBlock>& blocks);

// The parts of the wider space a form is asked besides what every form is (judge/form_classes.hpp:
// a form asks those of the classes it heads).
struct WideParts {
  bool values = false;     // invalid_values: values no syntax spells, two of a position, a required one doubled
  bool operands = false;   // operand_forms: operand forms, every address mode and width in every state space
  bool registers = false;  // every register count from none to twice the documented one
  static WideParts all() { return {.values = true, .operands = true, .registers = true}; }
  bool any() const { return values || operands || registers; }
};

// Every mutation of a documented-valid combination (`valid.instance` set), without duplicates.
// `texts_with_32bit_address`: the texts of the instances documented with a 32-bit address.
// `wide`: the parts of the rest of the space asked around it too (with `pools`: other values, and
// the texts the grammar asks already, which no operand form repeats).
std::vector<Mutation> mutations_of(const ClassifiedCombination& valid,
                                   const std::set<std::string>& texts_with_32bit_address, WideParts wide,
                                   const GrammarPools* pools);
// `representative`: every part of the rest of the space (the block's representative form).
inline std::vector<Mutation> mutations_of(const ClassifiedCombination& valid,
                                          const std::set<std::string>& texts_with_32bit_address,
                                          bool representative = false, const GrammarPools* pools = nullptr) {
  return mutations_of(valid, texts_with_32bit_address, representative ? WideParts::all() : WideParts{}, pools);
}

// The kind of question a mutation asks, as the report counts coverage: its kind's, but an address
// register narrower than 64 bits asks of the address's width (QuestionKind::AddressWidths).
QuestionKind question_of(const Mutation& m);
// The kind of question of a kind of mutation ("order", "registers", ...): a finding about a block's
// mutations of one kind (judge/questions/mutations.cpp) counts there.
QuestionKind question_of_mutation_kind(const std::string& kind);

}  // namespace ptxcts

// The negative space around a documented form, generated: each required qualifier left out, each
// optional one doubled, other orders of the qualifiers, one register fewer and one more, other
// register types, other address forms. Each mutation says what the documents make of it (and with
// which words), so that what ptxas does with it can be judged.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "judge/probe_text.hpp"
#include "spec/grammar.hpp"

namespace ptxcts {

struct Mutation {
  std::string kind;    // drop, double, order, registers, register-type, address
  std::string detail;  // e.g. "without .aligned", "{regs}: 3 registers (documented 4)"
  std::string text;    // the instruction, operand placeholders kept
  OperandShape shape;
  DocClass expected = DocClass::Undocumented;
  std::string words, source;  // the documents' words that decide it, and where ("" if undocumented)
};

// The operand shape a documented-valid combination is written with (its block's registers and types).
OperandShape documented_shape(const Combination& c);

// Every mutation of a documented-valid combination (`valid.instance` set), without duplicates.
// `texts_with_32bit_address`: the texts of the instances documented with a 32-bit address.
std::vector<Mutation> mutations_of(const ClassifiedCombination& valid,
                                   const std::set<std::string>& texts_with_32bit_address);

}  // namespace ptxcts

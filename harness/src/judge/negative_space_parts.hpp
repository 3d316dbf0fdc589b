// The parts of the negative space around a block's representative form beyond the first kinds
// (negative_space.cpp): each adds its mutations to the set, with what the documents make of them.
#pragma once

#include <set>
#include <string>

#include "judge/mnemonic_units.hpp"
#include "judge/negative_space.hpp"

namespace ptxcts {

// The combination's text with one position given another value (or "" : left out).
std::string text_with(const Combination& c, const std::string& position, const std::string& value);

// invalid_values.cpp: every state space on the form (those written generic: the others repeat them).
void state_space_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& s,
                           const OperandShape& shape);
// invalid_values.cpp: values no syntax of the block spells, a value beside another of its position
// (two shapes, .row.col), a required qualifier doubled.
void value_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& s,
                     const OperandShape& shape, const GrammarPools& pools);
// operand_forms.cpp: vector operands without braces, neighbouring operands swapped, each operand
// left out, one too many, an immediate where a register goes (a vector's element, a scalar operand,
// the address without brackets) and a register where an immediate goes (the address's offset,
// mma.sp's selector); never a text the grammar asks already (`pools`' texts: a form without its
// optional stride or selector).
void operand_form_mutations(MutationSet& out, const ClassifiedCombination& valid, const OperandShape& shape,
                            const GrammarPools* pools);
// operand_forms.cpp: every address mode ([reg], [reg+imm], [imm], [var], [var+imm]) and address
// register width (16, 32, 64 bits) in every state space.
void address_mode_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& s,
                            const OperandShape& shape, const std::set<std::string>& texts32);

// negative_space.cpp: only the wider parts' mutations of a form (`wide`, with the register types
// beside the counts), none of those every form is asked: what a class's sampled member is asked
// (judge/form_classes.hpp).
std::vector<Mutation> wide_mutations_of(const ClassifiedCombination& valid, const std::set<std::string>& texts32,
                                        WideParts wide, const GrammarPools& pools);

// The state spaces tried on every form with an address: generic ("") and every named one.
inline const char* const kStateSpaces[] = {"",       ".shared", ".shared::cta", ".shared::cluster",
                                           ".global", ".local",  ".const",       ".param"};

}  // namespace ptxcts

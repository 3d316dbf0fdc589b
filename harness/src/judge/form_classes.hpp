// Every documented form asks every part of the wider negative space, in classes: the documented
// forms of a syntax block that the documents' own rules give the same verdict on a part's questions
// (the same operands, with the same registers, for operand forms and address modes; the same
// registers for the register counts; the same block for the values no syntax spells) form a class. Its head (its first form)
// is asked the part's every question; the rest are its members, whose equivalence with the head is
// a checked statement: a seeded sample of the members is asked a seeded sample of the head's
// questions, and the statement fails where any verdict differs (judge/questions/equivalence.cpp). So the
// stride operand (wmma's forms with ", {stride}"), mma.sp's selector and each fragment table row's
// register count are each asked in full on a form that has them, not assumed from the block's first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/negative_space.hpp"

namespace ptxcts {

// The parts of the wider negative space, each with its own classes.
// RegisterTypes: the forms of one fragment table row, for its register types (judge/register_types.hpp
// makes those classes; form_classes() does not, and no form asks a wider part for heading one).
enum class FormPart { Values, Operands, Registers, RegisterTypes };
const char* form_part_id(FormPart p);  // "values", "operands", "registers"
// What a part's forms share, in words ("the same operands"), for statements and reports.
const char* form_part_shares(FormPart p);
// The part a kind of mutation belongs to ("operand-form" -> Operands); none for the kinds every
// form asks in full (orders, register types, state spaces, ...).
std::optional<FormPart> form_part_of(const std::string& mutation_kind);

struct FormClass {
  FormPart part = FormPart::Values;
  const GrammarBlock* block = nullptr;
  std::string key;                     // what its forms share: the block, the operands, the registers
  std::vector<std::size_t> forms;      // indices into the plan's grammar, in order; front(): the head
  std::vector<std::size_t> sampled{};  // members asked a sample of the head's questions
  std::uint32_t seed = 0;              // the sample's seed (kEquivalenceSeed and the class's key)
};

// How many members of a class, and how many of the head's questions on each, are asked to check
// the class's equivalence; the fixed seed the samples are drawn with (a report names it).
inline constexpr std::size_t kEquivalenceForms = 2;
inline constexpr std::size_t kEquivalenceQuestions = 6;
inline constexpr std::uint32_t kEquivalenceSeed = 43;

// The classes of the documented-valid forms (`valid`: indices into `grammar`, in order), part by
// part, block by block; each class's sampled members drawn with its seed.
std::vector<FormClass> form_classes(const std::vector<const ClassifiedCombination*>& grammar,
                                    const std::vector<std::size_t>& valid);

// Draws the class's sampled members with its seed (kEquivalenceSeed and the class's block, part and key).
void draw_sample(FormClass& fc);

// The wider parts a form asks in full: those of the classes it heads.
WideParts parts_headed(const std::vector<FormClass>& classes, std::size_t form);

// The sample of a member's questions of a class's part: at most kEquivalenceQuestions of its
// mutations whose (kind, detail) the head asked too (`head_asked`: "kind|detail"), drawn with the
// class's seed and the member's index.
std::vector<Mutation> equivalence_sample(const FormClass& fc, std::size_t member, std::vector<Mutation> mutations,
                                         const std::set<std::string>& head_asked);

}  // namespace ptxcts

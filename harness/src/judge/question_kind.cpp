#include "judge/question_kind.hpp"

namespace ptxcts {

const std::vector<QuestionKindInfo>& question_kinds() {
  using enum QuestionKind;
  static const std::vector<QuestionKindInfo> kinds = {
      {GrammarForms, "grammar", "grammar forms x targets",
       "each combination of a syntax block the documents give, on every target: is it taken where its variant is "
       "documented, refused elsewhere"},
      {AddressWidths, "address-width", "address widths",
       "an address register of another width (16 or 32 bits) than the documented form's"},
      {RegisterTypes, "register-type", "register types", "an operand's registers of another type"},
      {QualifierOrders, "qualifier-order", "qualifier orders", "the documented qualifiers in another order"},
      {ManualExamples, "example", "manual examples",
       "each example of the documents, as written, on the targets its instruction is documented for"},
      {InvalidCombinations, "invalid-combination", "invalid combinations",
       "the combinations a rule forbids, no document gives, or two documents see differently"},
      {AddressModes, "address-mode", "address modes",
       "the address written another way: with an offset, an immediate, a variable"},
      {InvalidValues, "invalid-value", "invalid values and state spaces",
       "a qualifier left out or doubled, a value no syntax spells, two values of a position, every state space"},
      {RegisterCounts, "register-count", "register counts",
       "an operand with fewer or more registers than documented, and each register count a document states"},
      {OperandForms, "operand-form", "operand forms",
       "operands without braces, swapped, left out or one too many, an immediate for a register"},
      {TypeShape, "type-shape", "element type x shape", "every element type on every shape and matrix"},
      {TargetAgreement, "target-agreement", "negative space on other targets",
       "a sample of a representative form's questions again on every other target supporting it"},
      {PtxVersions, "version", "PTX ISA versions",
       "each documented minimum PTX ISA version at it and below, each target's first version, the toolkit's own"},
      {HandListedForms, "hand-listed-form", "hand-listed forms",
       "the specs' hand-listed invalid forms and undocumented spellings, each on its target"},
      {FragmentFormulas, "fragment-formula", "fragment formulas",
       "the manual's printed fragment formulas and sections, checked on the host"},
      {FragmentRegisterTypes, "fragment-register-type", "register types per fragment table row",
       "each fragment table row's operand in registers of the type the row states and of every other register "
       "type, judged by the row and PTX's type-checking rules"},
  };
  return kinds;
}

const QuestionKindInfo& info(QuestionKind k) { return question_kinds().at(static_cast<std::size_t>(k)); }

const char* question_title(QuestionKind k) { return info(k).title; }

std::optional<QuestionKind> question_kind_of_id(const std::string& id) {
  for (auto const& k : question_kinds())
    if (id == k.id) return k.kind;
  return std::nullopt;
}

}  // namespace ptxcts

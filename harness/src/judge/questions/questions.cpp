#include "judge/questions/questions.hpp"

namespace ptxcts {

const std::vector<QuestionJudge>& question_judges() {
  using enum QuestionKind;
  static const std::vector<QuestionJudge> judges = {
      {"requirements", {GrammarForms, PtxVersions}, judge_requirements},
      {"grammar", {GrammarForms, InvalidCombinations}, judge_grammar},
      {"negative space",
       {AddressWidths, RegisterTypes, QualifierOrders, AddressModes, InvalidValues, RegisterCounts, OperandForms,
        TypeShape, PtxVersions},
       judge_mutations},
      // the orders ptxas accepts, per block, from the search's orders (their findings: the negative space's)
      {"qualifier orders", {}, judge_qualifier_orders},
      // the classes of forms whose heads the rest are sampled against: statements, no findings
      {"equivalence of forms", {}, judge_equivalence},
      {"examples", {ManualExamples}, judge_examples},
      // a section naming shapes no syntax spells: the documents disagree on the combinations
      {"fragment sections", {InvalidCombinations}, judge_fragment_sections},
      {"register counts", {RegisterCounts}, judge_register_claims},
      // each fragment table row's register type and every other: findings only where the rules decide
      {"register types per fragment table row", {FragmentRegisterTypes}, judge_register_types},
      {"register minimums", {RegisterCounts}, judge_register_minimums},
      // what each kind alone asks (its fragment formulas and sections), checked on the host
      {"the kinds' statements", {FragmentFormulas}, judge_kind_statements},
      {"target and toolkit versions", {PtxVersions}, judge_target_versions},
      {"hand-listed forms", {HandListedForms}, judge_forms},
      {"version ladders", {}, judge_ladders},
  };
  return judges;
}

}  // namespace ptxcts

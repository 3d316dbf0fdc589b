// The kinds of question the audit asks ptxas, as one typed identity: each kind once, with its id,
// the title a report gives it and what it asks. Probes (judge/audit_plan.hpp's subjects), findings
// (judge/audit.hpp), coverage counts (judge/question_coverage.hpp) and the reports carry a
// QuestionKind; nothing reads a kind back from a finding's id.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ptxcts {

// In the order a report gives them (the first eleven: the kinds of the independent acceptance
// sweep the audit was measured against).
enum class QuestionKind {
  GrammarForms,
  AddressWidths,
  RegisterTypes,
  QualifierOrders,
  ManualExamples,
  InvalidCombinations,
  AddressModes,
  InvalidValues,
  RegisterCounts,
  OperandForms,
  TypeShape,
  TargetAgreement,
  PtxVersions,
  HandListedForms,
  FragmentFormulas,
  FragmentRegisterTypes,  // judge/register_types.hpp: each fragment table row's register type
};

struct QuestionKindInfo {
  QuestionKind kind;
  const char* id;     // stable, for files and code: "operand-form"
  const char* title;  // as a report names it: "operand forms"
  const char* asks;   // what a question of the kind asks ptxas (or the documents)
};

// Every kind, in QuestionKind's order.
const std::vector<QuestionKindInfo>& question_kinds();
const QuestionKindInfo& info(QuestionKind k);
const char* question_title(QuestionKind k);  // "grammar forms x targets", ...
// The kind of this id ("operand-form"), if there is one: how a report's "question" is read back.
std::optional<QuestionKind> question_kind_of_id(const std::string& id);

}  // namespace ptxcts

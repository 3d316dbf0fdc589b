// The audit's kinds of question as a seam: each file of judge/questions/ judges the verdicts of one
// kind of question (or of a few kinds asked together: the negative space's mutations) into the
// audit's statements, requirements and findings, behind one small interface: a function of the
// AuditContext (judge/audit_context.hpp). Every finding it makes names its QuestionKind
// (judge/question_kind.hpp). judge/audit.cpp runs question_judges() in their order, which is the
// order of the findings within a class and of the statements.
#pragma once

#include <vector>

#include "judge/audit_context.hpp"
#include "judge/question_kind.hpp"

namespace ptxcts {

struct QuestionJudge {
  const char* name;                 // what it judges, as judge/README.md lists it
  std::vector<QuestionKind> kinds;  // the kinds of question its findings are of
  void (*judge)(AuditContext&);
};

// Every judge, in the order the audit runs them.
const std::vector<QuestionJudge>& question_judges();

void judge_requirements(AuditContext& cx);       // requirements.cpp
void judge_grammar(AuditContext& cx);            // grammar.cpp
void judge_mutations(AuditContext& cx);          // mutations.cpp
void judge_qualifier_orders(AuditContext& cx);   // qualifier_orders.cpp
void judge_equivalence(AuditContext& cx);        // equivalence.cpp
void judge_examples(AuditContext& cx);           // examples.cpp
void judge_fragment_sections(AuditContext& cx);  // fragments.cpp
void judge_register_claims(AuditContext& cx);    // register_counts.cpp
void judge_register_types(AuditContext& cx);     // register_types.cpp
void judge_register_minimums(AuditContext& cx);  // register_minimums.cpp
void judge_kind_statements(AuditContext& cx);    // kind_statements.cpp
void judge_target_versions(AuditContext& cx);    // versions.cpp
void judge_forms(AuditContext& cx);              // hand_listed_forms.cpp
void judge_ladders(AuditContext& cx);            // versions.cpp: after requirements and forms

}  // namespace ptxcts

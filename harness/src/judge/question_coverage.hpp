// Coverage, by kind of question (judge/question_kind.hpp): how many questions of each kind the
// audit asks (and in how many probes: the same question on several targets is one question per
// target for the grammar and the examples, one for a form's negative space), and how many findings
// each kind gave, so that a report shows what was asked as well as what was found.
#pragma once

#include <string>
#include <vector>

#include "judge/audit_plan.hpp"
#include "judge/question_kind.hpp"

namespace ptxcts {

struct Finding;

struct QuestionCount {
  QuestionKind kind = QuestionKind::GrammarForms;
  std::size_t questions = 0, probes = 0, findings = 0;
};

// Questions and probes per kind (every kind, in question_kinds()' order), from the plan (findings 0).
std::vector<QuestionCount> question_counts(const AuditPlan& plan);

// Adds each finding to its kind's count (Finding::question).
void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings);

}  // namespace ptxcts

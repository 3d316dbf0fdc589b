// Coverage, by kind of question: how many questions of each kind the audit asks (and in how many
// probes: the same question on several targets is one question per target for the grammar and
// the examples, one for a form's negative space), and how many findings each kind gave, so that a
// report shows what was asked as well as what was found.
#pragma once

#include <string>
#include <vector>

#include "judge/audit_plan.hpp"

namespace ptxcts {

struct Finding;

struct QuestionCount {
  std::string kind;  // "grammar forms x targets", "register counts", ...
  std::size_t questions = 0, probes = 0, findings = 0;
};

// The kinds in the order a report gives them (the first eleven: the kinds of the independent
// acceptance sweep the audit was measured against).
const std::vector<std::string>& question_kinds();

// Questions and probes per kind, from the plan (findings 0).
std::vector<QuestionCount> question_counts(const AuditPlan& plan);

// The kind of question a finding answers, from its id ("toolkit-accepts/negative-space/B/order").
std::string question_kind_of_finding(const std::string& id);

// Adds each finding to its kind's count.
void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings);

}  // namespace ptxcts

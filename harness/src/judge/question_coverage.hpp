// Coverage, by kind of question (judge/question_kind.hpp): how many questions of each kind the
// audit asks (and in how many probes: the same question on several targets is one question per
// target for the grammar and the examples, one for a form's negative space), and how many findings
// each kind gave, so that a report shows what was asked as well as what was found.
#pragma once

#include <map>
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

// Per syntax block and kind of question: how many questions its forms were asked, of how many of
// its documented forms, and how the rest were covered (judge/form_classes.hpp): forms that asked the
// kind's questions for themselves, forms a class's checked equivalence covers, of which sampled.
struct BlockCoverage {
  std::string block;
  QuestionKind kind = QuestionKind::GrammarForms;
  std::size_t questions = 0;  // asked of the block's forms (once each, the first target's)
  std::size_t forms = 0;      // the block's documented forms
  std::size_t asked = 0;      // forms that asked the kind's questions for themselves
  std::size_t classes = 0;    // classes of two or more forms whose heads asked its wider questions
  std::size_t by_class = 0;   // forms (not heads) whose wider questions their class's checked equivalence covers
  std::size_t sampled = 0;    // of those, asked a seeded sample (the rest take the head's verdicts)
  std::string how;            // in words: "every form", "3 of 24 forms, the heads of its classes; ..."
};
std::vector<BlockCoverage> block_coverage(const AuditPlan& plan);

// Questions and probes per kind (every kind, in question_kinds()' order), from the plan (findings 0).
std::vector<QuestionCount> question_counts(const AuditPlan& plan);

// Adds each finding to its kind's count (Finding::question).
void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings);

}  // namespace ptxcts

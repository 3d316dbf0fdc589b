// What every kind of question's judge (judge/questions/) shares while the audit is judged: the
// suite, the plan and the probes' verdicts, the audit being written, the findings gathered by id
// (each with the kind of question that found it), the known discrepancies used and the version
// ladders' readings. judge/audit.cpp owns the state; each question's judge gets an AuditContext.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "judge/audit.hpp"

namespace ptxcts {

// What ptxas said, in one line: its first error (else first) line, without the file and line prefix.
std::string said(const std::string& message);
// "accepted", or "rejected: " and what ptxas said.
std::string accepted_or(const ProbeVerdict& v);
// ptxas says so when a feature needs a newer PTX ISA version (rather than a target the version does not know).
bool names_version_requirement(const std::string& message);

// Findings gathered by id, in the order first seen.
struct Findings {
  std::vector<Finding> list;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::set<std::string>> forms, targets;
  // By the id of the finding a question would give: how many were asked, and each form's targets (its bound).
  std::map<std::string, std::size_t> asked_questions;
  std::map<std::string, std::map<std::string, std::set<std::string>>> asked_targets;

  // The finding of this id (made, of this kind of question and class, if it is the first).
  Finding& at(QuestionKind question, const std::string& id, FindingClass cls, bool undocumented,
              const std::string& subject, const std::string& words, const std::string& source);
  // One more form (on a target, "" : none) it covers; the first form and observation stay.
  void saw(Finding& f, const std::string& form, const std::string& target, const std::string& observed);
  // A question that, answered against the documents, gives the finding of this id: its form (as
  // saw() names it) on this target, and (`counted`) a question of its own rather than one asked
  // again on another target.
  void asked(const std::string& id, const std::string& form, const std::string& target, bool counted);
  // Each finding's targets, in this order (then those the toolkit does not know); its extent.
  void finish(const std::vector<std::string>& order);
};

// What judging writes besides the audit: the findings, the known discrepancies used, and the
// version findings whose forms were asked at every version (finding id -> what the ladder said -> forms).
struct AuditState {
  Findings findings{};
  std::set<const KnownDiscrepancy*> used{};
  std::map<std::string, std::map<std::string, std::size_t>> ladders{};
};

// A view of the audit being judged; a question's judge derives from it to keep its own steps.
struct AuditContext {
  const Suite& suite;
  const AuditPlan& plan;
  const std::vector<ProbeVerdict>& v;
  Audit& audit;
  Findings& findings;
  std::set<const KnownDiscrepancy*>& used;
  std::map<std::string, std::map<std::string, std::size_t>>& ladders;

  const ProbeVerdict& verdict(const OnTarget& on) const { return v[on.probe]; }
  // Whether ptxas gave a verdict; records the failure otherwise.
  bool decided(const OnTarget& on, const std::string& what);
  // The known discrepancy of a variant's targets that explains this verdict on this target, if any.
  const KnownDiscrepancy* known_for(const std::string& variant, const std::string& target, bool accepted) const;
};

}  // namespace ptxcts

// Register types per fragment table row (QuestionKind::FragmentRegisterTypes, judge/register_types.hpp):
// a finding only where ptxas refuses the row's own type, or accepts a type that neither the row
// nor PTX's type-checking rules allow; what it does with the types the rules allow, or leave open,
// is observed, per block, as a statement of verdict `observed` (never a finding).
#include "judge/questions/questions.hpp"

#include <fmt/format.h>

#include <map>

#include "judge/register_types.hpp"

namespace ptxcts {
namespace {

struct RuleTally {
  std::size_t accepted = 0, refused = 0;
  std::string first_accepted, first_refused;
};

struct RegisterTypes : AuditContext {
  std::map<std::pair<std::string, TypeRule>, RuleTally> tallies{};  // block, rule

  std::string finding_id(const std::string& block, bool refused) const {
    return fmt::format("toolkit-{}/fragment-register-type/{}", refused ? "rejects" : "accepts", block);
  }

  void judge_one(const MutationSubject& ms) {
    const GrammarBlock& b = *plan.grammar[ms.of].cc.combo.block;
    const TypeRule rule = rule_of(*ms.m);
    const std::string form = ms.instruction + "   (" + ms.m->detail + ")";
    if (rule == TypeRule::Documented || rule == TypeRule::Forbidden)
      findings.asked_questions[finding_id(b.id, rule == TypeRule::Documented)] += 1;
    if (!decided(ms.on, ms.instruction)) return;
    const ProbeVerdict& pv = verdict(ms.on);
    RuleTally& t = tallies[{b.id, rule}];
    (pv.accepted ? t.accepted : t.refused)++;
    std::string& first = pv.accepted ? t.first_accepted : t.first_refused;
    if (first.empty()) first = form + (pv.accepted ? "" : ": " + said(pv.message));
    const bool refused_documented = rule == TypeRule::Documented && !pv.accepted;
    const bool accepted_forbidden = rule == TypeRule::Forbidden && pv.accepted;
    if (!refused_documented && !accepted_forbidden) return;
    Finding& f = findings.at(QuestionKind::FragmentRegisterTypes, finding_id(b.id, refused_documented),
                             refused_documented ? FindingClass::ToolkitRejects : FindingClass::ToolkitAccepts, false,
                             b.id + " register types by fragment table row", ms.m->words, ms.m->source);
    findings.saw(f, form, ms.on.target, accepted_or(pv));
  }

  // Per block and rule: how many were accepted and refused; confirmed or contradicted where the
  // documents decide (the row's type, a forbidden type), observed where they do not.
  void statements() {
    for (auto const& [key, t] : tallies) {
      auto const& [block, rule] = key;
      const bool decides = rule == TypeRule::Documented || rule == TypeRule::Forbidden;
      const std::size_t bad = rule == TypeRule::Documented ? t.refused : t.accepted;
      StatementVerdict s{
          .id = fmt::format("{}/fragment-register-type/{}", block, to_string(rule)),
          .kind = "fragment-register-type",
          .family = "",
          .words = fmt::format("{}: registers of the type a fragment table row states, or another type {}", block,
                               to_string(rule)),
          .source = rule == TypeRule::Documented ? "the fragment tables (specs' register_claims)" : kTypeRulesSource,
          .verdict = !decides ? Verdict::Observed : bad ? Verdict::Contradicted : Verdict::Confirmed,
          .evidence = fmt::format("{} accepted, {} refused{}{}", t.accepted, t.refused,
                                  t.first_accepted.empty() ? "" : "; accepted: " + t.first_accepted,
                                  t.first_refused.empty() ? "" : "; refused: " + t.first_refused),
          .forms = t.accepted + t.refused};
      for (auto const& b : suite.specs.grammar)
        if (b.id == block) s.family = b.family;
      audit.statements.push_back(std::move(s));
    }
  }
};

}  // namespace

void judge_register_types(AuditContext& cx) {
  RegisterTypes r{cx};
  for (auto const& ms : cx.plan.mutations)
    if (ms.m->kind == kFragmentRegisterType) r.judge_one(ms);
  r.statements();
}

}  // namespace ptxcts

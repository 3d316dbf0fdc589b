#include "judge/question_coverage.hpp"

#include "judge/audit.hpp"

namespace ptxcts {

std::vector<QuestionCount> question_counts(const AuditPlan& plan) {
  using enum QuestionKind;
  std::vector<QuestionCount> counts;
  for (auto const& k : question_kinds()) counts.push_back({.kind = k.kind, .questions = 0, .probes = 0, .findings = 0});
  auto ask = [&](QuestionKind kind, std::size_t n) {
    QuestionCount& c = counts[static_cast<std::size_t>(kind)];
    c.questions += n;
    c.probes += n;
  };
  for (auto const& g : plan.grammar) ask(g.cc.doc == DocClass::Valid ? GrammarForms : InvalidCombinations, g.on.size());
  for (auto const& m : plan.mutations) ask(m.question(), 1);
  for (auto const& e : plan.examples) ask(ManualExamples, e.on.size());
  for (auto const& r : plan.register_claims) ask(RegisterCounts, r.on ? 1 : 0);
  for (auto const& r : plan.register_minimums) ask(RegisterCounts, (r.below ? 1 : 0) + (r.at ? 1 : 0));
  for (auto const& v : plan.versions) ask(PtxVersions, (v.at ? 1 : 0) + (v.below ? 1 : 0));
  for (auto const& t : plan.target_versions) ask(PtxVersions, (t.at ? 1 : 0) + (t.below ? 1 : 0));
  if (plan.toolkit_version) ask(PtxVersions, 2);
  for (auto const& f : plan.forms) ask(HandListedForms, f.on ? 1 : 0);
  return counts;
}

void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings) {
  for (auto const& f : findings)
    for (auto& c : counts)
      if (c.kind == f.question) ++c.findings;
}

}  // namespace ptxcts

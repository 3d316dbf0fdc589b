#include "judge/question_coverage.hpp"

#include <algorithm>

#include "judge/audit.hpp"

namespace ptxcts {

const std::vector<std::string>& question_kinds() {
  static const std::vector<std::string> kinds = {
      "grammar forms x targets",   "address widths",  "register types",  "qualifier orders",
      "manual examples",           "invalid combinations", "address modes", "invalid values and state spaces",
      "register counts",           "operand forms",   "element type x shape",
      "negative space on other targets", "PTX ISA versions", "hand-listed forms", "fragment formulas"};
  return kinds;
}

std::vector<QuestionCount> question_counts(const AuditPlan& plan) {
  std::vector<QuestionCount> counts;
  for (auto const& k : question_kinds()) counts.push_back({.kind = k, .questions = 0, .probes = 0, .findings = 0});
  auto at = [&](const std::string& kind) -> QuestionCount& {
    return *std::find_if(counts.begin(), counts.end(), [&](const QuestionCount& c) { return c.kind == kind; });
  };
  auto ask = [&](const std::string& kind, std::size_t n) {
    at(kind).questions += n;
    at(kind).probes += n;
  };
  for (auto const& g : plan.grammar)
    ask(g.cc.doc == DocClass::Valid ? "grammar forms x targets" : "invalid combinations", g.on.size());
  for (auto const& m : plan.mutations) ask(m.home ? question_kind_of(m.m) : "negative space on other targets", 1);
  for (auto const& e : plan.examples) ask("manual examples", e.on.size());
  for (auto const& r : plan.register_claims) ask("register counts", r.on ? 1 : 0);
  for (auto const& v : plan.versions) ask("PTX ISA versions", (v.at ? 1 : 0) + (v.below ? 1 : 0));
  for (auto const& t : plan.target_versions) ask("PTX ISA versions", (t.at ? 1 : 0) + (t.below ? 1 : 0));
  if (plan.toolkit_version) ask("PTX ISA versions", 2);
  for (auto const& f : plan.forms) ask("hand-listed forms", f.on ? 1 : 0);
  return counts;
}

std::string question_kind_of_finding(const std::string& id) {
  auto has = [&](const char* part) { return id.find(part) != std::string::npos; };
  if (has("/negative-space/")) {
    const std::string kind = id.substr(id.rfind('/') + 1);
    return question_kind_of({.kind = kind, .detail = "", .text = "", .shape = {}, .expected = DocClass::Undocumented,
                             .words = "", .source = ""});
  }
  if (has("/requirement/")) return has("/ptx-") ? "PTX ISA versions" : "grammar forms x targets";
  if (has("/target-version/") || has("/toolkit-version/")) return "PTX ISA versions";
  if (has("/example/")) return "manual examples";
  if (has("/register-count/")) return "register counts";
  if (has("/form/") || has("/spelling/")) return "hand-listed forms";
  if (has("/formula/") || has("/sparse-")) return "fragment formulas";
  if (id.rfind("toolkit-rejects/syntax/", 0) == 0) return "grammar forms x targets";
  return "invalid combinations";  // rules, syntax blocks (undocumented combinations, documents disagreeing)
}

void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings) {
  for (auto const& f : findings) {
    const std::string kind = question_kind_of_finding(f.id);
    for (auto& c : counts)
      if (c.kind == kind) ++c.findings;
  }
}

}  // namespace ptxcts

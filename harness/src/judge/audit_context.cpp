#include "judge/audit_context.hpp"

#include "judge/form_ranges.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ptxcts {

std::string said(const std::string& message) {
  std::size_t at = message.find("error");
  std::size_t start = at == std::string::npos ? 0 : message.rfind('\n', at);
  start = start == std::string::npos || at == std::string::npos ? 0 : start + 1;
  std::string line = message.substr(start, message.find('\n', start) - start);
  if (auto semi = line.find("; "); line.rfind("ptxas ", 0) == 0 && semi != std::string::npos) line.erase(0, semi + 2);
  return line;
}

std::string accepted_or(const ProbeVerdict& v) { return v.accepted ? "accepted" : "rejected: " + said(v.message); }

bool names_version_requirement(const std::string& message) {
  return message.find("requires PTX ISA") != std::string::npos;
}

Finding& Findings::at(QuestionKind question, const std::string& id, FindingClass cls, bool undocumented,
                      const std::string& subject, const std::string& words, const std::string& source) {
  auto [it, fresh] = index.emplace(id, list.size());
  if (fresh)
    list.push_back({.id = id,
                    .cls = cls,
                    .undocumented = undocumented,
                    .subject = subject,
                    .words = words,
                    .source = source,
                    .observed = "",
                    .targets = {},
                    .forms = 0,
                    .example = "",
                    .known = nullptr,
                    .question = question});
  return list[it->second];
}

void Findings::saw(Finding& f, const std::string& form, const std::string& target, const std::string& observed) {
  if (f.example.empty()) f.example = form;
  if (f.observed.empty()) f.observed = observed;
  forms[f.id].insert(form);
  if (!target.empty()) targets[f.id].insert(target);
  f.forms = forms[f.id].size();
}

void Findings::asked(const std::string& id, const std::string& form, const std::string& target, bool counted) {
  asked_questions[id] += counted;
  asked_targets[id][form].insert(target);
}

void Findings::finish(const std::vector<std::string>& order) {
  for (auto& f : list) {
    std::set<std::string> asked_on;  // where a form it holds for was asked
    for (auto const& form : forms[f.id])
      if (auto a = asked_targets[f.id].find(form); a != asked_targets[f.id].end()) asked_on.insert(a->second.begin(), a->second.end());
    for (auto const& t : order) {
      if (targets[f.id].count(t)) f.targets.push_back(t);
      else if (asked_on.count(t)) f.not_on.push_back(t);
    }
    f.form_ranges = form_ranges(forms[f.id]);
    f.asked = asked_questions[f.id];
  }
  for (auto& f : list)  // targets the toolkit does not know (sm_70 probes)
    for (auto const& t : targets[f.id])
      if (std::find(f.targets.begin(), f.targets.end(), t) == f.targets.end()) f.targets.push_back(t);
}

bool AuditContext::decided(const OnTarget& on, const std::string& what) {
  const ProbeVerdict& pv = verdict(on);
  if (pv.error.empty()) return true;
  audit.errors.push_back(fmt::format("{} on {}: {}", what, on.target, pv.error));
  return false;
}

const KnownDiscrepancy* AuditContext::known_for(const std::string& variant, const std::string& target,
                                                bool accepted) const {
  for (auto const& k : suite.specs.known_discrepancies)
    if (k.form.empty() && k.finding.empty() && k.variant == variant && k.target == target &&
        k.observed_accepted == accepted)
      return &k;
  return nullptr;
}

}  // namespace ptxcts

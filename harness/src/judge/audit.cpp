#include "judge/audit.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <regex>

#include "judge/audit_context.hpp"
#include "judge/questions/questions.hpp"
#include "judge/sentence_counts.hpp"
#include "judge/target_agreement.hpp"

namespace ptxcts {

const char* to_string(FindingClass c) {
  switch (c) {
    case FindingClass::DocumentError: return "document error";
    case FindingClass::DocumentsDisagree: return "documents disagree with each other";
    case FindingClass::ToolkitAccepts: return "toolkit accepts what the documents forbid or do not list";
    case FindingClass::ToolkitRejects: return "toolkit rejects what the documents allow";
  }
  return "";
}

const char* finding_class_id(FindingClass c) {
  switch (c) {
    case FindingClass::DocumentError: return "document-error";
    case FindingClass::DocumentsDisagree: return "documents-disagree";
    case FindingClass::ToolkitAccepts: return "toolkit-accepts";
    case FindingClass::ToolkitRejects: return "toolkit-rejects";
  }
  return "";
}

namespace {
// Each pattern compiled once: a std::regex takes longer to build than to run, and a warm audit
// classifies thousands of lines (compiling the same few patterns again was 3% of its instructions).
const std::regex& compiled_pattern(const std::string& pattern) {
  static std::mutex lock;
  static std::map<std::string, std::regex> made;  // its elements stay where they are as it grows
  std::lock_guard<std::mutex> hold(lock);
  auto it = made.find(pattern);
  if (it == made.end()) it = made.emplace(pattern, std::regex(pattern)).first;
  return it->second;
}
}  // namespace

std::string classify_diagnostic(const SpecSet& specs, const std::string& message) {
  for (auto const& d : specs.diagnostics)
    for (auto const& p : d.patterns)
      if (std::regex_search(message, compiled_pattern(p))) return d.name;
  return "";
}

int Audit::contradictions() const {
  int n = 0;
  for (auto const& f : findings) n += f.fails();
  return n;
}

Audit judge_audit(const Suite& suite, const AuditPlan& plan, const std::vector<ProbeVerdict>& verdicts) {
  Audit audit;
  audit.ptxas_version = plan.ptxas_version;
  audit.cuda_release = plan.cuda_release;
  audit.toolkit_ptx = plan.toolkit_ptx;
  audit.targets = plan.targets;
  audit.ptxas_targets = plan.ptxas_targets;
  audit.documents = suite.specs.documents;
  audit.probes = plan.probes.size();
  AuditState state;
  AuditContext cx{.suite = suite,
                  .plan = plan,
                  .v = verdicts,
                  .audit = audit,
                  .findings = state.findings,
                  .used = state.used,
                  .ladders = state.ladders};
  for (auto const& q : question_judges()) q.judge(cx);
  for (auto& s : target_agreement(plan, verdicts)) audit.statements.push_back(std::move(s));
  state.findings.finish(plan.targets);
  for (auto& f : state.findings.list) {
    for (auto const& k : suite.specs.known_discrepancies)
      if (k.finding == f.id) {
        f.known = &k;
        state.used.insert(&k);
      }
    audit.findings.push_back(std::move(f));
  }
  std::stable_sort(audit.findings.begin(), audit.findings.end(),
                   [](auto const& a, auto const& b) { return a.cls < b.cls; });
  audit.coverage = question_counts(plan);
  count_findings(audit.coverage, audit.findings);
  audit.block_coverage = block_coverage(plan);
  for (auto const& k : suite.specs.known_discrepancies)
    if (!state.used.count(&k)) audit.unused_known.push_back(&k);
  std::sort(audit.errors.begin(), audit.errors.end());
  audit.errors.erase(std::unique(audit.errors.begin(), audit.errors.end()), audit.errors.end());
  audit.sentences = count_sentences(suite.specs, judged_by_audit(audit));
  return audit;
}

}  // namespace ptxcts

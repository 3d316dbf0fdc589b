// The toolkit-side audit: every documented requirement (targets, PTX ISA versions) and every
// documented-invalid form, judged against what ptxas did for every target it knows; undocumented
// spellings recorded as observations. Needs no GPU.
#pragma once

#include <string>
#include <vector>

#include "assemble/catalog.hpp"
#include "plan/suite.hpp"
#include "results/results.hpp"

namespace ptxcts {

struct RequirementVerdict {
  std::string variant, family;
  std::string requirement;  // "targets" or "ptx X.Y"
  std::string documented;   // what the spec says, e.g. ">= sm_90" or "PTX ISA 7.8 (.shared::cta)"
  std::string source;
  Verdict verdict = Verdict::NotCheckable;
  std::string evidence;
  std::vector<std::string> mismatches;  // "form on target: documented X, ptxas Y (message)"
  std::vector<std::string> known;       // mismatches a known discrepancy explains (with its source)
  bool explained() const { return verdict == Verdict::Contradicted && mismatches.empty() && !known.empty(); }
};

struct FormVerdict {
  const AuditForm* form = nullptr;
  const FormAssembly* assembly = nullptr;   // null: the toolkit does not know the form's target
  Verdict verdict = Verdict::NotCheckable;  // spellings: always not-checkable (an observation)
  std::string diagnostic_seen;              // the class ptxas's message fell in, if any
  std::string evidence;
  const KnownDiscrepancy* known = nullptr;  // a contradiction the specs record as known
};

struct Audit {
  std::vector<RequirementVerdict> requirements;
  std::vector<FormVerdict> forms;
  int contradictions() const;  // requirement and invalid-form contradictions not explained by a known discrepancy
  std::vector<const KnownDiscrepancy*> unused_known;  // recorded, but no longer observed
};

Audit run_audit(const Suite& suite, const Catalog& catalog);

// The class (from specs/diagnostics.yaml) a ptxas message falls in, or "" if none.
std::string classify_diagnostic(const SpecSet& specs, const std::string& message);

}  // namespace ptxcts

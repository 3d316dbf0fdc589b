// Gives every claim of the specs a verdict, from the run's results (cases, round trips) and from
// the audit of the catalog's assemblies (requirements), with the evidence.
#pragma once

#include <vector>

#include "assemble/catalog.hpp"
#include "judge/audit.hpp"
#include "plan/suite.hpp"
#include "results/results.hpp"
#include "run/runner.hpp"

namespace ptxcts {

// `audit`: the catalog's verdicts (run_audit), which requirement claims rest on; computed once by
// the caller. `results` may be empty (no GPU): case-based claims are then not checkable, with
// `no_gpu_reason`.
std::vector<ClaimVerdict> evaluate_claims(const Suite& suite, const Audit& audit,
                                          const std::vector<CaseResult>& results,
                                          const std::string& no_gpu_reason = "");

// The failing cases of a contradicted hypothesis (Claim::hypothesis) made known: a finding about the
// suite's reading of a figure, which the claim reports; what the GPU did stays in each case's diff.
// Only wrong values, and only where the claim is contradicted (evaluate_claims: where no other case
// of the family needs action); a case that crashed, hung or errored still needs action.
void mark_hypothesis_findings(const Suite& suite, const std::vector<ClaimVerdict>& claims,
                              std::vector<CaseResult>& results);

}  // namespace ptxcts

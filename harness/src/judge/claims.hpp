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

}  // namespace ptxcts

// Whether the negative space is judged alike on every target that supports a form: per syntax
// block, the sample of its representative's questions asked again on every other supporting
// target (judge/audit_plan.hpp, MutationSubject::home false), compared with the verdicts on the
// first target. A statement per block: confirmed where every verdict is the same, contradicted
// (with the first difference) where one is not.
#pragma once

#include <vector>

#include "judge/audit.hpp"

namespace ptxcts {

std::vector<StatementVerdict> target_agreement(const AuditPlan& plan, const std::vector<ProbeVerdict>& verdicts);

}  // namespace ptxcts

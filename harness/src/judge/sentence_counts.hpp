// The sentence inventory (spec/sentences) counted per section for one report: which of the ids a
// sentence names this report judged. An audit judges ptxas's statements (statements, requirements
// and hand-listed forms with a verdict); a run judges those and the GPU's (claims with a verdict,
// variants whose cases ran). A claim checked by `requirements` is judged where its variant's
// requirements are.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "judge/audit.hpp"
#include "plan/suite.hpp"
#include "results/results.hpp"
#include "results/sentence_counts.hpp"

namespace ptxcts {

struct JudgedIds {
  std::set<std::string> ptxas, gpu;
};

// What an audit judged: ids of statements and hand-listed forms confirmed or contradicted, and the
// variants whose requirements were.
JudgedIds judged_by_audit(const Audit& audit);

// What a run judged: its audit's, the claims with a verdict (confirmed, contradicted, observed), and
// the variants of the kernels that have a case passed or failed.
JudgedIds judged_in_run(const Suite& suite, const Audit& audit, const std::vector<ClaimVerdict>& claims,
                        const std::vector<CaseResult>& results);

// Per section of the inventory, in its order; a sentence mapped to statements of which none is judged
// here counts `elsewhere`.
std::vector<SentenceCount> count_sentences(const SpecSet& specs, const JudgedIds& judged);

}  // namespace ptxcts

// A run's page, <report name>.html: one self-contained file people read. In order: the run (GPU,
// driver, toolkit, commit, date); Findings and failures (contradicted claims, failed cases with
// their diffs and evidence); the claims with their verdicts; the matrix of forms x targets
// (accepted / rejected by ptxas, runs / passes on the GPU), filterable by family and text; the
// fragment layouts (the spec's, and what the GPU did for wmma); then per kernel its cases, collapsed.
#pragma once

#include <string>

#include "judge/toolkit_matrix.hpp"
#include "report/layout_svg.hpp"
#include "results/results.hpp"

namespace ptxcts {

struct RunPageInputs {
  const SpecLayouts* layouts = nullptr;  // the spec's figures; none drawn without
  // The audit of the same toolkit (as report/audit/audit_report_reader reads it): the matrix then has every
  // target it asked ptxas about.
  const AuditSummary* audit = nullptr;
};

std::string report_html(const RunReport& report, const RunPageInputs& in = {});

}  // namespace ptxcts

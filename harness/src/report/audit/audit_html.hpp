// The audit's page, audit-cuda<release>.html, from the report as its reader gives it back
// (report/audit/audit_report_reader): the toolkit; the Findings by class
// (the documents' words, what ptxas did, on which targets); the documents' statements with their
// verdicts; the matrix of the grammar's forms x targets (accepted / rejected), filterable; the
// requirements, the hand-listed forms and the counts.
#pragma once

#include <string>

#include "judge/toolkit_matrix.hpp"

namespace ptxcts {

std::string audit_html(const AuditSummary& audit);

}  // namespace ptxcts

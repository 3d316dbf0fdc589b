// Reading an audit report back (reports/audit-cuda<release>.json, schema 2 to 5, "kind": "audit" or
// none, as report/audit/audit_report writes it): what the toolkit matrix and `ptxcts diff` of two audits
// need, checked as strictly as the other readers: every key known, every type, every grammar row's
// verdicts one per target, and an error names FILE:LINE:COLUMN and what was expected
// (util/json_document).
#pragma once

#include <string>

#include "judge/toolkit_matrix.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// The newest read; 2 lacks run.ptxas_targets, 3 coverage, 4 each finding's and coverage row's "question",
// 5 each finding's extent (form_ranges, asked, not_on) and the coverage per block (coverage_blocks).
inline constexpr int kAuditReportSchema = 6;

// Throws JsonInputError for anything that is not an audit report of this schema.
AuditSummary read_audit_report(const JsonDocument& doc);
AuditSummary parse_audit_report(const std::string& text, const std::string& file);

}  // namespace ptxcts

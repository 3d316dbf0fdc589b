// The toolkit matrix's reports (reports/toolkits.{json,md}: every claim, requirement and form side
// by side, columns by CUDA release, opening with what changed between consecutive releases) and
// `ptxcts diff` of two audit reports.
#pragma once

#include <filesystem>
#include <string>

#include "judge/toolkit_matrix.hpp"
#include "report/audit/audit_report.hpp"
#include "report/toolkits/sass_report.hpp"

namespace ptxcts {

// `sass`: the toolkits' SASS reports (report/toolkits/sass_report), ordered by release, where there are
// any: what the code became and what changed between releases joins the matrix.
std::string matrix_json(const ToolkitMatrix& m, const AuditRun& run, const std::vector<SassReport>& sass = {});
std::string matrix_markdown(const ToolkitMatrix& m, const AuditRun& run, const std::vector<SassReport>& sass = {});
// Writes PREFIX.json, PREFIX.md and the page PREFIX.html atomically; returns the JSON's path.
std::filesystem::path write_matrix_files(const ToolkitMatrix& m, const AuditRun& run,
                                         const std::filesystem::path& prefix, const std::vector<SassReport>& sass = {});
// The same as toolkits.{json,md,html} in `dir`.
std::filesystem::path write_matrix_reports(const ToolkitMatrix& m, const AuditRun& run,
                                           const std::filesystem::path& dir, const std::vector<SassReport>& sass = {});

// What changed from one audit to another, a line per change, then the counts.
std::string format_audit_diff(const PairChanges& c, const AuditSummary& before, const AuditSummary& after);
// Whether the later audit has a finding that fails the audit and the earlier one lacks.
bool audit_regressed(const PairChanges& c, const AuditSummary& after);

}  // namespace ptxcts

// The audit's reports: reports/audit-cuda<release>.json (for tools: every probe's verdict) and .md
// (Findings first, by class; then the counts, the documents' statements, the requirements).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "judge/audit.hpp"

namespace ptxcts {

struct AuditRun {
  std::string host, date, suite_version, suite_commit;
};

std::string audit_json(const Audit& audit, const AuditPlan& plan, const std::vector<ProbeVerdict>& verdicts,
                       const AuditRun& run);
std::string audit_markdown(const Audit& audit, const AuditRun& run);
// The audit report of a CUDA release in `dir`, with `extension` (".json", ".md", ".html").
std::filesystem::path audit_report_path(const std::filesystem::path& dir, const std::string& cuda_release,
                                        const std::string& extension);
// Writes the JSON, the Markdown and the page (.html) atomically and returns the path of the JSON one.
std::filesystem::path write_audit_reports(const Audit& audit, const AuditPlan& plan,
                                          const std::vector<ProbeVerdict>& verdicts, const AuditRun& run,
                                          const std::filesystem::path& dir);

}  // namespace ptxcts

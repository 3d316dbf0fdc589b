// The audit's reports: reports/audit-cuda<release>.json (for tools) and .md (findings first).
#pragma once

#include <filesystem>
#include <string>

#include "judge/audit.hpp"

namespace ptxcts {

struct AuditRun {
  std::string host, date, suite_version, suite_commit;
};

std::string audit_json(const Audit& audit, const Suite& suite, const Catalog& catalog, const AuditRun& run);
std::string audit_markdown(const Audit& audit, const Suite& suite, const Catalog& catalog, const AuditRun& run);
// Writes both files atomically and returns the path of the JSON one.
std::filesystem::path write_audit_reports(const Audit& audit, const Suite& suite, const Catalog& catalog,
                                          const AuditRun& run, const std::filesystem::path& dir);

}  // namespace ptxcts

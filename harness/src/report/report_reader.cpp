#include "report/report_reader.hpp"

#include <fmt/format.h>

#include "report/audit/audit_report_reader.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

JsonDocument open_report(const std::filesystem::path& path) {
  auto text = try_read_file_text(path, kMaxInputFileBytes);
  if (!text) throw ReportError(path.string() + ": cannot read this report");
  return JsonDocument(std::move(*text), path.string());
}

std::optional<JsonDocument> try_open_report(const std::filesystem::path& path) {
  for (const std::filesystem::path& file : {path, std::filesystem::path(path.string() + ".gz")})
    if (auto text = try_read_file_text(file, kMaxInputFileBytes)) return JsonDocument(std::move(*text), file.string());
  return std::nullopt;
}

AnyReport read_report(const JsonDocument& doc) {
  switch (const ReportKind kind = read_report_kind(doc)) {
    case ReportKind::Run: return read_run_report(doc);
    case ReportKind::Audit: return read_audit_report(doc);
    case ReportKind::ToolkitMatrix: return read_matrix_file(doc);
    case ReportKind::Sass: return read_sass_report(doc);
    case ReportKind::Fleet:
      doc.fail("", fmt::format("{}: written by `ptxcts merge` for people and scripts, never read back by ptxcts",
                               report_kind_noun(kind)));
  }
  doc.fail("", "a report of no kind this build knows");  // unreachable: every kind is handled above
}

AnyReport read_report(const std::filesystem::path& path) { return read_report(open_report(path)); }

RunReport read_run_report_file(const std::filesystem::path& path) { return read_run_report(open_report(path)); }
AuditSummary read_audit_report_file(const std::filesystem::path& path) { return read_audit_report(open_report(path)); }
MatrixFile read_matrix_report_file(const std::filesystem::path& path) { return read_matrix_file(open_report(path)); }
SassReport read_sass_report_file(const std::filesystem::path& path) { return read_sass_report(open_report(path)); }

std::optional<ReportKind> report_file_kind(const std::filesystem::path& path) {
  try {
    return read_report_kind(open_report(path));
  } catch (const JsonInputError&) { return std::nullopt; }
}

}  // namespace ptxcts

// Every report read one way: the file opened once (plain, or gzip-compressed where its name ends in
// .gz; at most kMaxInputFileBytes) into a util/json_document, so that every error is
// FILE:LINE:COLUMN: what was expected; its kind told by results/report_kind (its "kind", else the one
// legacy rule); and read by that kind's strict reader. No reader guesses a report's kind from its
// other keys, and none reads a report twice.
#pragma once

#include <filesystem>
#include <optional>
#include <variant>

#include "judge/toolkit_matrix.hpp"
#include "report/toolkits/sass_report.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "report/run/report_json.hpp"
#include "results/report_kind.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// The file as a document. Throws ReportError "PATH: cannot read this report" where it cannot be
// opened, and the document's own errors (invalid JSON, too deep, a duplicate key), placed.
JsonDocument open_report(const std::filesystem::path& path);
// `path`, else `path`.gz (a committed report beside others is compressed); nullopt where neither is.
std::optional<JsonDocument> try_open_report(const std::filesystem::path& path);

// A report of any kind this build reads back, as its kind says. A fleet report is written, never
// read back: it is refused, saying so.
using AnyReport = std::variant<RunReport, AuditSummary, MatrixFile, SassReport>;
AnyReport read_report(const JsonDocument& doc);
AnyReport read_report(const std::filesystem::path& path);

// A report of the kind the caller wants: one that says another kind is refused at its "kind",
// naming both; one without "kind" is read as the kind wanted. Throws ReportError.
RunReport read_run_report_file(const std::filesystem::path& path);
AuditSummary read_audit_report_file(const std::filesystem::path& path);
MatrixFile read_matrix_report_file(const std::filesystem::path& path);
SassReport read_sass_report_file(const std::filesystem::path& path);

// The kind of the report at `path` (its "kind", else the legacy rule's), for a command that is given
// reports of either kind (`ptxcts diff`, `ptxcts merge`); nullopt where it cannot be read or says no
// kind the rule knows: the reader the command then picks says why.
std::optional<ReportKind> report_file_kind(const std::filesystem::path& path);

}  // namespace ptxcts

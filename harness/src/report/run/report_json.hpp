// The JSON report: the machine-readable record of a run (reports/README.md describes the format as
// of schema 3; README.md, under Results, the `withdrawn` list schema 4 adds).
// The Markdown and JUnit reports are views of the same RunReport.
#pragma once

#include <span>
#include <string>

#include "results/results.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// A report that cannot be read: what() is "FILE:LINE:COLUMN: PATH: what was expected" (or "FILE: cannot
// read this report"). The readers read with util/json_document, whose error this is.
using ReportError = JsonInputError;

std::string report_json(const RunReport& report);

// One result as a line of JSON, and back (for the run's journal); errors name file:line.
std::string case_result_json_line(const CaseResult& r);
CaseResult parse_case_result_line(const std::string& line, const std::string& file, int line_number);
// One claim's verdict and a run's SASS as a line of JSON, and back (the history keeps a report in such
// parts, each stored once: history/history_store); errors name file:line.
std::string claim_json_line(const ClaimVerdict& c);
ClaimVerdict parse_claim_line(const std::string& line, const std::string& file, int line_number);
std::string sass_json_line(const RunSass& s);
RunSass parse_sass_line(const std::string& line, const std::string& file, int line_number);
// A run report ("kind": "run", or none: every schema from 2 on); one of another kind is refused at its "kind".
RunReport read_run_report(const JsonDocument& doc);                             // throws ReportError
RunReport parse_report_json(const std::string& text, const std::string& file);  // throws ReportError

// RunInfo's fields under their JSON names, in report order: every writer lists the run the same way.
struct RunInfoField {
  const char* key;
  std::string RunInfo::*member;
};
std::span<const RunInfoField> run_info_fields();

}  // namespace ptxcts

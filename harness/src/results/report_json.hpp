// The JSON report: the machine-readable record of a run (reports/README.md describes the format as
// of schema 3; README.md, under Results, the `withdrawn` list schema 4 adds).
// The Markdown and JUnit reports are views of the same RunReport.
#pragma once

#include <span>
#include <stdexcept>
#include <string>

#include "results/results.hpp"

namespace ptxcts {

// A report that cannot be read: what() is "FILE:LINE:COLUMN: PATH: what was expected".
struct ReportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string report_json(const RunReport& report);

// One result as a line of JSON, and back (for the run's journal); errors name file:line.
std::string case_result_json_line(const CaseResult& r);
CaseResult parse_case_result_line(const std::string& line, const std::string& file, int line_number);
RunReport parse_report_json(const std::string& text, const std::string& file);  // throws ReportError

// RunInfo's fields under their JSON names, in report order: every writer lists the run the same way.
struct RunInfoField {
  const char* key;
  std::string RunInfo::*member;
};
std::span<const RunInfoField> run_info_fields();

}  // namespace ptxcts

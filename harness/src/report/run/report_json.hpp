// The JSON report: the machine-readable record of a run (reports/README.md describes the format as
// of schema 3; README.md, under Results, the `withdrawn` list schema 4 adds).
// The Markdown and JUnit reports are views of the same RunReport.
#pragma once

#include <span>
#include <string>

#include "results/report_parts.hpp"
#include "results/results.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// The report's parts (a case result, a claim's verdict, the SASS) and ReportError: results/report_parts.
std::string report_json(const RunReport& report);

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

// A run report's parts as JSON, each read as strictly as the whole report: a case result, a claim's
// verdict, the run's SASS. The run report (report/run/report_json) is made of them; the run's journal
// (run/journal) and the history (history/history_store) keep them one per line of JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "results/results.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// A report that cannot be read: what() is "FILE:LINE:COLUMN: PATH: what was expected" (or "FILE: cannot
// read this report"). The readers read with util/json_document, whose error this is.
using ReportError = JsonInputError;

// Each part as the report's JSON object, and back (`schema`: the report's schema_version, which
// decides which verdicts a claim may have).
nlohmann::ordered_json case_result_json(const CaseResult& r);
CaseResult read_case_result(const JsonNode& n);
nlohmann::ordered_json claim_json(const ClaimVerdict& c);
ClaimVerdict read_claim(const JsonNode& n, std::int64_t schema);
nlohmann::ordered_json run_sass_json(const RunSass& s);
RunSass read_run_sass(const JsonNode& n);

// One result as a line of JSON, and back (for the run's journal); errors name file:line.
std::string case_result_json_line(const CaseResult& r);
CaseResult parse_case_result_line(const std::string& line, const std::string& file, int line_number);
// One claim's verdict and a run's SASS as a line of JSON, and back (the history keeps a report in such
// parts, each stored once: history/history_store); errors name file:line.
std::string claim_json_line(const ClaimVerdict& c);
ClaimVerdict parse_claim_line(const std::string& line, const std::string& file, int line_number);
std::string sass_json_line(const RunSass& s);
RunSass parse_sass_line(const std::string& line, const std::string& file, int line_number);

}  // namespace ptxcts

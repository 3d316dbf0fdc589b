// What a report is, said by the report itself: every report the suite writes carries "kind" as its
// second key, right after its schema version. The one place that tells the kind of a report, and the
// one legacy rule for the reports written before "kind" (the committed audits, run reports and toolkit
// matrix among them):
//   - "fleet_schema_version" (any version): a fleet (`ptxcts merge` of run reports);
//   - "schema_version" 1: a toolkit matrix (the SASS report, also 1, always said "kind": "sass");
//   - "schema_version" 2 or 3: an audit report (every audit before "kind" is 2 or 3; a run report of
//     schema 2 or 3, the suite's first, reads as one wherever a run report is asked for);
//   - "schema_version" 4 to 9: a run report.
// A reader that knows what it wants (`ptxcts diff` of two runs, the page of a run) reads a report
// without "kind" as that kind, by that kind's own schema rules; never by guessing from other keys.
#pragma once

#include <string_view>

#include "util/json_document.hpp"

namespace ptxcts {

enum class ReportKind { Run, Audit, ToolkitMatrix, Sass, Fleet };

// "run", "audit", "toolkit-matrix", "sass", "fleet": the value of "kind".
std::string_view report_kind_name(ReportKind kind);
// "a run report", "an audit report", "a toolkit matrix", "a SASS report", "a fleet report".
std::string_view report_kind_noun(ReportKind kind);

// The kind `doc` says it is, else the legacy rule's. Throws JsonInputError, placed, for a "kind" this
// build does not know and for a report that neither says its kind nor has a schema version the rule knows.
ReportKind read_report_kind(const JsonDocument& doc);

// For a reader of `want`: a report that says another kind is an error at its "kind" naming both; one
// without "kind" is taken to be `want` (its reader then checks it as that kind, as before "kind").
void expect_report_kind(const JsonDocument& doc, ReportKind want);

}  // namespace ptxcts

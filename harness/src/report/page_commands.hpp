// What `ptxcts html`, `ptxcts diff --html` and `ptxcts merge` do with files, so that main.cpp only
// wires options: read the reports, write the pages (atomically), say where.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/run/report_diff.hpp"
#include "report/run/report_merge.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// The page of a run report, an audit report or the toolkit matrix (by its kind: report/report_reader),
// written to `out`, or beside the JSON with .html for .json when `out` is empty; returns the path
// written. Throws ReportError (a SASS or fleet report has no page here).
std::filesystem::path write_page_for(const std::filesystem::path& json, std::filesystem::path out,
                                     const SpecSet* specs);

void write_diff_page(const RunReport& before, const RunReport& after, const ReportDiff& d,
                     const std::filesystem::path& out);

// <prefix>.json and <prefix>.html of the fleet of these runs (and those missing, and what could not
// be read); returns the fleet.
Fleet write_fleet(const std::vector<RunReport>& runs, std::vector<MissingRun> missing,
                  const std::filesystem::path& prefix, std::vector<UnreadInput> unread = {});

}  // namespace ptxcts

// Where a run's reports go: one name per (GPU, target, driver, toolkit), three formats beside each other.
#pragma once

#include <filesystem>
#include <string>

#include "results/results.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// "<gpu>-<sm>-driver<driver_version>-cuda<cuda_release>", only [a-z0-9._-]: never a path separator.
std::string report_basename(const RunInfo& info);

// The run's page: with the specs, the layouts they give are drawn; with the audit of the same
// toolkit beside it in `dir` (audit-cuda<release>.json), the matrix has every target it asked about.
std::string run_page(const RunReport& report, const std::filesystem::path& dir, const SpecSet* specs);

// Writes <basename>.json, .md, .xml and .html into `dir` (created if missing), each atomically.
// Returns the timing the JSON holds (the report's, plus the writing of the other files): a report
// recorded in the history as its file has it is the same run as that file imported later.
RunTiming write_reports(const RunReport& report, const std::filesystem::path& dir, const SpecSet* specs = nullptr);

}  // namespace ptxcts

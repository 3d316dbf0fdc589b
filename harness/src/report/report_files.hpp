// Where a run's reports go: one name per (GPU, target, driver, toolkit), three formats beside each other.
#pragma once

#include <filesystem>
#include <string>

#include "results/results.hpp"

namespace ptxcts {

// "<gpu>-<sm>-driver<driver_version>-cuda<cuda_release>", only [a-z0-9._-]: never a path separator.
std::string report_basename(const RunInfo& info);

// Writes <basename>.json, .md and .xml into `dir` (created if missing), each atomically.
void write_reports(const RunReport& report, const std::filesystem::path& dir);

}  // namespace ptxcts

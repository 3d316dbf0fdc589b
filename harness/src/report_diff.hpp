// Compares two run reports (after a driver or toolkit upgrade, or between GPUs): which cases and
// claims changed, and whether anything got worse.
#pragma once

#include <string>
#include <vector>

#include "results.hpp"

namespace ptxcts {

struct ReportChange {
  std::string what;    // "kernel / case" or "claim id"
  std::string before;  // status or verdict; "" if absent
  std::string after;
  bool worse = false;  // a regression: passed (or confirmed) before, not now
};

struct ReportDiff {
  std::vector<std::string> run_changes;  // "driver_version: 580.1 -> 585.2"
  std::vector<ReportChange> cases, claims;
  // wmma fragment layouts that differ (both runs observed one): an observation, never a regression.
  std::vector<std::string> layouts;  // "kernel / case"
  int regressions() const;
};

ReportDiff diff_reports(const RunReport& before, const RunReport& after);
std::string format_diff(const ReportDiff& d);

}  // namespace ptxcts

// Compares two run reports (after a driver or toolkit upgrade, or between GPUs): which cases and
// claims changed, what went missing, and whether anything got worse.
#pragma once

#include <string>
#include <vector>

#include "results/results.hpp"

namespace ptxcts {

// A claim's verdict that changes is never a regression of the GPU (its cases say that, once); only a
// claim that went missing is (lost). A claim contradicted now and not before is a new documentation
// finding, counted apart; one that became undecided (its cases need action) is neither.
struct ReportChange {
  std::string what;    // "kernel / case", "claim id" or (for a layout) "kernel / case"
  std::string before;  // outcome or verdict; "" if absent
  std::string after;
  bool worse = false;        // a case's regression: passed before, something else now
  bool lost = false;         // there before, absent now
  bool new_finding = false;  // a claim: contradicted now, something else (or absent) before
  bool finding_gone = false; // a claim: contradicted before, something else now (absent: lost)
  std::string withdrawn;     // lost, and the later report says why: then no regression
  bool regression() const { return worse || (lost && withdrawn.empty()); }
};

// A case that two runs by different toolchains (precompiled cubin, driver JIT) did not see alike.
struct ToolchainDisagreement {
  std::string what;           // "kernel / case"
  std::string before, after;  // what each run saw of it: the status, then what differs ("(absent)")
};

struct ReportDiff {
  // Set when one report ran the catalog's cubins and the other the driver's JIT of the same PTX
  // (RunInfo::toolchain): then neither run is "before", and every case whose status or observation
  // (the wmma layout, the round trip's identity, the mismatches, a fault's error) differs is a
  // finding, "JIT and precompiled cubin disagree"; a case only one of them skipped (the driver
  // refused the PTX) is not compared, and said.
  bool toolchains = false;
  std::vector<ToolchainDisagreement> disagreements;
  std::vector<std::string> not_compared;  // "kernel / case: skipped by the JIT run: reason"
  std::vector<std::string> run_changes;   // "driver_version: 580.1 -> 585.2"
  std::vector<ReportChange> cases, claims;
  // wmma fragment layouts that differ (both runs observed one): an observation, never a regression.
  std::vector<std::string> layouts;  // "kernel / case"
  // Layouts observed before and not now: a regression unless withdrawn. A result that went missing
  // or got worse (a crash observes nothing) takes its layout with it and counts once, not here.
  std::vector<ReportChange> lost_layouts;
  int regressions() const;
  // Claims contradicted now and not before, and the other way round: the documentation findings'
  // changes, counted apart from the regressions; and the claims undecided now and not before.
  int new_findings() const, findings_gone() const, newly_undecided() const;
  // What makes `ptxcts diff` exit 1: the disagreements between toolchains, else the regressions and
  // the new documentation findings.
  int findings() const;
};

ReportDiff diff_reports(const RunReport& before, const RunReport& after);
std::string format_diff(const ReportDiff& d);

}  // namespace ptxcts

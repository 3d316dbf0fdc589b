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
  std::string what;    // "KERNEL/CASE" (results' case_id, as `--cases` takes it), or a claim's id
  std::string family;  // the case's or the claim's family ("" where neither report says)
  std::string before;  // outcome or verdict; "" if absent
  std::string after;
  bool worse = false;        // a case's regression: passed before, something else now
  bool lost = false;         // there before, absent now
  bool new_finding = false;  // a claim: contradicted now, something else (or absent) before
  bool finding_gone = false; // a claim: contradicted before, something else now (absent: lost)
  std::string withdrawn;     // lost, and the later report says why: then no regression
  bool regression() const { return worse || (lost && withdrawn.empty()); }
  // The one group a change belongs to, for the counts (which add up to the changes) and the lines:
  // "worse", "lost", "withdrawn", "new" (absent before) or "other"; claims also "new finding" and
  // "finding gone" (a claim's "worse" never happens).
  std::string kind() const;
};

// A case that two runs by different toolchains (precompiled cubin, driver JIT) did not see alike.
struct ToolchainDisagreement {
  std::string what;           // "KERNEL/CASE"
  std::string family;
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
  std::vector<std::string> not_compared;  // "KERNEL/CASE: skipped by the JIT run: reason"
  std::vector<std::string> run_changes;   // "driver_version: 580.1 -> 585.2"
  std::vector<ReportChange> cases, claims;
  // wmma fragment layouts that differ (both runs observed one): an observation, never a regression.
  std::vector<std::string> layouts;  // "KERNEL/CASE"
  // Layouts observed before and not now: a regression unless withdrawn. A result that went missing
  // or got worse (a crash observes nothing) takes its layout with it and counts once, not here.
  std::vector<ReportChange> lost_layouts;
  // The case regressions: cases worse or lost, and layouts lost (claims are never among them).
  int regressions() const;
  // Claims contradicted now and not before, and the other way round: the documentation findings'
  // changes, counted apart from the regressions; claims lost (absent now, not withdrawn); and the
  // claims undecided now and not before.
  int new_findings() const, findings_gone() const, claims_lost() const, newly_undecided() const;
  // What makes `ptxcts diff` exit 1: the disagreements between toolchains, else the case regressions,
  // and with `gate_docs` (--gate-docs) the new documentation findings and the claims lost too.
  int findings(bool gate_docs = false) const;
};

ReportDiff diff_reports(const RunReport& before, const RunReport& after);

// `ptxcts diff`'s text: the verdict line, the summary (each count line a sum of named parts equal to
// its total), then, unless `quiet`, the changes grouped by transition ("pass -> fail") and family.
struct DiffFormat {
  bool quiet = false;      // -q: the verdict and the summary only
  bool gate_docs = false;  // --gate-docs: documentation changes gate too
};
std::string diff_verdict_line(const ReportDiff& d, bool gate_docs);
std::vector<std::string> diff_summary_lines(const ReportDiff& d);
std::string format_diff(const ReportDiff& d, const DiffFormat& how = {});

}  // namespace ptxcts

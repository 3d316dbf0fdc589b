// `ptxcts merge REPORT...`: a fleet view of run reports from many machines (GPU x driver x
// toolkit): per case, claim and observed wmma layout, a column per machine, rows that differ first.
// Only aligned runs are compared (as wpt.fyi's aligned runs): those of the suite commit and specs
// most columns share; a column of another commit or other specs is shown, marked not aligned, and
// left out of the comparison. Runs that were expected and left no report (a Slurm array task that
// failed, a node that died) are listed as missing, never silently dropped; what could not be read is
// listed as unread (the merge is incomplete without it).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/outcome.hpp"
#include "results/results.hpp"

namespace ptxcts {

struct FleetRow {
  std::string what;  // "KERNEL/CASE" (results' case_id, as `--cases` takes it), "claim ID", "layout KERNEL/CASE"
  // Per machine: a case's outcome (results/outcome's token: "pass", "faulted", ...), a claim's verdict
  // or a layout's name; "" where absent.
  std::vector<std::string> values;
  bool differs = false;             // not the same on every machine
  std::string family{};             // a case's family; "" for claims and layouts
};

// An expected run that left no report, and what is known of why.
struct MissingRun {
  std::string task{};    // the Slurm array task id ("3")
  std::string host{};    // where it ran, if known
  std::string reason{};  // "ended with exit 2 and wrote no report; the end of .../run.log: ...", ...
};

// Something given to the merge that could not be read (a task's folder the merging user may not
// enter, a report a dying task cut short): named with why; the merge went on without it.
struct UnreadInput {
  std::string path{};
  std::string why{};  // "cannot read this folder (Permission denied); expected ...", a reader's file:line:column
};

struct Fleet {
  std::vector<std::string> machines;  // report names (report_basename), in the order given
  std::vector<RunInfo> runs;
  std::vector<std::string> verdicts;  // per machine: its run's verdict line (results/outcome)
  std::vector<VerdictTone> tones;
  std::vector<Tally> tallies;                     // per machine: its cases by outcome
  std::string aligned_commit{}, aligned_specs{};  // what the aligned columns share
  std::vector<MissingRun> missing{};
  std::vector<UnreadInput> unread{};  // the merge is incomplete without them
  std::vector<FleetRow> rows;         // those that differ first, then in the first report's order
  std::vector<std::string> layouts;   // distinct observed layouts; a layout value "L3" is layouts[3]
  int differing() const;
  bool aligned(std::size_t machine) const;  // of the fleet's suite commit and specs
  std::size_t aligned_count() const;
};

Fleet merge_reports(const std::vector<RunReport>& reports, std::vector<MissingRun> missing = {});
// Why a machine is not aligned ("" if it is): its commit and specs against the fleet's.
std::string alignment_note(const Fleet& f, std::size_t machine);
std::string fleet_json(const Fleet& fleet);
// The fleet's verdict line, first on its page and last on `ptxcts merge`'s console: "Does not conform:
// 3 aligned runs: 2 need action, 1 conforms, 0 checked nothing; ..." (`merge` exits 1 when it does not
// conform), and its tone.
std::pair<std::string, VerdictTone> fleet_verdict(const Fleet& f);
std::string fleet_html(const Fleet& fleet);

}  // namespace ptxcts

// What `ptxcts merge` is given for a fleet: run reports named one by one, or found under folders
// (a fleet's results directory, as the Slurm scripts in harness/slurm/ leave it: one folder per
// array task, <host>-task<ID>/, holding the run's reports and task.status). With an expected
// number of array tasks, every task 0..N-1 that left no report is a missing run, with what its
// task.status says of it (started where and when, how it ended), or that it left no trace. What
// cannot be read (a task's folder the merging user may not enter, a report a dying task cut short, a
// garbled task.status or run.log) is named with why and what was expected, and the rest still read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report/run/report_merge.hpp"
#include "results/results.hpp"

namespace ptxcts {

struct FleetInputs {
  std::vector<RunReport> reports;
  std::vector<std::filesystem::path> files;  // where each report was read
  std::vector<MissingRun> missing;
  std::vector<UnreadInput> unread;  // without these, the merge is incomplete
};

// `paths`: run report files (.json, .json.gz) and folders to search (their fleet.* pages and JSON
// left out, and any fleet report found there). What it cannot read is `unread`; a path given that
// does not exist throws std::invalid_argument.
FleetInputs collect_fleet_inputs(const std::vector<std::string>& paths, std::optional<int> expect_tasks);

}  // namespace ptxcts

// Which stored runs the history page draws (`ptxcts history page`): every run report of the history
// (audits have no cases), or those of one GPU model, or of one Slurm job (a fleet's array: its page
// drawn from the history the array's tasks recorded into), or the latest N. Drawn from the outcome codes
// the history keeps; the evidence of a changed case from the full report kept beside them (the report's words).
#pragma once

#include <string>
#include <vector>

#include "history/history_page.hpp"
#include "history/history_store.hpp"

namespace ptxcts {

struct HistoryPageSelection {
  std::string gpu;        // a GPU model, as the reports name it ("" every model)
  std::string slurm_job;  // the Slurm (array) job that ran them ("" any)
  int last = 0;           // only the latest N runs (0 every one)
};

// The runs, oldest first; how many were read is runs.size(). Drawn from the history's outcome codes
// (a report read once per list of cases, for the cases' forms), without their evidence; a Slurm job's
// from their reports (which name the job), with it.
std::vector<HistoryRun> history_page_runs(HistoryStore& store, const HistoryPageSelection& sel);
// The evidence of a case the page shows changed: its run's report read once (for the store's lifetime).
EvidenceOf history_page_evidence(HistoryStore& store);

}  // namespace ptxcts

// The questions `ptxcts history` answers, over a HistoryStore: what changed for a GPU model between
// two drivers, toolkits or suite versions (and, without arguments, each model's latest run against
// the one before it); which GPUs and drivers a case or a claim ever failed on, and since when; the
// latest verdict per GPU model x driver x toolkit; the regressions since the previous run of a model.
// Runs compare only within a series: the same GPU model, kind and toolchain (cubin or JIT).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "history/history_store.hpp"

namespace ptxcts {

// One case or claim whose outcome changed between two runs, in the words of `ptxcts diff`.
struct HistoryChange {
  std::string item;      // "KERNEL/CASE" or "claim ID"
  std::string family;    // the case's family ("" for a claim)
  std::string before;    // outcome token or verdict word; "absent" where the run had no such item
  std::string after;
  bool regression = false;  // after needs action (or a claim became contradicted) and before did not
};

struct RunPairChanges {
  StoredRun before, after;
  std::vector<HistoryChange> changes;
  int regressions = 0;
};

// What `changes` compares: a GPU model ("" every model), and which axis ("driver", "toolkit",
// "suite") between which two values ("" the latest two runs of the series).
struct ChangesQuery {
  std::string gpu;
  std::string axis;
  std::string from, to;
};
std::vector<RunPairChanges> history_changes(HistoryStore& store, const ChangesQuery& q);
// Each series' latest run against the one before it, only the pairs with a regression kept.
std::vector<RunPairChanges> history_regressions(HistoryStore& store, const std::string& gpu = "");

// Where a case or claim failed (needed action, or a claim was contradicted): one line per GPU model,
// driver, toolkit and toolchain, with the first and last run dates that saw it.
struct FailureSpan {
  std::string gpu_name, driver, cuda_release, toolchain, outcome;
  std::string first_date, last_date;
  int runs = 0;
};
struct ItemHistory {
  std::string item;      // as asked
  int runs_seen = 0;     // runs that have it at all
  std::vector<FailureSpan> failures;
};
ItemHistory history_of_item(HistoryStore& store, const std::string& item);

// The latest run per GPU model x driver x toolkit x toolchain (audits per toolkit), newest first.
std::vector<StoredRun> history_latest(HistoryStore& store);

}  // namespace ptxcts

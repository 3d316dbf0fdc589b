// `ptxcts history page OUT.html`: the history page (history/history_page) of the runs a history holds,
// all of them or one GPU model's, one Slurm job's (a fleet's array) or the latest N.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace ptxcts {

struct HistoryPageOptions {
  std::string history;  // "" the default history (history_store's default_history_location)
  std::string out;
  std::string gpu, slurm_job;
  int last = 0;
};

// Adds `page` under `history` (the `ptxcts history` command), its options bound to `o`.
CLI::App* add_history_page_subcommand(CLI::App& history, const std::shared_ptr<HistoryPageOptions>& o);
// Writes the page (and ptxcts.css beside it); 0, or 1 where no run matched (no page written).
// Throws HistoryError where the history cannot be read.
int history_page_command(const HistoryPageOptions& o);

}  // namespace ptxcts

// Recording into the history from `ptxcts run` and `ptxcts audit` (on by default): the options both
// take (--history PATH|postgresql://..., --no-history), and the recording itself, after the report
// files are written. A history that fails never costs a report: the failure is said on stderr in one
// line, naming the history and the report file to import later, and the command's exit status stays
// what its verdict makes it (the history is a copy of what the files say; docs/running.md).
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "history/history_store.hpp"

namespace ptxcts {

struct HistoryChoice {
  std::string location;  // --history; "" the default (history/history_store: default_history_location)
  bool off = false;      // --no-history
};
void add_history_options(CLI::App* cmd, HistoryChoice& h);

// Where to record: --history, else the default (its folder made private); "" where nothing is recorded
// (--no-history, PTXCTS_HISTORY=off, no home).
std::string history_location(const HistoryChoice& h);

// The history, opened once per command, for recording; nullptr where off or where it failed (said).
std::unique_ptr<HistoryStore> open_history_for_recording(const HistoryChoice& h);

// Records a run report written to `written` (its JSON file); says "history: recorded in ..." (or that
// it was there already) on stdout, a failure on stderr. Never throws.
void record_run(HistoryStore* store, const RunReport& report, const std::filesystem::path& written,
                const std::string& prefix = "");
// Records an audit report from its JSON file, as `ptxcts audit` wrote it. Never throws.
void record_audit_file(HistoryStore* store, const std::filesystem::path& json);

}  // namespace ptxcts

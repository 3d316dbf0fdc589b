#include "commands/history_recording.hpp"

#include <fmt/format.h>

#include "report/report_reader.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

void add_history_options(CLI::App* cmd, HistoryChoice& h) {
  auto* loc = cmd->add_option("--history", h.location,
                              "Record the report into this history: an SQLite file or a postgresql:// URL (default: "
                              "$PTXCTS_HISTORY, else $XDG_DATA_HOME/ptxcts/history.sqlite or "
                              "~/.local/share/ptxcts/history.sqlite)");
  cmd->add_flag("--no-history", h.off, "Record nothing into the history")->excludes(loc);
}

std::string history_location(const HistoryChoice& h) {
  if (h.off) return "";
  return h.location.empty() ? default_history_location() : h.location;
}

std::unique_ptr<HistoryStore> open_history_for_recording(const HistoryChoice& h) {
  const std::string where = history_location(h);
  if (where.empty()) return nullptr;
  try {
    prepare_history_folder(where);
    return std::make_unique<HistoryStore>(where);
  } catch (const std::exception& e) {
    fmt::print(stderr, "history: not recorded: {} (the report files are written; `ptxcts history import` them later)\n",
               e.what());
    return nullptr;
  }
}

void record_run(HistoryStore* store, const RunReport& report, const std::filesystem::path& written,
                const std::string& prefix) {
  if (!store) return;
  try {
    const RecordResult r = store->record(report, written.string());
    fmt::print("  {}history: {} {} (run {})\n", prefix, r.added ? "recorded in" : "already in", store->where(), r.run.id);
  } catch (const std::exception& e) {
    fmt::print(stderr, "  {}history: not recorded: {} (the report is written: {}; `ptxcts history import` it later)\n",
               prefix, e.what(), written.string());
  }
}

void record_audit_file(HistoryStore* store, const std::filesystem::path& json) {
  if (!store) return;
  try {
    const AuditSummary audit = read_audit_report_file(json);
    const RecordResult r = store->record(audit, read_file_text(json, "an audit report"), json.string());
    fmt::print("audit: history: {} {} (run {})\n", r.added ? "recorded in" : "already in", store->where(), r.run.id);
  } catch (const std::exception& e) {
    fmt::print(stderr, "audit: history: not recorded: {} (the report is written: {}; `ptxcts history import` it later)\n",
               e.what(), json.string());
  }
}

}  // namespace ptxcts

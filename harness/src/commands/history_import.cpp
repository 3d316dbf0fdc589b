#include "commands/history_import.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "commands/command_context.hpp"
#include "history/history_store.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/report_reader.hpp"
#include "util/file_text.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

struct ImportCounts {
  int added = 0, already = 0, skipped = 0, failed = 0;
  std::vector<std::string> skipped_kinds;
};

bool report_name(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.ends_with(".json") || n.ends_with(".json.gz");
}

// One file: recorded, already there, skipped (`named`: said as a failure), or failed.
void import_file(HistoryStore& store, const fs::path& path, bool named, ImportCounts& n) {
  try {
    // Opened and parsed once, its kind told from the same document: a run report is several MB, and
    // telling its kind from a parse of its own was half of an import (16 committed reports: 8.3 CPU-s).
    std::optional<JsonDocument> doc;
    std::optional<ReportKind> kind;
    try {
      doc.emplace(open_report(path));
      kind = read_report_kind(*doc);
    } catch (const JsonInputError&) {
      kind.reset();  // no report: read below (named), or skipped
    }
    if (kind == ReportKind::Run) {
      const RecordResult r = store.record(read_run_report(*doc), path.string());
      ++(r.added ? n.added : n.already);
      return;
    }
    if (kind == ReportKind::Audit) {
      const RecordResult r = store.record(read_audit_report(*doc), read_file_text(path, "an audit report"), path.string());
      ++(r.added ? n.added : n.already);
      return;
    }
    if (named) {
      if (!kind) read_run_report_file(path);  // its reader says, placed, why it is no report
      throw HistoryError(fmt::format("{}: {}, which the history does not keep (expected a run or an audit report{})",
                                     path.string(), report_kind_noun(*kind),
                                     *kind == ReportKind::Fleet ? "; import the run reports it was merged from" : ""));
    }
    ++n.skipped;
    n.skipped_kinds.push_back(kind ? std::string(report_kind_noun(*kind)) : "not a report");
  } catch (const std::exception& e) {
    ++n.failed;
    const std::string what = e.what();
    fmt::print(stderr, "error: {}\n", what.starts_with(path.string()) ? what : path.string() + ": not recorded: " + what);
  }
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (auto const& e : fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied))
    if (e.is_regular_file() && report_name(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int import_reports(const std::string& location, const std::vector<std::string>& inputs, bool json) {
  const std::string where = location.empty() ? default_history_location() : location;
  if (where.empty()) throw HistoryError("no history: no home folder, or PTXCTS_HISTORY=off; expected --history PATH");
  if (location.empty()) prepare_history_folder(where);
  HistoryStore store(where);
  ImportCounts n;
  for (auto const& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec))
      for (auto const& f : files_under(in)) import_file(store, f, false, n);
    else import_file(store, in, true, n);
  }
  if (json) {
    fmt::print("{}\n", nlohmann::ordered_json{{"history", store.where()}, {"added", n.added}, {"already", n.already},
                                              {"skipped", n.skipped}, {"failed", n.failed}}
                           .dump(1));
  } else {
    std::map<std::string, int> kinds;
    for (auto const& k : n.skipped_kinds) ++kinds[k];
    std::string skipped;
    for (auto const& [k, c] : kinds) skipped += fmt::format("{}{} {}", skipped.empty() ? "" : ", ", c, k);
    fmt::print("history: {} reports recorded, {} already there, {} skipped{}, {} failed -> {}\n", n.added, n.already,
               n.skipped, skipped.empty() ? "" : " (" + skipped + ")", n.failed, store.where());
  }
  return n.failed ? kExitTrouble : 0;
}

}  // namespace ptxcts

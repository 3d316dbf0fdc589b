#include "commands/history_command.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>

#include "commands/history_import.hpp"
#include "commands/history_page_command.hpp"
#include "history/history_queries.hpp"
#include "results/outcome.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

using Json = nlohmann::ordered_json;

struct HistoryOptions {
  std::string location;  // --history: "" the default
  bool json = false;     // --json
  bool all = false;      // --all: every name of a group, not the first 10
  std::vector<std::string> inputs;  // import
  ChangesQuery changes;
  std::vector<std::string> item;  // case: KERNEL/CASE, a claim's id, or "claim ID" (two words)
};

HistoryStore open_store(const HistoryOptions& o) {
  const std::string where = o.location.empty() ? default_history_location() : o.location;
  if (where.empty())
    throw HistoryError("no history: no home folder, or PTXCTS_HISTORY=off; expected --history PATH or a postgresql:// URL");
  if (!is_postgres_location(where) && !fs::exists(where))
    throw HistoryError(fmt::format("{}: no history there yet (ptxcts run and ptxcts audit record into it; ptxcts history "
                                   "import FILE|DIR... fills it from reports)",
                                   where));
  return HistoryStore(where);
}

std::string run_words(const StoredRun& r) {
  if (r.kind == "audit") return fmt::format("audit of CUDA {} (ptxas {}), {}", r.cuda_release, r.ptxas_version, r.date);
  return fmt::format("driver {}, CUDA {} ({}), suite {}, {}", r.driver, r.cuda_release, r.toolchain, r.suite_commit,
                     r.date);
}

Json run_json(const StoredRun& r) {
  return {{"id", r.id},           {"kind", r.kind},          {"gpu_name", r.gpu_name},
          {"sm", r.sm},           {"driver", r.driver},      {"cuda_release", r.cuda_release},
          {"ptxas_version", r.ptxas_version}, {"toolchain", r.toolchain}, {"suite_commit", r.suite_commit},
          {"specs", r.specs},     {"date", r.date},          {"verdict", r.verdict},
          {"cases", r.cases},     {"needing_action", r.needing_action}, {"findings", r.findings},
          {"source", r.source}};
}

// The upgrade gate's words (report/run/report_diff's): the verdict of a pair first.
std::string gate_line(const RunPairChanges& p) {
  if (p.regressions)
    return fmt::format("Does not pass the upgrade gate: {} case regression{}.", count_text(p.regressions),
                       p.regressions == 1 ? "" : "s");
  return "Passes the upgrade gate: no case regression.";
}

void print_pair(const RunPairChanges& p, bool all) {
  fmt::print("\n{} ({}):\n  {}\n  -> {}\n  {}\n", p.after.gpu_name, p.after.toolchain, run_words(p.before),
             run_words(p.after), gate_line(p));
  std::map<std::pair<int, std::string>, std::map<std::string, std::vector<const HistoryChange*>>> groups;
  for (auto const& c : p.changes)
    groups[{c.regression ? 0 : 1, c.before + " -> " + c.after}][c.family.empty() ? "claims" : c.family].push_back(&c);
  if (groups.empty()) fmt::print("  nothing changed: every case and claim as before\n");
  for (auto const& [key, by_family] : groups) {
    std::size_t n = 0;
    for (auto const& [_, v] : by_family) n += v.size();
    fmt::print("  {}{}: {}\n", key.first == 0 ? "REGRESSION " : "", key.second, count_text(static_cast<long long>(n)));
    for (auto const& [family, v] : by_family) {
      fmt::print("    {} ({}):\n", family, count_text(static_cast<long long>(v.size())));
      for (std::size_t i = 0; i < v.size() && (all || i < 10); ++i) fmt::print("      {}\n", v[i]->item);
      if (!all && v.size() > 10) fmt::print("      ... and {} more (--all lists them)\n", count_text(static_cast<long long>(v.size() - 10)));
    }
  }
}

Json pair_json(const RunPairChanges& p) {
  Json changes = Json::array();
  for (auto const& c : p.changes)
    changes.push_back({{"item", c.item}, {"family", c.family}, {"before", c.before}, {"after", c.after},
                       {"regression", c.regression}});
  return {{"before", run_json(p.before)}, {"after", run_json(p.after)}, {"verdict", gate_line(p)},
          {"regressions", p.regressions}, {"changes", changes}};
}

int print_pairs(const std::vector<RunPairChanges>& pairs, const HistoryOptions& o, const char* none) {
  int regressions = 0;
  for (auto const& p : pairs) regressions += p.regressions;
  if (o.json) {
    Json out = Json::array();
    for (auto const& p : pairs) out.push_back(pair_json(p));
    fmt::print("{}\n", out.dump(1));
  } else {
    if (pairs.empty()) fmt::print("{}\n", none);
    for (auto const& p : pairs) print_pair(p, o.all);
    if (!pairs.empty())
      fmt::print("\n{}\n", regressions ? fmt::format("Does not pass the upgrade gate: {} case regressions in {} of {} "
                                                     "comparisons.",
                                                     count_text(regressions),
                                                     std::count_if(pairs.begin(), pairs.end(),
                                                                   [](auto& p) { return p.regressions > 0; }),
                                                     pairs.size())
                                       : fmt::format("Passes the upgrade gate: no case regression in {} comparisons.",
                                                     pairs.size()));
  }
  return regressions ? kExitFound : 0;
}

int changes_command(const HistoryOptions& o) {
  HistoryStore store = open_store(o);
  if (o.changes.axis.empty() && (!o.changes.from.empty() || !o.changes.to.empty()))
    return usage_error("--from and --to need --between driver|toolkit|suite: what they name");
  return print_pairs(history_changes(store, o.changes), o,
                     "No comparison: no GPU model (of those asked) has two runs of one toolchain in the history.");
}

int regressions_command(const HistoryOptions& o) {
  HistoryStore store = open_store(o);
  return print_pairs(history_regressions(store, o.changes.gpu), o,
                     "No regression: each GPU model's latest run has no case needing action that its previous run had not.");
}

int case_command(const HistoryOptions& o) {
  HistoryStore store = open_store(o);
  std::string name;
  for (auto const& w : o.item) name += (name.empty() ? "" : " ") + w;
  const ItemHistory h = history_of_item(store, name);
  if (o.json) {
    Json spans = Json::array();
    for (auto const& s : h.failures)
      spans.push_back({{"gpu_name", s.gpu_name}, {"driver", s.driver}, {"cuda_release", s.cuda_release},
                       {"toolchain", s.toolchain}, {"outcome", s.outcome}, {"since", s.first_date},
                       {"last", s.last_date}, {"runs", s.runs}});
    fmt::print("{}\n", Json{{"item", h.item}, {"runs_seen", h.runs_seen}, {"failures", spans}}.dump(1));
    return 0;
  }
  if (h.failures.empty()) {
    fmt::print("{}: never failed: as documented (or not needing action) in all {} runs that have it\n", h.item,
               count_text(h.runs_seen));
    return 0;
  }
  fmt::print("{}: in {} runs; failed on:\n", h.item, count_text(h.runs_seen));
  for (auto const& s : h.failures)
    fmt::print("  {}{}, driver {}, CUDA {} ({}): {} in {} run{}, since {} (last {})\n",
               s.gpu_name.empty() ? "audit" : s.gpu_name, "", s.driver.empty() ? "-" : s.driver, s.cuda_release,
               s.toolchain, s.outcome, s.runs, s.runs == 1 ? "" : "s", s.first_date, s.last_date);
  return 0;
}

int latest_command(const HistoryOptions& o) {
  HistoryStore store = open_store(o);
  const std::vector<StoredRun> latest = history_latest(store);
  if (o.json) {
    Json out = Json::array();
    for (auto const& r : latest) out.push_back(run_json(r));
    fmt::print("{}\n", out.dump(1));
    return 0;
  }
  if (latest.empty()) fmt::print("The history is empty: {}\n", store.where());
  for (auto const& r : latest)
    fmt::print("{}: {}\n  {}\n", r.kind == "audit" ? "ptxas" : r.gpu_name, run_words(r), r.verdict);
  return 0;
}

// The options every question takes.
CLI::App* question(CLI::App* history, const char* name, const char* what, HistoryOptions& o) {
  auto* c = history->add_subcommand(name, what);
  c->add_option("--history", o.location, "The history: an SQLite file or a postgresql:// URL (default: where run records)");
  c->add_flag("--json", o.json, "JSON for scripts");
  return c;
}

}  // namespace

Command add_history_command(CLI::App& app) {
  auto o = std::make_shared<HistoryOptions>();
  auto* cli = app.add_subcommand("history", "Every run kept: import reports, and ask what changed, where a case failed, "
                                            "the latest verdicts, the regressions");
  cli->require_subcommand(1);
  auto* import = question(cli, "import", "Record run and audit reports (files, or folders searched for *.json[.gz])", *o);
  import->add_option("REPORTS", o->inputs, "Report files or folders")->required();
  auto* changes = question(cli, "changes",
                           "What changed for each GPU model: its latest run against the one before it, or between two "
                           "drivers, toolkits or suite versions (exit 1 on a case regression)",
                           *o);
  changes->add_option("--gpu", o->changes.gpu, "Only GPU models whose name contains this (H100)");
  changes->add_option("--between", o->changes.axis, "driver, toolkit or suite")
      ->check(CLI::IsMember({"driver", "toolkit", "suite"}));
  changes->add_option("--from", o->changes.from, "The earlier driver (580.65.06), toolkit (12.9) or suite commit");
  changes->add_option("--to", o->changes.to, "The later one (default: the latest run)");
  changes->add_flag("--all", o->all, "List every changed case, not the first 10 of each group");
  auto* item = question(cli, "case", "Which GPUs, drivers and toolkits a case (KERNEL/CASE) or claim (claim ID) ever "
                                     "failed on, and since when", *o);
  item->add_option("NAME", o->item, "KERNEL/CASE, or a claim's id (or: claim ID)")->required()->expected(1, 2);
  auto* latest = question(cli, "latest", "The latest verdict per GPU model x driver x toolkit (and per audited toolkit)", *o);
  auto* regressions = question(cli, "regressions", "Regressions since the previous run of each GPU model (exit 1 where any)", *o);
  regressions->add_option("--gpu", o->changes.gpu, "Only GPU models whose name contains this");
  regressions->add_flag("--all", o->all, "List every changed case, not the first 10 of each group");
  auto page_options = std::make_shared<HistoryPageOptions>();
  auto* page = add_history_page_subcommand(*cli, page_options);
  return {.cli = cli, .run = [o, import, changes, item, latest, regressions, page, page_options](CommandContext&) {
            if (*import) return import_reports(o->location, o->inputs, o->json);
            if (*page) return history_page_command(*page_options);
            if (*changes) return changes_command(*o);
            if (*item) return case_command(*o);
            if (*latest) return latest_command(*o);
            if (*regressions) return regressions_command(*o);
            return kExitTrouble;
          }};
}

}  // namespace ptxcts

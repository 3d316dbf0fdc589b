#include "commands/history_page_command.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "history/history_page.hpp"
#include "history/history_page_runs.hpp"
#include "history/history_store.hpp"
#include "report/pages/page_file.hpp"

namespace ptxcts {

CLI::App* add_history_page_subcommand(CLI::App& history, const std::shared_ptr<HistoryPageOptions>& o) {
  auto* cli = history.add_subcommand(
      "page", "The history as one page: a row per family and form, a column per GPU model x driver x toolkit in "
              "time order, each cell the outcome counts, the changes marked and listed with their evidence");
  cli->add_option("out", o->out, "The page to write (OUT.html; ptxcts.css beside it)")->required();
  cli->add_option("--history", o->history, "The history (an SQLite file or a postgresql:// URL; default: $PTXCTS_HISTORY, "
                                           "else ~/.local/share/ptxcts/history.sqlite)");
  cli->add_option("--gpu", o->gpu, "Only the runs of this GPU model, as the reports name it (\"NVIDIA H100 80GB HBM3\")");
  cli->add_option("--slurm-job", o->slurm_job, "Only the runs of this Slurm (array) job: a fleet's page from the history");
  cli->add_option("--last", o->last, "Only the latest N runs")->check(CLI::Range(1, 1000000));
  return cli;
}

int history_page_command(const HistoryPageOptions& o) {
  const std::string where = o.history.empty() ? default_history_location() : o.history;
  if (where.empty())
    throw HistoryError("no history: no home folder, or PTXCTS_HISTORY=off; expected --history PATH or a postgresql:// URL");
  if (!is_postgres_location(where) && !std::filesystem::exists(where))
    throw HistoryError(fmt::format("{}: no history there (ptxcts run records one; ptxcts history import fills one)", where));
  HistoryStore store(where);
  const std::vector<HistoryRun> runs = history_page_runs(store, {o.gpu, o.slurm_job, o.last});
  if (runs.empty()) {
    fmt::print(stderr, "ptxcts history page: no run of {} matches{}{}; no page written\n", store.where(),
               o.gpu.empty() ? "" : " --gpu " + o.gpu, o.slurm_job.empty() ? "" : " --slurm-job " + o.slurm_job);
    return 1;
  }
  const std::string html = history_page_html(runs, history_page_evidence(store));
  write_html_page(o.out, html);
  fmt::print("history page: {} ({} runs, {:.1f} MB)\n", o.out, runs.size(), static_cast<double>(html.size()) / 1e6);
  return 0;
}

}  // namespace ptxcts

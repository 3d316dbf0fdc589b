#include "history/history_page_runs.hpp"

#include "results/report_json.hpp"

namespace ptxcts {

std::vector<HistoryRun> history_page_runs(HistoryStore& store, const HistoryPageSelection& sel) {
  std::vector<StoredRun> stored;
  for (auto& r : store.runs())
    if (r.kind == "run" && (sel.gpu.empty() || r.gpu_name == sel.gpu)) stored.push_back(std::move(r));
  std::vector<HistoryRun> out;
  // Newest first, so that --last N reads only N reports (a Slurm job's, only those of the job).
  for (auto it = stored.rbegin(); it != stored.rend(); ++it) {
    if (sel.last > 0 && out.size() >= static_cast<std::size_t>(sel.last)) break;
    const RunReport report = parse_report_json(store.report_text(it->id), store.where() + " (run " + std::to_string(it->id) + ")");
    if (!sel.slurm_job.empty() && report.info.slurm_job != sel.slurm_job) continue;
    out.push_back(history_run_of(report));
  }
  return {std::make_move_iterator(out.rbegin()), std::make_move_iterator(out.rend())};
}

}  // namespace ptxcts

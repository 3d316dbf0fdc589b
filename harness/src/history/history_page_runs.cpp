#include "history/history_page_runs.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <unordered_map>

#include "report/run/report_json.hpp"

namespace ptxcts {

namespace {

RunReport stored_report(HistoryStore& store, std::int64_t id) {
  return parse_report_json(store.report_text(id), store.where() + " (run " + std::to_string(id) + ")");
}

// A case list's forms (family, form per case, in the list's order), from the report of one run of it;
// empty where that report's cases are not the list's.
using Forms = std::vector<std::pair<std::string, std::string>>;
Forms forms_of(const RunReport& report, const std::vector<std::int64_t>& cases,
               const std::unordered_map<std::int64_t, HistoryStore::CaseName>& names) {
  if (report.results.size() != cases.size()) return {};
  Forms out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    auto it = names.find(cases[i]);
    if (it == names.end() || it->second.name != case_id(report.results[i])) return {};
    out.emplace_back(report.results[i].family, report.results[i].instruction);
  }
  return out;
}

// The run from the history's compact tables: its identity, its outcome codes against its case list,
// the forms read once per case list; its evidence read only where the page shows it.
HistoryRun compact_run(HistoryStore& store, const StoredRun& s, std::map<std::vector<std::int64_t>, Forms>& forms) {
  const HistoryStore::Codes codes = store.outcome_codes(s.id);
  auto it = forms.find(codes.cases);
  if (it == forms.end()) {
    const RunReport report = stored_report(store, s.id);
    const Forms f = forms_of(report, codes.cases, store.case_names());
    if (f.empty() || codes.codes.size() != codes.cases.size()) return history_run_of(report);
    it = forms.emplace(codes.cases, f).first;
  }
  HistoryRun run{fmt::format("{} ({})", s.gpu_name, s.sm), s.driver,
                 fmt::format("CUDA {}{}", s.cuda_release, s.toolchain == "jit" ? ", driver JIT" : ""), s.date, s.host,
                 s.suite_commit, {}, s.id, false};
  const auto& names = store.case_names();
  run.cases.reserve(codes.cases.size());
  for (std::size_t i = 0; i < codes.cases.size(); ++i)
    run.cases.push_back({names.at(codes.cases[i]).name, it->second[i].first, it->second[i].second,
                         kOutcomes[(codes.codes[i] & 0x7f) % std::size(kOutcomes)], ""});
  return run;
}

}  // namespace

std::vector<HistoryRun> history_page_runs(HistoryStore& store, const HistoryPageSelection& sel) {
  std::vector<StoredRun> stored;
  for (auto& r : store.runs())
    if (r.kind == "run" && (sel.gpu.empty() || r.gpu_name == sel.gpu)) stored.push_back(std::move(r));
  std::vector<HistoryRun> out;
  std::map<std::vector<std::int64_t>, Forms> forms;
  // Newest first, so that --last N reads only N runs (a Slurm job's: the reports, which name the job).
  for (auto it = stored.rbegin(); it != stored.rend(); ++it) {
    if (sel.last > 0 && out.size() >= static_cast<std::size_t>(sel.last)) break;
    if (sel.slurm_job.empty()) {
      out.push_back(compact_run(store, *it, forms));
      continue;
    }
    const RunReport report = stored_report(store, it->id);
    if (report.info.slurm_job != sel.slurm_job) continue;
    out.push_back(history_run_of(report));
  }
  return {std::make_move_iterator(out.rbegin()), std::make_move_iterator(out.rend())};
}

EvidenceOf history_page_evidence(HistoryStore& store) {
  auto cache = std::make_shared<std::map<std::int64_t, std::map<std::string, std::string>>>();
  return [&store, cache](const HistoryRun& run, const HistoryCase& c) {
    auto [it, fresh] = cache->try_emplace(run.run_id);
    if (fresh)
      for (auto const& r : stored_report(store, run.run_id).results) it->second[case_id(r)] = case_evidence(r);
    auto e = it->second.find(c.id);
    return e == it->second.end() ? std::string() : e->second;
  };
}

}  // namespace ptxcts

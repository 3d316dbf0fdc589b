#include "commands/run_gpus.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <future>
#include <memory>
#include <thread>

#include "commands/catalog_command.hpp"
#include "commands/run_console.hpp"
#include "commands/terminal_progress.hpp"
#include "commands/toolkit_audit.hpp"
#include "judge/claims.hpp"
#include "judge/sentence_counts.hpp"
#include "report/run/report_files.hpp"
#include "report/run/report_junit.hpp"
#include "results/outcome.hpp"
#include "run/fault_sharing.hpp"
#include "run/journal.hpp"
#include "run/run_sass.hpp"
#include "run/runner.hpp"
#include "util/atomic_file.hpp"
#include "util/environment.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

// One GPU's share of the run.
struct PerGpu {
  RunOptions opt;
  RunReport rep;
  Journal journal;
  fs::path journal_path, reports;
  DeviceRun run;
  double secs = 0;
  std::exception_ptr failed;
  std::unique_ptr<TerminalProgress> terminal;
  std::string prefix;  // "[GPU N] " where there are several
};

// Where the run's time went, from the report's timing.
void print_timing(const RunTiming& t) {
  fmt::print(
      "  time: {:.2f} s wall (first launch at {:.2f} s): plan {:.2f} s, runner init {:.2f} s over {} runner starts, "
      "module loads {:.2f} s, {} launches in {} batches {:.3f} s, fault line {:.2f} s, compare {:.2f} s, reports "
      "{:.2f} s; peak memory {} MiB\n",
      t.wall, t.first_launch, t.plan, t.runner_init, t.runner_starts, t.module_loads, t.launch_count, t.batch_count,
      t.launches, t.faults, t.compare, t.reports, t.peak_rss_mib);
}

// The report's header: which GPU, driver, toolkit, host and suite.
RunInfo run_info(const LoadedRun& run, const DeviceInfo& dev, const FaultShare& share, const RunFlags& flags) {
  const Catalog& cat = run.catalog;
  return {.gpu_name = dev.name,
          .compute_capability = fmt::format("{}.{}", dev.major, dev.minor),
          .sm = dev.sm(),
          .driver_version = dev.driver_version,
          .driver_cuda = dev.driver_cuda,
          .cuda_release = cat.cuda_release,
          .ptxas_version = cat.ptxas_version,
          .ptx_isa = cat.toolkit_ptx.str(),
          .toolchain = flags.toolchain == RunToolchain::Jit ? jit_toolchain(dev.driver_version, dev.driver_cuda)
                                                            : cubin_toolchain(cat.ptxas_version),
          .host = host_name(),
          .date = utc_now(),
          .suite_version = program().version,
          .suite_commit = program().commit,
          .gpu_index = std::to_string(dev.ordinal),
          .gpu_uuid = dev.uuid,
          .gpu_pci_bus_id = dev.pci_bus_id,
          .gpus_at_once = std::to_string(run.devices.size()),
          .fault_cases = share.sentence,
          .specs = run.origin.specs,
          .slurm_job = getenv_or("SLURM_ARRAY_JOB_ID", getenv_or("SLURM_JOB_ID")),
          .slurm_task = getenv_or("SLURM_ARRAY_TASK_ID")};
}

// The runner's options for one GPU: what to run, how to say it, and where its results go first.
void set_run_options(PerGpu& G, const LoadedRun& run, const DeviceInfo& dev, const FaultShare& share, const Paths& p,
                     const RunFlags& flags) {
  RunOptions& opt = G.opt;
  opt.runner = p.runner;
  opt.catalog_dir = p.catalog;  // read only: each run's job and result files go to a fresh directory (work_dir)
  opt.families.insert(flags.families.begin(), flags.families.end());
  opt.case_globs = run.globs;
  opt.progress = [t = G.terminal.get()](const std::string& line) { t->kernel_line(line); };
  // A known difference is said as known as it finishes, not as a failure (the expectations of its GPU).
  opt.on_case = [t = G.terminal.get(), &expectations = run.expectations, info = &G.rep.info](
                    const CaseResult& r, std::size_t done, std::size_t total) {
    if (expectations.empty()) return t->case_done(r, done, total);
    CaseResult seen = r;
    seen.known = known_difference(expectations, *info, r);
    t->case_done(seen, done, total);
  };
  opt.batch = flags.batch;
  opt.toolchain = flags.toolchain;
  opt.process_start = process_start();
  opt.early = run.early;
  opt.stream = !flags.no_stream;
  opt.only_gpu = flags.runners_see_all_gpus ? "" : dev.uuid;
  opt.standby_depth = flags.standby_depth;
  opt.case_timeout = flags.case_timeout;
  opt.undefined_timeout = flags.undefined_timeout;
  opt.batch_limit = flags.batch_limit;
  opt.fault_share_index = share.index;
  opt.fault_share_of = share.of;
}

// The journal: every result on disk as soon as it is known; --resume goes on from it. Two GPUs of one
// model name their reports alike: with several GPUs, each has a folder of its own.
void open_journal(PerGpu& G, const DeviceInfo& dev, bool many, bool selection, const Paths& p, bool resume) {
  G.reports = many ? fs::path(p.reports) / fmt::format("gpu{}", dev.ordinal) : fs::path(p.reports);
  if (many) fs::create_directories(G.reports);
  G.journal_path = G.reports / (report_basename(G.rep.info) + ".journal.jsonl");
  if (selection) return;
  if (resume) {
    auto done = resume_journal(G.journal_path);  // a record cut short dropped
    G.opt.done = by_kernel_and_case(done);
    fmt::print("  resuming: {} results from {}\n", done.size(), G.journal_path.string());
  }
  G.journal = Journal(G.journal_path, !resume);
  G.opt.journal = &G.journal;
}

void set_up_gpu(PerGpu& G, const LoadedRun& run, const DeviceInfo& dev, const FaultShare& share, const Paths& p,
                const RunFlags& flags) {
  const bool many = run.devices.size() > 1;
  if (!flags.quiet)
    fmt::print("\n[GPU {}] {} ({}, driver {}, CUDA {})\n", dev.ordinal, dev.name, dev.sm(), dev.driver_version,
               dev.driver_cuda);
  G.prefix = many ? fmt::format("[GPU {}] ", dev.ordinal) : "";
  G.terminal = std::make_unique<TerminalProgress>(stdout, isatty(STDOUT_FILENO) != 0, flags.verbosity(), G.prefix);
  set_run_options(G, run, dev, share, p, flags);
  G.rep.info = run_info(run, dev, share, flags);
  if (flags.toolchain == RunToolchain::Jit) fmt::print("  toolchain: {}\n", G.rep.info.toolchain);
  open_journal(G, dev, many, run.selection, p, flags.resume);
}

// Every GPU at once, a thread each; a GPU whose runner cannot run costs only that GPU's cases.
void run_all(std::vector<PerGpu>& gpus, const LoadedRun& run, const std::vector<FaultShare>& shares) {
  std::vector<std::thread> threads;
  for (std::size_t g = 0; g < gpus.size(); ++g)
    threads.emplace_back([&, g] {
      PerGpu& G = gpus[g];
      try {
        auto t0 = std::chrono::steady_clock::now();
        G.run = run_on_device(run.suite, run.catalog, run.devices[g], G.opt);
        G.secs = seconds_since(t0);
        G.terminal->finish();
      } catch (...) { G.failed = std::current_exception(); }
    });
  for (auto& t : threads) t.join();
  // The fault cases a GPU left to another of its kind, from that GPU's results.
  std::vector<DeviceRun*> runs;
  for (auto& G : gpus) runs.push_back(&G.run);
  if (std::none_of(gpus.begin(), gpus.end(), [](const PerGpu& G) { return G.failed != nullptr; }))
    fill_shared_fault_cases(run.devices, shares, runs);
}

// The claims judged from the audit and the results (the hypotheses' findings marked), and the
// sentences of the manual they judged, per section.
void judge_results(RunReport& rep, const Suite& suite, const Audit& audit) {
  rep.claims = evaluate_claims(suite, audit, rep.results);
  mark_hypothesis_findings(suite, rep.claims, rep.results);
  rep.sentences = count_sentences(suite.specs, judged_in_run(suite, audit, rep.claims, rep.results));
}

// One GPU's end: its results judged, its expectations applied, its reports written, its verdict said.
bool finish_gpu(PerGpu& G, const LoadedRun& run, const Audit& audit, const RunFlags& flags, HistoryStore* history) {
  if (G.failed) std::rethrow_exception(G.failed);
  RunReport& rep = G.rep;
  rep.results = std::move(G.run.results);
  rep.timing = G.run.timing;
  judge_results(rep, run.suite, audit);
  rep.sass = run_sass(run.catalog, rep.results);
  for (auto const& f : run.expectations)
    if (f.speaks_for(rep.info)) rep.expectations_applied.push_back(f.file);
  if (!run.selection) rep.expectations_unmatched = apply_expectations(run.expectations, rep);
  else apply_expectations(run.expectations, rep);  // a selection leaves out what others expect: not reported
  for (auto const& u : rep.expectations_unmatched) fmt::print("  {}{}\n", G.prefix, wrapped(u, 98, 6));
  // The failures were printed in full as they happened; the findings are said here.
  print_claims(stdout, rep.claims, flags.verbosity(), G.prefix);
  print_sentence_counts(stdout, rep.sentences, flags.verbosity(), "not judged in this run", G.prefix);
  // The report's own time: the process start to this moment; write_reports adds the writing of the
  // Markdown, JUnit and HTML files (the JSON cannot hold the time of its own writing).
  rep.timing.wall = seconds_since(process_start());
  rep.timing.peak_rss_mib = peak_rss_mib();
  std::string written;
  if (!run.selection) {
    const auto t_reports = std::chrono::steady_clock::now();
    // The timing as the JSON holds it: the run recorded below and its file imported later are one run
    // (one content key), not two.
    rep.timing = write_reports(rep, G.reports, &run.suite.specs);
    const double reports_s = seconds_since(t_reports);
    fs::remove(G.journal_path);  // the reports now hold everything it did
    written = fmt::format("{}/{}.{{json,md,xml,html}}", G.reports.string(), report_basename(rep.info));
    // The files first: a history that fails costs no report (commands/history_recording).
    record_run(history, rep, G.reports / (report_basename(rep.info) + ".json"), G.prefix);
    rep.timing.reports = reports_s;  // for the line below: what the files took in all
    rep.timing.wall = seconds_since(process_start());
  } else {  // a selection speaks for its cases only: its JUnit file, for a CI's junit step, and no report
    const fs::path junit = G.reports / (report_basename(rep.info) + "-selection.xml");
    try {
      fs::create_directories(G.reports);
      write_file_atomically(junit, report_junit(rep));
      written = junit.string() + " only (JUnit of the selected cases)";
    } catch (const std::exception& e) {
      fmt::print("  {}the JUnit file was not written: {}\n", G.prefix, e.what());
    }
  }
  if (flags.verbose) print_timing(rep.timing);
  else if (!flags.quiet)
    fmt::print("  {}time: {:.1f} s ({:.1f} s on the GPU side; first launch at {:.2f} s)\n", G.prefix, rep.timing.wall,
               G.secs, rep.timing.first_launch);
  print_gpu_end(stdout, rep, written, "a run of some families or cases writes only its JUnit file, and that failed",
                G.prefix);
  return tally(rep.results).needing_action > 0;
}

}  // namespace

int first_gpu() {
  if (const char* given = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) {
    std::string g = given;  // id:N,slots:1
    if (auto at = g.find("id:"); at != std::string::npos) return std::atoi(g.c_str() + at + 3);
  }
  return 0;
}

int run_on_gpus(const LoadedRun& run, const Paths& p, const RunFlags& flags) {
  // What the requirement claims rest on (the same for every GPU): the toolkit's audit, where there is
  // a toolkit. Only the claims need it, at the end, so it runs beside the GPU work and is said then.
  std::string audit_said;
  auto audit_future = std::async(std::launch::async, [&]() -> Audit {
    try {
      return audit_toolkit(run.suite, flags.no_assemble ? catalog_audit_toolchain(run.catalog, p) : find_toolchain(p),
                           p, &audit_said)
          .audit;
    } catch (const std::runtime_error& e) {
      audit_said =
          fmt::format("No toolkit to audit ({}): requirement claims are not checkable in this run\n", e.what());
      return Audit{};
    }
  });
  std::vector<PerGpu> gpus(run.devices.size());
  const std::vector<FaultShare> shares = share_fault_cases(run.devices, flags.faults_on_every_gpu);
  for (std::size_t g = 0; g < run.devices.size(); ++g) set_up_gpu(gpus[g], run, run.devices[g], shares[g], p, flags);
  run_all(gpus, run, shares);
  const Audit audit = audit_future.get();
  if (flags.verbose) fmt::print("\n{}", audit_said);
  else if (audit.ptxas_version.empty()) fmt::print("\n{}", wrapped(audit_said));  // why no toolkit claim is checkable
  print_audit_findings(stdout, audit, flags.verbosity());
  bool any_needs_action = false;
  // A selection writes no report and records nothing: the history keeps runs of every case.
  const std::unique_ptr<HistoryStore> history = run.selection ? nullptr : open_history_for_recording(flags.history);
  for (auto& G : gpus) any_needs_action = finish_gpu(G, run, audit, flags, history.get()) || any_needs_action;
  return any_needs_action ? kExitFound : 0;
}

}  // namespace ptxcts

#include "run/runner.hpp"

#include <fmt/format.h>

#include <map>

#include <stdlib.h>

#include <cstdlib>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "kinds/kinds.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_protocol.hpp"
#include "util/subprocess.hpp"
#include "assemble/cubin_check.hpp"
#include "util/worker_threads.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// A case handed to the device: where its result goes, and its kind's check.
struct Pending {
  std::size_t result;  // index into the run's results
  const KernelPlan* kernel;
  std::unique_ptr<PreparedCase> prepared;
  bool isolated = false;  // a fault case: run alone, in a runner of the fault pool
};

// A run's own directory for its job and result files: runs at the same time (ctest -j, two
// shells) never share one, and the catalog may be read-only. Removed when the run ends, failed or
// not: every result is in the run's results and journal, and the job file is made again from the
// suite and the catalog.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const fs::path& parent) {
    fs::create_directories(parent);
    std::string name = (parent / "ptxcts-run-XXXXXX").string();
    if (!mkdtemp(name.data()))
      throw std::runtime_error(
          fmt::format("{}: cannot make the run's scratch directory: {}", name, std::strerror(errno)));
    path = name;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// What the run is made of: a result for every (kernel, case) the options select, known at once
// for skips, errors and resumed cases; a job and a pending check for each case to launch.
struct Plan {
  std::vector<Pending> pending;
  std::vector<DeviceJob> jobs;
};

Plan plan_run(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt,
              DeviceRun& run) {
  Plan plan;
  std::map<std::string, std::string> checked_cubins;  // cubin -> what is wrong with it ("": nothing)
  auto record = [&](CaseResult r) {
    if (opt.journal) opt.journal->append(r);
    run.results.push_back(std::move(r));
  };
  for (auto const& k : suite.kernels) {
    if (!opt.families.empty() && !opt.families.count(k.family)) continue;
    const InstructionKind& kind = kind_of(k);
    std::string instruction;
    for (auto const* s : k.steps) instruction += (instruction.empty() ? "" : " ; ") + s->mnemonic();
    CubinChoice choice = select_cubin(suite.specs.targets, catalog, k, device.major, device.minor);
    // The cubin is checked against the seal the catalog recorded (once per file): a damaged copy is an
    // error for its cases, never a launch of whatever bytes are there.
    if (const Assembly* a = choice.assembly; a && choice.error.empty() && !a->cubin_seal.empty()) {
      auto [at, fresh] = checked_cubins.try_emplace(a->cubin);
      if (fresh) at->second = cubin_file_problem(opt.catalog_dir / a->cubin, a->cubin_seal, a->target);
      if (!at->second.empty())
        choice.error = fmt::format("the catalog's cubin {} is damaged ({}): rebuild the catalog with 'ptxcts catalog'",
                                   a->cubin, at->second);
    }
    if (choice.skip.empty() && choice.error.empty() && !k.runnable())
      choice.skip =
          "the spec gives this form's syntax and requirements but no layout yet, so nothing can check its result";
    const std::string& skip = choice.skip;
    const std::string& error = choice.error;
    const Assembly* a = choice.assembly;
    for (auto const& c : suite.specs.cases.cases) {
      if (!kind.takes(k, c)) continue;
      if (auto d = opt.done.find({k.name, c.name}); d != opt.done.end()) {  // resumed: already known
        run.results.push_back(d->second);
        continue;
      }
      CaseResult r;
      r.fault_case = c.fault != Fault::None;
      r.kernel = k.name;
      r.family = k.family;
      r.instruction = instruction;
      r.case_name = c.name;
      if (!skip.empty() || !error.empty()) {
        r.status = skip.empty() ? Status::Error : Status::Skip;
        r.reason = skip.empty() ? error : skip;
        record(std::move(r));
        continue;
      }
      r.target = a->target;
      r.ptx_isa = a->ptx.str();
      std::unique_ptr<PreparedCase> prepared;
      try {
        prepared = kind.prepare(suite.specs.cases, c, k);
      } catch (const std::exception& e) {
        r.status = Status::Error;
        r.reason = fmt::format("cannot build the case's data: {}", e.what());
        record(std::move(r));
        continue;
      }
      plan.jobs.push_back({.id = static_cast<std::uint32_t>(plan.jobs.size()),
                           .cubin = fs::absolute(opt.catalog_dir / a->cubin).string(),
                           .kernel_name = a->entry,
                           .label = k.name + "/" + c.name,
                           .input = prepared->input});
      plan.pending.push_back({run.results.size(), &k, std::move(prepared), c.fault != Fault::None});
      run.results.push_back(std::move(r));
    }
  }
  return plan;
}

// The verdict on what the device gave back (or why nothing came back).
void judge_case(CaseResult& r, const PreparedCase& prepared, const DeviceResult* got, const std::string& lost_reason,
                Status lost_status) {
  if (!got) {
    r.status = lost_status;
    r.reason = lost_reason;
    return;
  }
  if (!got->ok) {
    r.status = Status::Crash;
    r.reason = got->error;
    return;
  }
  try {
    CaseOutcome o = prepared.check(got->state);
    r.observed_layout = std::move(o.observed_layout);
    r.roundtrip_identity = o.roundtrip_identity;
    r.mismatches = o.comparison.mismatches;
    r.diff = std::move(o.comparison.diff);
    r.status = r.mismatches == 0 ? Status::Pass : Status::Fail;
    if (r.mismatches) r.reason = fmt::format("{} element(s) differ from the reference model", r.mismatches);
  } catch (const std::exception& e) {
    r.status = r.fault_case ? Status::Fail : Status::Error;
    r.reason =
        r.fault_case
            ? fmt::format("the GPU did not fault, and the reference model cannot say what it should give: {}", e.what())
            : fmt::format("reference model: {}", e.what());
  }
}

// Finishes cases as their results arrive: the verdict, the journal, and a progress line when a
// kernel's last case is in.
class Finisher {
 public:
  Finisher(const Plan& plan, DeviceRun& run, const RunOptions& opt)
      : plan_(plan), run_(run), opt_(opt), finished_(plan.pending.size(), false) {
    for (auto const& p : plan.pending) ++left_[p.kernel];
  }
  bool finished(std::size_t n) const {
    std::lock_guard<std::mutex> hold(mutex_);
    return finished_[n];
  }
  // Called from the main runner's thread and the fault pool's threads at once.
  void finish(std::size_t n, const DeviceResult* got, const std::string& lost_reason = "",
              Status lost_status = Status::Crash) {
    std::lock_guard<std::mutex> hold(mutex_);
    if (n >= plan_.pending.size() || finished_[n]) return;
    finished_[n] = true;
    const Pending& p = plan_.pending[n];
    CaseResult& r = run_.results[p.result];
    judge_case(r, *p.prepared, got, lost_reason, lost_status);
    if (opt_.journal) opt_.journal->append(r);
    if (--left_[p.kernel] == 0 && opt_.progress) opt_.progress(kernel_line(*p.kernel));
  }

 private:
  std::string kernel_line(const KernelPlan& kernel) {
    int pass = 0, total = 0, faults = 0, faulted = 0;
    for (auto const& q : plan_.pending) {
      if (q.kernel != &kernel) continue;
      const CaseResult& qr = run_.results[q.result];
      if (qr.fault_case) {
        ++faults;
        faulted += qr.status == Status::Crash || qr.status == Status::Timeout;
        continue;
      }
      ++total;
      pass += qr.status == Status::Pass;
    }
    return fmt::format("[{:>3}/{}] {:<5} {} ({}/{} cases pass{})", ++kernels_done_, left_.size(),
                       pass == total ? "pass" : "FAIL", kernel.name, pass, total,
                       faults ? fmt::format("; fault cases: {} of {} faulted", faulted, faults) : "");
  }
  const Plan& plan_;
  DeviceRun& run_;
  const RunOptions& opt_;
  std::vector<bool> finished_;
  std::map<const KernelPlan*, int> left_;  // cases of each kernel still to finish
  std::size_t kernels_done_ = 0;
  mutable std::mutex mutex_;
};

// Hands a group of launches (ids into the plan) to the device runner; after a fault it exits and a
// fresh one goes on from the next launch, so that one bad case never costs another. Results are
// checked as they arrive. The runner's exit codes (device_protocol.hpp): done, stopped after
// recording a device fault, or cannot run at all; anything else (a signal, an abort) means it died
// inside the launch after its last record.
void launch_group(const std::vector<DeviceJob>& jobs, const fs::path& dir, const std::string& name,
                  const DeviceInfo& device, const RunOptions& opt, Finisher& fin) {
  const std::size_t count = jobs.size();
  if (!count) return;
  fs::path jobs_file = dir / fmt::format("device{}-{}-jobs.bin", device.ordinal, name);
  fs::path results_file = dir / fmt::format("device{}-{}-results.bin", device.ordinal, name);
  {
    std::ofstream out(jobs_file, std::ios::binary | std::ios::trunc);
    write_jobs(out, jobs);
  }
  { std::ofstream truncate(results_file, std::ios::binary | std::ios::trunc); }

  std::ifstream results_in(results_file, std::ios::binary);
  auto drain = [&] {
    while (auto g = read_result(results_in)) fin.finish(g->id, &*g);
  };
  auto finish_at = [&](std::size_t k, const std::string& reason, Status status = Status::Crash) {
    fin.finish(jobs[k].id, nullptr, reason, status);
  };
  std::size_t next = 0;
  while (next < count) {
    ProcessResult pr = run_process(
        {opt.runner, "--device", std::to_string(device.ordinal), "--jobs", jobs_file.string(), "--results",
         results_file.string(), "--start", std::to_string(next)},
        0,
        [&](const std::string& line) {
          if (line.rfind("done ", 0) == 0) drain();
        },
        opt.case_timeout);
    drain();
    std::size_t after = next;
    while (after < count && fin.finished(jobs[after].id)) ++after;
    if (pr.exit_code == kDeviceDone && pr.signal == 0 && after == count) break;
    if (pr.exit_code == kDeviceUsage || pr.exit_code == kDeviceUnusable || pr.exit_code == 127 ||
        (pr.exit_code == kDeviceDone && pr.signal == 0)) {
      for (std::size_t k = after; k < count; ++k) finish_at(k, "the device runner could not run: " + pr.output);
      break;
    }
    if (pr.went_quiet) {  // the watchdog: the launch in flight hung
      finish_at(after, fmt::format("no result within {} s; the device runner was killed", opt.case_timeout),
                Status::Timeout);
      ++after;
    } else if (pr.exit_code != kDeviceFaulted || after == next) {
      finish_at(after, pr.signal ? fmt::format("the device runner died with signal {} during this launch", pr.signal)
                                 : fmt::format("the device runner exited with {} during this launch", pr.exit_code));
      ++after;
    }
    next = after;
  }
}

// The fault pool's size: fault cases each cost a runner start (driver, context, module) and end
// it, so several run side by side, beside the main runner.
// PTXCTS_FAULT_WORKERS=N sets the pool's size; 0, the default, is no pool: fault cases run in the
// main runner's line, restarting it after each fault. Off by default because on the H100 (driver
// 580.159.04) a pool made the full run slower, not faster: 36.8 s without it, 47.2 s with 8
// workers, 56.6 s with 2 (a fault in one context seems to stall the GPU for the others).
unsigned fault_workers(std::size_t faults) {
  unsigned want = 0;
  if (const char* env = std::getenv("PTXCTS_FAULT_WORKERS")) want = static_cast<unsigned>(std::atoi(env));
  return static_cast<unsigned>(std::min<std::size_t>(faults, want));
}

// The main runner takes every ordinary case in one process; the fault cases (those meant to fault,
// which end their runner) go to a pool of runners working in parallel with it, one case each, so
// that a fault costs no other case and no waiting in line.
void launch_all(const Plan& plan, const DeviceInfo& device, const RunOptions& opt, Finisher& fin) {
  const ScratchDir scratch(opt.work_dir.empty() ? fs::temp_directory_path() : opt.work_dir);
  std::vector<DeviceJob> main_jobs, fault_jobs;
  std::size_t isolated = 0;
  for (auto const& p : plan.pending) isolated += p.isolated;
  const bool pool_on = fault_workers(isolated) > 0;
  for (std::size_t k = 0; k < plan.jobs.size(); ++k)
    (pool_on && plan.pending[k].isolated ? fault_jobs : main_jobs).push_back(plan.jobs[k]);
  std::atomic<std::size_t> next_fault{0};
  std::vector<std::function<void()>> workers = {[&] { launch_group(main_jobs, scratch.path, "main", device, opt, fin); }};
  for (unsigned w = 0; w < fault_workers(fault_jobs.size()); ++w)
    workers.push_back([&] {
      for (std::size_t f; (f = next_fault++) < fault_jobs.size();)
        launch_group({fault_jobs[f]}, scratch.path, fmt::format("fault{}", f), device, opt, fin);
    });
  run_threads(workers);
}

}  // namespace

DeviceRun run_on_device(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt) {
  DeviceRun run;
  const Plan plan = plan_run(suite, catalog, device, opt, run);
  Finisher fin(plan, run, opt);
  launch_all(plan, device, opt, fin);
  return run;
}

}  // namespace ptxcts

#include "run/runner.hpp"

#include <fmt/format.h>

#include <map>

#include <stdlib.h>

#include <cstdlib>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "assemble/assembly_batch.hpp"
#include "assemble/cubin_check.hpp"
#include "kinds/kinds.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_protocol.hpp"
#include "util/subprocess.hpp"
#include "util/worker_threads.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// A case handed to the device: where its result goes, and its kind's check.
struct Pending {
  std::size_t result;  // index into the run's results
  const KernelPlan* kernel;
  const CaseSpec* spec = nullptr;
  std::string module, entry;               // what the job loads (cubin or PTX) and launches
  std::unique_ptr<PreparedCase> prepared;  // made by prepare_jobs, just before its line starts
  bool isolated = false;                   // a fault or alignment-edge case: the fault line, one launch a runner
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
// for skips, errors and resumed cases; a pending check (and, once prepared, a job) for each case to
// launch. The results vector is complete before any launch, in the suite's order.
struct Plan {
  std::vector<Pending> pending;
  std::vector<DeviceJob> jobs;  // jobs[n] is pending[n]'s, once prepared
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
    // (Under JIT the cubin is not loaded, so it is not checked.)
    if (const Assembly* a = choice.assembly;
        a && choice.error.empty() && !a->cubin_seal.empty() && opt.toolchain == RunToolchain::Cubin) {
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
      // What the runner loads: the cubin, or the kernel's own PTX module, whose entry is the skeleton's
      // (a cubin's entry may be renamed, in a batch).
      const bool jit = opt.toolchain == RunToolchain::Jit;
      const std::string& module = jit ? a->ptx_file : a->cubin;
      plan.pending.push_back({.result = run.results.size(),
                              .kernel = &k,
                              .spec = &c,
                              .module = fs::absolute(opt.catalog_dir / module).string(),
                              .entry = jit ? kSkeletonEntry : a->entry,
                              .prepared = nullptr,
                              .isolated = c.fault != Fault::None});
      run.results.push_back(std::move(r));
    }
  }
  plan.jobs.resize(plan.pending.size());
  return plan;
}

// The verdict on what the device gave back (or why nothing came back).
void judge_case(CaseResult& r, const PreparedCase* prepared, const DeviceResult* got, const std::string& lost_reason,
                Status lost_status) {
  if (!got || !prepared) {
    r.status = lost_status;
    r.reason = lost_reason;
    return;
  }
  if (!got->ok) {  // a module that did not load: refused (skip) or an error; else the launch failed
    r.status = got->load == ModuleLoad::Refused  ? Status::Skip
               : got->load == ModuleLoad::Failed ? Status::Error
                                                 : Status::Crash;
    r.reason = got->error;
    return;
  }
  try {
    CaseOutcome o = prepared->check(got->state);
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
  double compare_seconds() const {
    std::lock_guard<std::mutex> hold(mutex_);
    return compare_seconds_;
  }
  bool finished(std::size_t n) const {
    std::lock_guard<std::mutex> hold(mutex_);
    return finished_[n];
  }
  // Called from both device lines' threads (and their runners' reader threads) at once.
  // `input`, if given, gives back the case's launch inputs (moved into the job file) for the check.
  void finish(std::size_t n, const DeviceResult* got, const std::string& lost_reason = "",
              Status lost_status = Status::Crash, const std::function<LaunchInput()>& input = {}) {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      if (n >= plan_.pending.size() || finished_[n]) return;
      finished_[n] = true;
    }
    // The check runs outside the lock: the lines' threads check their results side by side.
    const Pending& p = plan_.pending[n];
    CaseResult& r = run_.results[p.result];
    const auto t0 = std::chrono::steady_clock::now();
    std::string unreadable;
    if (p.prepared && got && got->ok && input) try {
        p.prepared->input = input();
      } catch (const std::exception& e) { unreadable = e.what(); }
    if (unreadable.empty()) judge_case(r, p.prepared.get(), got, lost_reason, lost_status);
    else judge_case(r, nullptr, nullptr, "cannot read the case's inputs back: " + unreadable, Status::Error);
    if (p.prepared) p.prepared->input = {};  // judged: its inputs are not needed again
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> hold(mutex_);
    compare_seconds_ += secs;
    if (opt_.journal) opt_.journal->append(r);
    ++done_;
    if (opt_.on_case) opt_.on_case(r, done_, plan_.pending.size());
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
  std::size_t kernels_done_ = 0, done_ = 0;
  double compare_seconds_ = 0;
  mutable std::mutex mutex_;
};

// What the device lines add up while they run (each line its own; summed at the end).
struct LineTiming {
  RunnerTiming runners;  // the runners' own clocks
  int starts = 0;
  void add(const std::string& line) {
    if (auto t = parse_timing_line(line)) {
      runners.init_ms += t->init_ms;
      runners.modules_ms += t->modules_ms;
      runners.gpu_ms += t->gpu_ms;
      runners.launches += t->launches;
      runners.batches += t->batches;
    }
  }
};

// One line of launches (a job file) handed to device runners. Batches of `batch` launches; after a
// fault a fresh runner goes on from the next launch, so one bad case never costs another. A batch
// that faults (exit 5) or whose runner dies or hangs with several of its launches unrecorded is run
// again one launch at a time, so exactly the launch at fault is recorded. With `standby`, the next
// runner is started ahead of time (its context made while the current one works) and handed the
// remaining launches through its go file the moment the current one ends.
class DeviceLine {
 public:
  DeviceLine(std::vector<DeviceJob> jobs, const fs::path& dir, const std::string& name, const DeviceInfo& device,
             const RunOptions& opt, Finisher& fin, unsigned batch, bool standby, std::function<void()> first_launch)
      : jobs_(std::move(jobs)),
        dir_(dir),
        name_(name),
        device_(device),
        opt_(opt),
        fin_(fin),
        batch_(batch),
        standby_(standby),
        first_launch_(std::move(first_launch)) {}

  LineTiming run() {
    if (jobs_.empty()) return {};
    jobs_file_ = dir_ / fmt::format("device{}-{}-jobs.bin", device_.ordinal, name_);
    results_file_ = dir_ / fmt::format("device{}-{}-results.bin", device_.ordinal, name_);
    {
      std::ofstream out(jobs_file_, std::ios::binary | std::ios::trunc);
      write_jobs(out, jobs_, &job_offsets_);
      out.flush();
      if (!out) throw std::runtime_error(fmt::format("{}: cannot write the job file", jobs_file_.string()));
    }
    for (auto& j : jobs_) j.input = {};  // on disk now; the line needs only the ids (peak memory)
    { std::ofstream truncate(results_file_, std::ios::binary | std::ios::trunc); }
    results_in_.open(results_file_, std::ios::binary);
    jobs_in_.open(jobs_file_, std::ios::binary);
    for (std::size_t k = 0; k < jobs_.size(); ++k) index_of_[jobs_[k].id] = k;
    std::size_t next = 0, single_until = 0;  // jobs before single_until run one at a time
    std::unique_ptr<Standby> ready = standby_ ? start_standby() : nullptr;
    while (next < jobs_.size()) {
      const bool single = next < single_until;
      const unsigned batch = single ? 1 : batch_;
      const std::size_t count = single ? single_until - next : 0;
      in_flight_ = {next, next + 1};
      ProcessResult pr;
      if (ready) {  // hand the launches to the runner made ready ahead of time, and ready the next
        std::unique_ptr<Standby> current = std::move(ready);
        ready = start_standby();
        write_go(current->go.string(), GoOrder{static_cast<unsigned>(next), static_cast<unsigned>(count)});
        pr = current->finish();
      } else {
        ++timing_.starts;
        pr = run_process(
            {opt_.runner, "--device", std::to_string(device_.ordinal), "--jobs", jobs_file_.string(), "--results",
             results_file_.string(), "--start", std::to_string(next), "--count", std::to_string(count), "--batch",
             std::to_string(batch), "--toolchain", to_string(opt_.toolchain)},
            0, [this](const std::string& line) { hear(line); }, opt_.case_timeout);
      }
      drain();
      std::size_t after = next;
      while (after < jobs_.size() && fin_.finished(jobs_[after].id)) ++after;
      const std::size_t asked_end = count ? next + count : jobs_.size();
      if (pr.exit_code == kDeviceDone && pr.signal == 0 && after >= asked_end) {
        next = after;
        continue;
      }
      if (pr.exit_code == kDeviceUsage || pr.exit_code == kDeviceUnusable || pr.exit_code == 127 ||
          (pr.exit_code == kDeviceDone && pr.signal == 0)) {
        for (std::size_t k = after; k < jobs_.size(); ++k)
          finish_at(k, "the device runner could not run: " + pr.output);
        break;
      }
      // A batch of several launches lost: run what of it is unrecorded one launch at a time.
      if (in_flight_.second - in_flight_.first > 1 && after >= in_flight_.first && after < in_flight_.second) {
        single_until = in_flight_.second;
        next = after;
        continue;
      }
      if (pr.went_quiet) {  // the watchdog: the launch in flight hung
        finish_at(after, fmt::format("no result within {} s; the device runner was killed", opt_.case_timeout),
                  Status::Timeout);
        ++after;
      } else if (pr.exit_code != kDeviceFaulted || after == next) {
        finish_at(after, pr.signal ? fmt::format("the device runner died with signal {} during this launch", pr.signal)
                                   : fmt::format("the device runner exited with {} during this launch", pr.exit_code));
        ++after;
      }
      next = after;
    }
    if (ready) {
      write_go(ready->go.string(), std::nullopt);
      ready->finish();
    }
    return timing_;
  }

 private:
  // A runner started ahead of time; its thread waits for it to end.
  struct Standby {
    fs::path go;
    ProcessResult result;
    std::thread thread;
    ProcessResult finish() {
      if (thread.joinable()) thread.join();
      return result;
    }
    ~Standby() {
      if (thread.joinable()) thread.join();
    }
  };

  std::unique_ptr<Standby> start_standby() {
    auto s = std::make_unique<Standby>();
    s->go = dir_ / fmt::format("device{}-{}-go{}", device_.ordinal, name_, timing_.starts);
    ++timing_.starts;
    Standby* raw = s.get();
    raw->thread = std::thread([this, raw] {
      try {
        raw->result = run_process(
            {opt_.runner, "--device", std::to_string(device_.ordinal), "--jobs", jobs_file_.string(), "--results",
             results_file_.string(), "--batch", "1", "--standby", raw->go.string(), "--toolchain",
             to_string(opt_.toolchain)},
            0, [this](const std::string& line) { hear(line); }, opt_.case_timeout);
      } catch (const std::exception& e) { raw->result.output = e.what(); }
    });
    return s;
  }

  // A runner's progress lines (from its own thread: a standby's lines arrive beside the current one's).
  void hear(const std::string& line) {
    std::lock_guard<std::mutex> hold(mutex_);
    if (line.rfind("done ", 0) == 0) drain_locked();
    else if (line.rfind("batch ", 0) == 0) {
      std::size_t k = 0, n = 0;
      if (std::sscanf(line.c_str(), "batch %zu %zu", &k, &n) == 2) in_flight_ = {k, k + n};
      if (first_launch_) first_launch_();
    } else if (line.rfind("timing ", 0) == 0) timing_.add(line);
  }
  void drain() {
    std::lock_guard<std::mutex> hold(mutex_);
    drain_locked();
  }
  void drain_locked() {
    while (auto g = read_result(results_in_)) {
      auto at = index_of_.find(g->id);
      if (at == index_of_.end()) continue;  // not a job of this line's: a foreign record is no result
      fin_.finish(g->id, &*g, "", Status::Crash, [&] { return read_job_at(jobs_in_, job_offsets_[at->second]).input; });
    }
  }
  void finish_at(std::size_t k, const std::string& reason, Status status = Status::Crash) {
    fin_.finish(jobs_[k].id, nullptr, reason, status);
  }

  std::vector<DeviceJob> jobs_;
  fs::path dir_;
  std::string name_;
  const DeviceInfo& device_;
  const RunOptions& opt_;
  Finisher& fin_;
  unsigned batch_;
  bool standby_;
  std::function<void()> first_launch_;
  fs::path jobs_file_, results_file_;
  std::ifstream results_in_, jobs_in_;
  std::vector<std::uint64_t> job_offsets_;               // where each job starts in the job file
  std::map<std::uint32_t, std::size_t> index_of_;        // job id -> index in jobs_
  std::pair<std::size_t, std::size_t> in_flight_{0, 0};  // the batch the runner said it launched
  LineTiming timing_;
  std::mutex mutex_;
};

// Makes the inputs of the selected pending cases (the kind's case data) and their jobs; a case
// whose data cannot be made is finished as an error at once. Returns their jobs.
std::vector<DeviceJob> prepare_jobs(const Suite& suite, Plan& plan, Finisher& fin, bool isolated) {
  std::vector<DeviceJob> jobs;
  for (std::size_t n = 0; n < plan.pending.size(); ++n) {
    Pending& p = plan.pending[n];
    if (p.isolated != isolated) continue;
    try {
      p.prepared = kind_of(*p.kernel).prepare(suite.specs.cases, *p.spec, *p.kernel);
    } catch (const std::exception& e) {
      fin.finish(n, nullptr, fmt::format("cannot build the case's data: {}", e.what()), Status::Error);
      continue;
    }
    jobs.push_back({.id = static_cast<std::uint32_t>(n),
                    .module = p.module,
                    .kernel_name = p.entry,
                    .label = p.kernel->name + "/" + p.spec->name,
                    .input = std::move(p.prepared->input)});
  }
  return jobs;
}

// Ordinary cases go to the main line, in batches; the isolated cases (fault cases and the
// alignment-edge cases, which may end their runner) go to the fault line, one launch each, with a
// runner always made ready ahead of time. The fault line's cases are prepared first and it starts
// at once: it is the longer line (a device fault costs a runner), and the ordinary cases are
// prepared while it works. The two lines run side by side.
void launch_all(const Suite& suite, Plan& plan, const DeviceInfo& device, const RunOptions& opt, Finisher& fin,
                DeviceRun& run) {
  const ScratchDir scratch(opt.work_dir.empty() ? fs::temp_directory_path() : opt.work_dir);
  std::once_flag launched;
  const auto started = opt.process_start.value_or(std::chrono::steady_clock::now());
  auto first_launch = [&] {
    std::call_once(launched, [&] {
      run.timing.first_launch = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    });
  };
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  const auto t_plan = std::chrono::steady_clock::now();
  DeviceLine fault_line(prepare_jobs(suite, plan, fin, true), scratch.path, "faults", device, opt, fin, 1, opt.standby,
                        first_launch);
  run.timing.plan += since(t_plan);
  LineTiming main_timing, fault_timing;
  double fault_secs = 0;
  run_threads({[&] {
                 const auto t0 = std::chrono::steady_clock::now();
                 fault_timing = fault_line.run();
                 fault_secs = since(t0);
               },
               [&] {
                 const auto t0 = std::chrono::steady_clock::now();
                 DeviceLine main_line(prepare_jobs(suite, plan, fin, false), scratch.path, "main", device, opt, fin,
                                      opt.batch, false, first_launch);
                 run.timing.plan += since(t0);
                 main_timing = main_line.run();
               }});
  RunTiming& t = run.timing;
  for (const LineTiming* l : {&main_timing, &fault_timing}) {
    t.runner_init += l->runners.init_ms / 1e3;
    t.module_loads += l->runners.modules_ms / 1e3;
    t.launches += l->runners.gpu_ms / 1e3;
    t.launch_count += static_cast<int>(l->runners.launches);
    t.batch_count += static_cast<int>(l->runners.batches);
    t.runner_starts += l->starts;
  }
  t.faults = fault_secs;
}

}  // namespace

DeviceRun run_on_device(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt) {
  DeviceRun run;
  const auto t0 = std::chrono::steady_clock::now();
  Plan plan = plan_run(suite, catalog, device, opt, run);
  run.timing.plan = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Finisher fin(plan, run, opt);
  launch_all(suite, plan, device, opt, fin, run);
  run.timing.compare = fin.compare_seconds();
  return run;
}

}  // namespace ptxcts

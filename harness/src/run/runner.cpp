#include "run/runner.hpp"
#include "results/outcome.hpp"

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
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "assemble/assembly_batch.hpp"
#include "assemble/cubin_check.hpp"
#include "kinds/kinds.hpp"
#include "run/case_stream.hpp"
#include "run/case_selection.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_protocol.hpp"
#include "run/early_runner.hpp"
#include "run/result_records.hpp"
#include "run/runner_watch.hpp"
#include "run/scratch_dir.hpp"
#include "run/standby_runner.hpp"
#include "util/checked_file.hpp"
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
  std::unique_ptr<PreparedCase> prepared;  // made by prepare_job, just before its job is written
  bool isolated = false;   // a fault, alignment-edge or undefined case: the fault line, one launch a runner
  bool undefined = false;  // its outcome is undefined on its target: the limit on an undefined case
};

// What the run is made of: a result for every (kernel, case) the options select, known at once
// for skips, errors and resumed cases; a pending check (and, once prepared, a job) for each case to
// launch. The results vector is complete before any launch, in the suite's order.
struct Plan {
  std::vector<Pending> pending;
  std::vector<DeviceJob> jobs;  // jobs[n] is pending[n]'s, once prepared
};

// Why a kernel's cases cannot be judged: a step's semantics say why (mma's block scaling), or the
// spec gives no layout yet.
std::string why_not_runnable(const KernelPlan& k) {
  for (auto const* s : k.steps)
    if (s->variant().semantics && !s->variant().semantics->unchecked().empty())
      return "the spec gives this form's syntax, requirements and fragments, but nothing can check its result: " +
             s->variant().semantics->unchecked();
  return "the spec gives this form's syntax and requirements but no layout yet, so nothing can check its result";
}

// Plans a run: what each (kernel, case) the options select becomes (a result known at once, a
// delegated placeholder, or a pending launch).
class RunPlanner {
 public:
  RunPlanner(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt,
             DeviceRun& run)
      : suite_(suite), catalog_(catalog), device_(device), opt_(opt), run_(run) {}

  Plan plan() {
    for (auto const& k : suite_.kernels) {
      if (!opt_.families.empty() && !opt_.families.count(k.family)) continue;
      const InstructionKind& kind = kind_of(k);
      std::string instruction;
      for (auto const* s : k.steps) instruction += (instruction.empty() ? "" : " ; ") + s->mnemonic();
      const CubinChoice choice = choose_cubin(k);
      for (auto const& c : suite_.specs.cases.cases)
        if (kind.takes(k, c) && selected_case(opt_.case_globs, case_id(k.name, c.name)))
          plan_case(k, c, choice, instruction);
    }
    plan_.jobs.resize(plan_.pending.size());
    return std::move(plan_);
  }

 private:
  // The cubin a kernel's cases run from on this device, or why they do not run. The cubin is checked
  // against the seal the catalog recorded (once per file): a damaged copy is an error for its cases,
  // never a launch of whatever bytes are there. (Under JIT the cubin is not loaded, so it is not checked.)
  CubinChoice choose_cubin(const KernelPlan& k) {
    CubinChoice choice = select_cubin(suite_.specs.targets, catalog_, k, device_.major, device_.minor);
    if (const Assembly* a = choice.assembly;
        a && choice.error.empty() && !a->cubin_seal.empty() && opt_.toolchain == RunToolchain::Cubin) {
      auto [at, fresh] = checked_cubins_.try_emplace(a->cubin);
      if (fresh) at->second = cubin_file_problem(opt_.catalog_dir / a->cubin, a->cubin_seal, a->target);
      if (!at->second.empty())
        choice.error = fmt::format("the catalog's cubin {} is damaged ({}): rebuild the catalog with 'ptxcts catalog'",
                                   a->cubin, at->second);
    }
    if (choice.skip.empty() && choice.error.empty() && !k.runnable()) choice.skip = why_not_runnable(k);
    return choice;
  }

  // One selected case of kernel k: resumed, skipped or an error at once, left to another GPU, or pending.
  void plan_case(const KernelPlan& k, const CaseSpec& c, const CubinChoice& choice, const std::string& instruction) {
    const std::string& skip = choice.skip;
    const std::string& error = choice.error;
    const Assembly* a = choice.assembly;
    // Which GPU's share a fault case is, counted before anything of this GPU's own (its journal)
    // matters, so that GPUs alike agree: each case is run by exactly one of them.
    // Turns are taken per case, so that each kind of fault case (the ones that do fault, and those
    // that run clean) is spread evenly.
    const bool others = c.fault != Fault::None && skip.empty() && error.empty() &&
                        isolated_seen_[c.name]++ % opt_.fault_share_of != opt_.fault_share_index;
    if (auto d = opt_.done.find({k.name, c.name}); d != opt_.done.end()) {  // resumed: already known
      run_.results.push_back(d->second);
      return;
    }
    CaseResult r = case_result(k, c, instruction);
    if (!skip.empty() || !error.empty()) {
      r.status = !skip.empty() ? (choice.lacks_form ? Status::NotSupported : Status::Skip) : Status::Error;
      r.reason = skip.empty() ? error : skip;
      if (opt_.journal) opt_.journal->append(r);
      run_.results.push_back(std::move(r));
      return;
    }
    r.target = a->target;
    r.ptx_isa = a->ptx.str();
    // Where the documents leave the case undefined for the code's target, it runs isolated like a
    // fault case, and what the GPU does is an observation.
    if (const TargetInfo* t = suite_.specs.targets.find(a->target))
      if (const UndefinedOn* u = undefined_on(suite_.specs.targets, c, k.family, *t))
        r.undefined = fmt::format("\"{}\" ({}; this code's target is {})", u->words, u->source, a->target);
    // A fault case of another GPU's share: a placeholder, filled in from that GPU's results.
    if (others) {
      r.status = Status::Skip;
      r.reason = "left to another GPU of the same model and driver (fault cases are shared)";
      run_.delegated.push_back(run_.results.size());
      run_.results.push_back(std::move(r));
      return;
    }
    // What the runner loads: the cubin, or the kernel's own PTX module, whose entry is the skeleton's
    // (a cubin's entry may be renamed, in a batch).
    const bool jit = opt_.toolchain == RunToolchain::Jit;
    const std::string& module = jit ? a->ptx_file : a->cubin;
    plan_.pending.push_back({.result = run_.results.size(),
                             .kernel = &k,
                             .spec = &c,
                             .module = fs::absolute(opt_.catalog_dir / module).string(),
                             .entry = jit ? kSkeletonEntry : a->entry,
                             .prepared = nullptr,
                             .isolated = c.fault != Fault::None || !r.undefined.empty(),
                             .undefined = !r.undefined.empty()});
    run_.results.push_back(std::move(r));
  }

  // A case's result as far as its kernel and the case itself say, before anything is chosen or run.
  static CaseResult case_result(const KernelPlan& k, const CaseSpec& c, const std::string& instruction) {
    CaseResult r;
    r.fault_case = c.fault != Fault::None;
    // The edges of the alignment rule are allowed by the manual: a fault there is not what a rule says.
    r.fault_expected = c.fault != Fault::MinimalAlignmentAddress && c.fault != Fault::MinimalAlignmentStride;
    r.kernel = k.name;
    r.family = k.family;
    r.instruction = instruction;
    r.case_name = c.name;
    return r;
  }

  const Suite& suite_;
  const Catalog& catalog_;
  const DeviceInfo& device_;
  const RunOptions& opt_;
  DeviceRun& run_;
  Plan plan_;
  std::map<std::string, std::string> checked_cubins_;  // cubin -> what is wrong with it ("": nothing)
  std::map<std::string, std::size_t> isolated_seen_;   // per case: its fault-line kernels so far (for sharing them)
};

Plan plan_run(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt,
              DeviceRun& run) {
  return RunPlanner(suite, catalog, device, opt, run).plan();
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
    r.observed = std::move(o.observed);
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
  // Whether pending case n's outcome is undefined on its target (fixed by the plan: no lock).
  bool undefined(std::size_t n) const { return n < plan_.pending.size() && plan_.pending[n].undefined; }
  // The host failed the run (a runner's full disk): the first such failure, said once both lines end.
  void fail_on_host(const std::string& why) {
    std::lock_guard<std::mutex> hold(mutex_);
    if (host_failure_.empty()) host_failure_ = why;
  }
  std::string host_failure() const {
    std::lock_guard<std::mutex> hold(mutex_);
    return host_failure_;
  }
  // Called from both device lines' threads (and their runners' reader threads) at once.
  // `input`, if given, gives back the case's launch inputs (moved into the job file) for the check.
  // `journaled` false: a case lost to the host's failure, which --resume runs again.
  void finish(std::size_t n, const DeviceResult* got, const std::string& lost_reason = "",
              Status lost_status = Status::Crash, const std::function<LaunchInput()>& input = {},
              bool journaled = true) {
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
    if (opt_.journal && journaled) opt_.journal->append(r);
    ++done_;
    // Counted over every case of the run (one denominator): those known before any launch are done.
    const std::size_t known_before = run_.results.size() - plan_.pending.size();
    if (opt_.on_case) opt_.on_case(r, known_before + done_, run_.results.size());
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
        faulted += outcome_of(qr) == Outcome::Faulted;
        continue;
      }
      ++total;
      pass += qr.status == Status::Pass;
    }
    return fmt::format("[kernel {:>3}/{}] {:<4} {} ({}/{} cases passed{})", ++kernels_done_, left_.size(),
                       pass == total ? "pass" : "fail", kernel.name, pass, total,
                       faults ? fmt::format("; fault cases: {} of {} faulted as the rule says", faulted, faults) : "");
  }
  const Plan& plan_;
  DeviceRun& run_;
  const RunOptions& opt_;
  std::vector<bool> finished_;
  std::map<const KernelPlan*, int> left_;  // cases of each kernel still to finish
  std::size_t kernels_done_ = 0, done_ = 0;
  double compare_seconds_ = 0;
  std::string host_failure_;
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
// remaining launches through its go file the moment the current one ends. `first`, if given, is a
// runner started ahead of time for this line's files (run/early_runner): the line starts with it.
class DeviceLine {
 public:
  // `write` writes the line's job file (run/case_stream) and says which jobs it holds.
  DeviceLine(std::function<LineJobs(const fs::path&)> write, const fs::path& dir, const std::string& name,
             const DeviceInfo& device, const RunOptions& opt, Finisher& fin, unsigned batch, bool standby,
             std::function<void()> first_launch, std::unique_ptr<StandbyRunner> first = nullptr)
      : write_(std::move(write)),
        files_(line_files(dir, device.ordinal, name)),
        dir_(dir),
        name_(name),
        device_(device),
        opt_(opt),
        fin_(fin),
        batch_(batch),
        standby_(standby),
        first_launch_(std::move(first_launch)),
        first_(std::move(first)) {}

  // Why a runner was killed at a limit on its progress, and whether it was loading a batch then.
  struct Stall {
    std::string why;
    bool loading = false;
  };

  LineTiming run() {
    std::deque<std::unique_ptr<StandbyRunner>> ready;
    if (!open_line(ready)) return timing_;  // the waiting runner, if any, is told to quit
    Cursor at;
    if (standby_) keep_ready(ready);
    while (at.next < ids_.size()) {
      const bool single = at.next < at.single_until;
      const unsigned batch = single ? 1 : batch_;
      const std::size_t count = single ? at.single_until - at.next : 0;
      in_flight_ = {at.next, at.next + 1};
      Stall stalled;  // where a limit on its progress killed it
      const ProcessResult pr = ready.empty() ? start_runner(batch, at.next, count, stalled)
                                             : hand_over(ready, GoOrder{.start = static_cast<unsigned>(at.next),
                                                                        .count = static_cast<unsigned>(count)},
                                                         stalled);
      drain();
      const std::size_t asked_end = count ? at.next + count : ids_.size();
      finish_garbled(pr, at.next, asked_end);
      if (!go_on(pr, stalled, single, batch, asked_end, at)) break;
    }
    for (auto& r : ready) r->finish();  // told to quit
    return timing_;
  }

 private:
  // Where the line goes on: jobs before single_until run one at a time.
  struct Cursor {
    std::size_t next = 0, single_until = 0;
  };

  // The line's jobs written, its files opened, the runner started ahead of time (if any) heard from
  // now on; false when the line has no jobs.
  bool open_line(std::deque<std::unique_ptr<StandbyRunner>>& ready) {
    if (first_) {  // started before the specs loaded: heard from now on, under this run's limits
      ++timing_.starts;
      first_->limit(opt_.case_timeout, opt_.batch_limit);
      first_->listen([this](const std::string& line) { hear(line); });
      ready.push_back(std::move(first_));
    }
    const LineJobs line = write_(files_.jobs);
    ids_ = line.ids;
    job_offsets_ = line.offsets;
    shapes_ = line.shapes;
    if (ids_.empty()) return false;
    write_file_checked(files_.results, "");  // emptied: a results file that cannot be made is an error, not a wait
    results_in_.open(files_.results, std::ios::binary);
    jobs_in_.open(files_.jobs, std::ios::binary);
    for (std::size_t k = 0; k < ids_.size(); ++k) index_of_[ids_[k]] = k;
    for (auto& r : ready) r->limit_undefined(undefined_limit(), all_undefined());  // the early runner, its jobs known now
    return true;
  }

  // The limit on a launch of cases undefined on their target (RunOptions::undefined_timeout), never
  // longer than the limit on a launch.
  double undefined_limit() const { return std::min(opt_.undefined_timeout, opt_.case_timeout); }
  // Whether jobs [first, first + count) of this line are all cases undefined on their target (the
  // fault line runs them one a batch; a batch that holds any other case keeps the limit on a launch).
  RunnerWatch::AllUndefined all_undefined() const {
    return [this](std::size_t first, std::size_t count) {
      if (count == 0 || first + count > ids_.size()) return false;
      for (std::size_t k = first; k < first + count; ++k)
        if (!fin_.undefined(ids_[k])) return false;
      return true;
    };
  }

  // After a runner ended (how: `pr`), where the line goes on (`at`); false: the line ends here.
  bool go_on(const ProcessResult& pr, const Stall& stalled, bool single, unsigned batch, std::size_t asked_end,
             Cursor& at) {
    std::size_t after = at.next;
    while (after < ids_.size() && fin_.finished(ids_[after])) ++after;
    const bool clean = pr.exit_code == kDeviceDone && pr.signal == 0;
    if (clean && after >= asked_end) {
      at.next = after;
      return true;
    }
    if (clean) {  // done, it says, with records missing
      finish_short(at.next, asked_end);
      return false;
    }
    if (pr.exit_code == kDeviceResultsUnwritable && pr.signal == 0) {
      lose_rest(after);
      return false;
    }
    if (pr.exit_code == kDeviceUsage || pr.exit_code == kDeviceUnusable || pr.exit_code == 127) {
      for (std::size_t k = after; k < ids_.size(); ++k) finish_at(k, "the device runner could not run: " + pr.output);
      return false;
    }
    // Stalled loading a batch of several (before its "batch" line): which module is unknown, so the
    // launches it may have been loading run one at a time.
    if (pr.stalled && stalled.loading && !single && batch > 1) {
      at.single_until = std::min<std::size_t>(ids_.size(), after + batch);
      at.next = after;
      return true;
    }
    // A batch of several launches lost: run what of it is unrecorded one launch at a time.
    if (in_flight_.second - in_flight_.first > 1 && after >= in_flight_.first && after < in_flight_.second) {
      at.single_until = in_flight_.second;
      at.next = after;
      return true;
    }
    if (!blame_launch(pr, stalled, at.next, after)) return false;
    at.next = after;
    return true;
  }

  // The launch at `after` is what the runner's end is for: it is finished saying how, and `after`
  // moves past it (unless the runner faulted on a later launch than `next`); false: the rest of the
  // line is abandoned.
  bool blame_launch(const ProcessResult& pr, const Stall& stalled, std::size_t next, std::size_t& after) {
    if (pr.went_quiet) {  // the watchdog: the launch in flight hung
      finish_at(after, fmt::format("no result within {} s; the device runner was killed", opt_.case_timeout),
                Status::Timeout);
      ++after;
    } else if (pr.stalled) {  // it kept talking, but made no progress within a limit
      finish_at(after++, stalled.why, Status::Timeout);
      // Stuck loading modules is the runner's or the driver's trouble, not a case's (a launch that
      // never ends, talking or not, is its case's): after a few, the rest of the line is not tried.
      if (stalled.loading && ++stalls_ >= RunOptions::kStallsBeforeGivingUp) {
        for (std::size_t k = after; k < ids_.size(); ++k)
          finish_at(k,
                    fmt::format("not run: the device runner stalled {} times on this line loading modules (each "
                                "killed at the limit on a batch), so the rest of the line was abandoned",
                                stalls_),
                    Status::Error);
        return false;
      }
    } else if (pr.line_too_long) {
      finish_at(after++,
                fmt::format("the device runner printed a line longer than {} bytes (the limit on a line read from "
                            "a child), which is no line of the device protocol; it was killed",
                            kMaxChildLineBytes),
                Status::Error);
    } else if (pr.exit_code != kDeviceFaulted || after == next) {
      finish_at(after, pr.signal ? fmt::format("the device runner died with signal {} during this launch", pr.signal)
                                 : fmt::format("the device runner exited with {} during this launch", pr.exit_code));
      ++after;
    }
    return true;
  }

  // A fresh runner for jobs [next, next + count) (count 0: to the end), its progress watched.
  ProcessResult start_runner(unsigned batch, std::size_t next, std::size_t count, Stall& stalled) {
    ++timing_.starts;
    std::vector<std::string> argv = runner_argv(command(batch));
    argv.insert(argv.end(), {"--start", std::to_string(next), "--count", std::to_string(count)});
    RunnerWatch watch(opt_.case_timeout, opt_.batch_limit);
    watch.limit_undefined(undefined_limit(), all_undefined());
    watch.begin();
    ProcessResult pr = run_process(argv, ProcessOptions{.idle_seconds = opt_.case_timeout,
                                                        .on_line =
                                                            [&](const std::string& line) {
                                                              watch.hear(line);
                                                              hear(line);
                                                            },
                                                        .watch = &watch.child()});
    if (pr.stalled) stalled = {.why = watch.why_stalled(), .loading = !watch.launching()};
    return pr;
  }

  // Hands the launches to the first runner made ready ahead of time (the next one made ready meanwhile).
  ProcessResult hand_over(std::deque<std::unique_ptr<StandbyRunner>>& ready, const GoOrder& order,
                          Stall& stalled) {
    std::unique_ptr<StandbyRunner> current = std::move(ready.front());
    ready.pop_front();
    current->go(order);
    if (standby_) keep_ready(ready);
    ProcessResult pr = current->finish();
    if (pr.stalled) stalled = {.why = current->why_stalled(), .loading = !current->watch().launching()};
    return pr;
  }

  std::unique_ptr<StandbyRunner> start_standby() {
    const fs::path go = dir_ / fmt::format("device{}-{}-go{}", device_.ordinal, name_, timing_.starts);
    ++timing_.starts;
    auto runner = std::make_unique<StandbyRunner>(command(1), go, [this](const std::string& line) { hear(line); });
    runner->limit_undefined(undefined_limit(), all_undefined());  // taken at each "batch" line, after its go
    return runner;
  }

  RunnerCommand command(unsigned batch) const {
    return RunnerCommand{.runner = opt_.runner,
                         .device = device_.ordinal,
                         .files = files_,
                         .batch = batch,
                         .idle_timeout = opt_.case_timeout,
                         .launch_limit = opt_.case_timeout,
                         .batch_limit = opt_.batch_limit,
                         .toolchain = opt_.toolchain,
                         .only_gpu = opt_.only_gpu};
  }

  // Runners made ready ahead of time, up to the line's depth: each makes its context while the ones
  // before it work (a runner's start is the fault line's cost: a fault ends its runner).
  void keep_ready(std::deque<std::unique_ptr<StandbyRunner>>& ready) {
    while (ready.size() < std::max(1u, opt_.standby_depth)) ready.push_back(start_standby());
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
    else if (auto why = parse_results_unwritable_line(line)) unwritable_ = *why;
  }
  void drain() {
    std::lock_guard<std::mutex> hold(mutex_);
    drain_locked();
  }
  void drain_locked() {
    while (auto g = records_.next(results_in_)) {  // each record checked: a foreign id, a second record break it
      const std::size_t k = index_of_.at(g->id);
      // A runner records its jobs in order: those between the record before a garbled stretch and
      // the one after it are the cases whose records it garbled, an `error` (nothing crashed).
      for (std::size_t j = last_recorded_; j < k && !records_.lost_before().empty(); ++j)
        if (!fin_.finished(ids_[j])) finish_at(j, records_.lost_before(), Status::Error);
      last_recorded_ = k + 1;
      fin_.finish(g->id, &*g, "", Status::Crash, [&] { return read_job_at(jobs_in_, job_offsets_[k]).input; });
    }
  }
  // Garbage a runner wrote last, no record after it (it has ended): a runner that exited 0 says it
  // recorded every job asked for, so the garbage holds the records of each it left without one; any
  // other end garbled the record after its last (what its exit says is for the launch after that).
  void finish_garbled(const ProcessResult& pr, std::size_t next, std::size_t asked_end) {
    std::string broken;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      broken = records_.settle(results_in_);
    }
    if (broken.empty()) return;
    const bool every = pr.exit_code == kDeviceDone && pr.signal == 0;
    for (std::size_t k = next; k < asked_end; ++k) {
      if (fin_.finished(ids_[k])) continue;
      finish_at(k, broken, Status::Error);
      if (!every) break;
    }
  }
  // A runner that exited 0 (every job it was asked for recorded) with records missing broke the
  // protocol: the line's cases left without a result are an `error` saying so, never a crash.
  void finish_short(std::size_t next, std::size_t asked_end) {
    std::size_t got = 0;
    for (std::size_t k = next; k < asked_end; ++k) got += fin_.finished(ids_[k]);
    const std::string why = fmt::format(
        "device runner broke the protocol at its exit (status 0: every job asked for recorded): expected {} records "
        "in {} (jobs {} to {} of its line), got {}",
        asked_end - next, files_.results.filename().string(), next, asked_end - 1, got);
    for (std::size_t k = next; k < ids_.size(); ++k) finish_at(k, why, Status::Error);
  }
  // A runner that could not write its results file (a full disk): the host's failure, not the GPU's.
  // The line's cases left without a result are an `error` naming it, not journaled, so that --resume
  // runs them again; the run stops once both lines have ended (Finisher::host_failure).
  void lose_rest(std::size_t after) {
    std::string said;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      said = unwritable_;
    }
    if (said.empty())
      said = fmt::format("{} could not be written (exit status {}), and the runner did not say why",
                         files_.results.string(), static_cast<int>(kDeviceResultsUnwritable));
    const std::string why = "the device runner could not write its results: " + said;
    fin_.fail_on_host(why);
    for (std::size_t k = after; k < ids_.size(); ++k) fin_.finish(ids_[k], nullptr, why, Status::Error, {}, false);
  }
  void finish_at(std::size_t k, const std::string& reason, Status status = Status::Crash) {
    fin_.finish(ids_[k], nullptr, reason, status);
  }

  std::function<LineJobs(const fs::path&)> write_;
  LineFiles files_;
  fs::path dir_;
  std::string name_;
  const DeviceInfo& device_;
  const RunOptions& opt_;
  Finisher& fin_;
  unsigned batch_;
  bool standby_;
  std::function<void()> first_launch_;
  std::unique_ptr<StandbyRunner> first_;
  std::ifstream results_in_, jobs_in_;
  ResultRecords records_{files_.results.filename().string(),
                         [this](std::uint32_t id) { return index_of_.count(id) > 0; },
                         [this](std::uint32_t id) { return fin_.finished(id); },
                         [this](std::uint32_t id) { return shapes_.at(index_of_.at(id)); }};
  std::vector<std::uint32_t> ids_;                       // job k's id (its index in the plan's pending)
  std::vector<std::uint64_t> job_offsets_;               // where each job starts in the job file
  std::vector<LaunchShape> shapes_;                      // each job's shape: its record's image sizes
  std::map<std::uint32_t, std::size_t> index_of_;        // job id -> index in ids_
  std::size_t last_recorded_ = 0;                        // 1 + the index of the last job read from the results
  std::pair<std::size_t, std::size_t> in_flight_{0, 0};  // the batch the runner said it launched
  LineTiming timing_;
  int stalls_ = 0;  // runners killed at the limit on a batch while loading its modules (RunOptions::batch_limit)
  std::string unwritable_;  // what a runner said when its results file could not be written
  std::mutex mutex_;
};

// The job of pending case n, its inputs made by its kind now (the case keeps its check); a case
// whose data cannot be made is finished as an error at once, and has no job.
std::optional<DeviceJob> prepare_job(const Suite& suite, Plan& plan, std::size_t n, Finisher& fin) {
  Pending& p = plan.pending[n];
  try {
    p.prepared = kind_of(*p.kernel).prepare(suite.specs.cases, *p.spec, *p.kernel);
  } catch (const std::exception& e) {
    fin.finish(n, nullptr, fmt::format("cannot build the case's data: {}", e.what()), Status::Error);
    return std::nullopt;
  }
  return DeviceJob{.id = static_cast<std::uint32_t>(n),
                   .module = p.module,
                   .kernel_name = p.entry,
                   .label = p.kernel->name + "/" + p.spec->name,
                   .input = std::move(p.prepared->input)};
}

// Writes the job file of one line (the isolated cases, or the others) as run/case_stream does.
std::function<LineJobs(const fs::path&)> line_writer(const Suite& suite, Plan& plan, Finisher& fin, bool isolated,
                                                     bool stream, double& plan_seconds) {
  return [&suite, &plan, &fin, isolated, stream, &plan_seconds](const fs::path& file) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::size_t> cases;
    for (std::size_t n = 0; n < plan.pending.size(); ++n)
      if (plan.pending[n].isolated == isolated) cases.push_back(n);
    LineJobs line = write_line_jobs(
        file, cases.size(), [&](std::size_t k) { return prepare_job(suite, plan, cases[k], fin); }, stream);
    plan_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return line;
  };
}

// Ordinary cases go to the main line, in batches; the isolated cases (fault cases and the
// alignment-edge cases, which may end their runner) go to the fault line, one launch each, with a
// runner always made ready ahead of time (the first of them, where the command started one, since
// the command began). The two lines run side by side, each preparing its cases as it writes its
// job file; the fault line is the longer (a device fault costs a runner).
void launch_all(const Suite& suite, Plan& plan, const DeviceInfo& device, const RunOptions& opt, Finisher& fin,
                DeviceRun& run) {
  std::unique_ptr<StandbyRunner> early = opt.early ? opt.early->adopt(device.ordinal) : nullptr;
  std::optional<ScratchDir> own;
  if (!early) own.emplace(opt.work_dir.empty() ? fs::temp_directory_path() : opt.work_dir);
  const fs::path dir = early ? opt.early->dir() : own->path;
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
  double fault_plan = 0, main_plan = 0;
  DeviceLine fault_line(line_writer(suite, plan, fin, true, opt.stream, fault_plan), dir, EarlyRunner::kLine, device,
                        opt, fin, 1, opt.standby, first_launch, std::move(early));
  DeviceLine main_line(line_writer(suite, plan, fin, false, opt.stream, main_plan), dir, "main", device, opt, fin,
                       opt.batch, false, first_launch);
  LineTiming main_timing, fault_timing;
  double fault_secs = 0;
  run_threads({[&] {
                 const auto t0 = std::chrono::steady_clock::now();
                 fault_timing = fault_line.run();
                 fault_secs = since(t0);
               },
               [&] { main_timing = main_line.run(); }});
  RunTiming& t = run.timing;
  t.plan += fault_plan + main_plan;
  for (const LineTiming* l : {&main_timing, &fault_timing}) {
    t.runner_init += l->runners.init_ms / 1e3;
    t.module_loads += l->runners.modules_ms / 1e3;
    t.launches += l->runners.gpu_ms / 1e3;
    t.launch_count += static_cast<int>(l->runners.launches);
    t.batch_count += static_cast<int>(l->runners.batches);
    t.runner_starts += l->starts;
  }
  t.faults = fault_secs;
  // A full disk under the runners' results stops the run as a full disk under the journal does: what
  // was journaled stands, and --resume runs the cases lost to it again.
  if (const std::string why = fin.host_failure(); !why.empty())
    throw std::runtime_error(why + "; the run stops here, and --resume runs its cases again once there is space");
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

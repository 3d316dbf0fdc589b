// Runs the suite on one GPU: picks each kernel's cubin for the device's target, decides what to
// skip and why, hands the launches to the device runner (restarting it after a device fault),
// and compares every result with the reference model.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "assemble/catalog.hpp"
#include "plan/suite.hpp"
#include "results/results.hpp"
#include "run/device_protocol.hpp"
#include "run/device_query.hpp"
#include "run/journal.hpp"

namespace ptxcts {

class EarlyRunner;

struct RunOptions {
  std::string runner;  // the device runner program
  std::filesystem::path catalog_dir;
  std::filesystem::path work_dir;  // where each run makes a fresh directory of its own for its job and
                                   // result files, removed when it ends (empty: the system's temp directory)
  std::set<std::string> families;  // empty: all
  std::vector<std::string> case_globs = {};  // "KERNEL/CASE" globs (run/case_selection); empty: all
  std::function<void(const std::string&)> progress;  // one line per kernel (--verbose)
  // Each case as its verdict is known (from several threads, one at a time), with how many of the
  // run's launched cases are done and how many there are.
  std::function<void(const CaseResult&, std::size_t done, std::size_t total)> on_case = {};
  unsigned batch = 256;  // launches per batch in the main line
  // Cubin: load the catalog's cubins; Jit: the kernels' PTX (the catalog's <key>.ptx), built by the
  // driver's own compiler. A module the driver refuses gives its cases `skip` with the reason.
  RunToolchain toolchain = RunToolchain::Cubin;
  bool standby = true;  // the fault line keeps a runner ready ahead of time
  // How many runners the fault line keeps ready ahead of time (each fault costs its runner, and a
  // runner's start, the driver's context, is the line's cost). One: two or three starting side by
  // side were no faster on an H100 or two H200 (the starts contend in the driver), and slower on one GPU.
  unsigned standby_depth = 1;
  // When the process started (for RunTiming::first_launch); unset: the run's own start.
  std::optional<std::chrono::steady_clock::time_point> process_start = std::nullopt;
  // A runner started as the command began (run/early_runner): the fault line of its GPU starts with it.
  EarlyRunner* early = nullptr;
  bool stream = true;          // each case's inputs made just before its job is written (false: all first)
  // Seconds a launch may take before it is killed (timeout): from its batch's start to its result,
  // and as the idle watchdog (a runner silent this long; a standby runner says "waiting" only every
  // 2 s, so the watchdog, one per runner process, keeps this limit for every case).
  double case_timeout = 30;
  // Seconds a launch of a case whose outcome the documents leave undefined on its target (cases.yaml
  // `undefined:`, CaseResult::undefined) may take, from its `batch` line (its module already loaded,
  // so a slow JIT load is never taken for a hang) to its result; past it the runner is killed and the
  // case is observed to have hung within this limit (an observation, never a failure). Such a kernel
  // runs for microseconds; a launch with its copies and its record takes milliseconds (the H200's
  // fault line ran its 218 isolated cases, 66 runner starts included, in 14.7 s besides its four
  // hangs: under 0.07 s a case, all told), so 0.5 s leaves room for a loaded host several times over,
  // while each hang the words allow (mma under a predicate true for lanes 0-15 only, on an H200)
  // costs 0.5 s instead of the 30 s above: with 26 undefined cases, half of them divergent lanes
  // that may hang, 1 s would put most of a run's isolated time into waiting on hangs. These cases run on the fault line one launch a batch, and
  // the limit applies only to a batch whose every launch is such a case. At most case_timeout.
  double undefined_timeout = 0.5;
  // Seconds a batch may take, its modules' loading included, however much the runner prints
  // meanwhile ("loading" moves no limit but the idle watchdog's); past it, a `timeout`. After
  // kStallsBeforeGivingUp of those while loading modules on a line, the rest of it is abandoned as errors.
  double batch_limit = 600;
  static constexpr int kStallsBeforeGivingUp = 2;
  Journal* journal = nullptr;  // every result is appended here as soon as it is known
  // "GPU-<uuid>": every runner of this GPU sees it alone (ptxcts-device --only-gpu); "": all GPUs.
  std::string only_gpu = "";
  // The fault cases this GPU runs, when GPUs alike share them (run/fault_sharing): the isolated
  // cases whose place in the fault line is `index` modulo `of`. The others are another GPU's:
  // DeviceRun::delegated lists them, and the command fills them in from that GPU's results.
  unsigned fault_share_index = 0, fault_share_of = 1;
  std::map<std::pair<std::string, std::string>, CaseResult> done;  // resumed: not run again
};

struct DeviceRun {
  std::vector<CaseResult> results;  // with what was observed beyond pass/fail (CaseResult::roundtrip_identity)
  std::vector<std::size_t> delegated;  // results left to another GPU (fault_share_of > 1): placeholders
  RunTiming timing;                 // all but wall and reports, which the command adds
};

DeviceRun run_on_device(const Suite& suite, const Catalog& catalog, const DeviceInfo& device,
                        const RunOptions& options);

}  // namespace ptxcts

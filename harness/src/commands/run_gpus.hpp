// The GPU side of `ptxcts run`: every GPU of the host at once, a device runner (and its fault pool)
// per GPU, each GPU's results, journal and reports its own; the toolkit's audit beside the GPU work,
// for the claims; each GPU's end said as it is written.
#pragma once

#include <string>
#include <vector>

#include "commands/history_recording.hpp"
#include "assemble/catalog.hpp"
#include "commands/command_context.hpp"
#include "commands/terminal_progress.hpp"
#include "judge/expectations.hpp"
#include "plan/suite.hpp"
#include "run/device_protocol.hpp"
#include "run/device_query.hpp"
#include "run/early_runner.hpp"
#include "run/runner.hpp"

namespace ptxcts {

// The flags of `ptxcts run` that shape the run itself.
struct RunFlags {
  bool no_assemble = false, require_gpu = false, resume = false, quiet = false, verbose = false;
  unsigned batch = 256;
  RunToolchain toolchain = RunToolchain::Cubin;
  // The naive ways, kept for comparison (hidden options): no runner started before the specs load,
  // the manifest parsed in full, every case's inputs made before its line's job file is written.
  bool no_early_runner = false, no_manifest_index = false, no_stream = false;
  // Every GPU runs every fault case (by default GPUs alike share them: run/fault_sharing).
  bool faults_on_every_gpu = false;
  // The naive way kept for comparison (hidden): each runner sees every GPU of the host.
  bool runners_see_all_gpus = false;
  unsigned standby_depth = 1;  // (hidden, for comparisons) runners the fault line keeps ready
  // (hidden, for tests: the chaos soak's hangs) seconds a launch may take before it is a timeout.
  double case_timeout = RunOptions{}.case_timeout;
  // --undefined-timeout: seconds a launch of a case undefined on its target may take (RunOptions says why 0.5 s).
  double undefined_timeout = RunOptions{}.undefined_timeout;
  double batch_limit = RunOptions{}.batch_limit;  // (hidden, for tests) seconds a batch may take, loading included
  std::vector<std::string> families;      // --family
  std::vector<std::string> cases;         // --cases: KERNEL/CASE globs and @FILE case lists
  std::vector<std::string> expectations;  // --expectations: files or folders (default: the specs' expectations/)
  HistoryChoice history;                  // --history, --no-history (a selection records nothing)
  Verbosity verbosity() const { return quiet ? Verbosity::Quiet : verbose ? Verbosity::Verbose : Verbosity::Normal; }
};

// What a run has loaded before its first launch.
struct LoadedRun {
  const Suite& suite;
  Catalog& catalog;
  std::vector<DeviceInfo> devices;
  std::vector<std::string> globs;  // --cases, as globs
  bool selection = false;          // some families or cases: no reports
  const std::vector<ExpectationFile>& expectations;
  EarlyRunner* early = nullptr;
  CatalogOrigin origin;
};

// The GPU a run uses first: the one CTest gives (RESOURCE_GROUPS gpus:1), else the first.
int first_gpu();

// Runs `run` on its devices; the exit status (1 if any case needs action).
int run_on_gpus(const LoadedRun& run, const Paths& p, const RunFlags& flags);

}  // namespace ptxcts

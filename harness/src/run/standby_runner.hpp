// A device runner started ahead of time (--standby): it makes its context while other work goes
// on, then waits for its go file. Its output lines go to whoever listens at the time (listen()):
// a runner started before anyone can hear it (before the specs load) is heard from when it is
// given work.
#pragma once

#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "run/device_protocol.hpp"
#include "run/runner_watch.hpp"
#include "run/scratch_dir.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {

struct RunnerCommand {
  std::string runner;  // the device runner program
  int device = 0;
  LineFiles files;
  unsigned batch = 1;
  double idle_timeout = 30;  // a runner silent this long is killed (a standby runner says "waiting")
  // The limits on its progress (run/runner_watch): a launch's results, and a whole batch, loading included.
  double launch_limit = 30, batch_limit = 600;
  RunToolchain toolchain = RunToolchain::Cubin;  // what its jobs' modules are: cubins, or PTX for the driver's JIT
  std::string only_gpu{};  // "GPU-<uuid>": the runner sees this GPU alone (--only-gpu); "": every GPU
};

// The device runner's command line for a line of jobs: the same for a runner started now and one
// made ready ahead of time (`standby`: its go file).
std::vector<std::string> runner_argv(const RunnerCommand& c, const std::string& standby = "");

class StandbyRunner {
 public:
  StandbyRunner(const RunnerCommand& command, std::filesystem::path go,
                std::function<void(const std::string&)> on_line = {});
  StandbyRunner(const StandbyRunner&) = delete;
  StandbyRunner& operator=(const StandbyRunner&) = delete;
  ~StandbyRunner();  // a runner never given work is told to quit, and waited for

  const RunnerCommand& command() const { return command_; }
  const RunnerWatch& watch() const { return watch_; }
  // Why it was killed at a limit, as said when it was (before its go, after its quit, or working).
  const std::string& why_stalled() const { return why_stalled_; }
  // The limits on its progress from its go on (a runner started before the run's options were known).
  void limit(double launch_seconds, double batch_seconds) { watch_.limit(launch_seconds, batch_seconds); }
  // The limit on a batch of undefined cases alone (run/runner_watch), taken at its "batch" line: a
  // runner started before its cases were known gets it for the launches it is for.
  void limit_undefined(double seconds, RunnerWatch::AllUndefined all_undefined) {
    watch_.limit_undefined(seconds, std::move(all_undefined));
  }
  void listen(std::function<void(const std::string&)> on_line);
  // Run these jobs (the job file is written by now); from now its progress is watched. A go file
  // that cannot be written stops the runner (killed, not left waiting for it) and throws.
  void go(const GoOrder& order);
  // Waits for it to end; one never given work is told to quit first (killed where that cannot be said,
  // or where it does not end within the limit on a launch).
  ProcessResult finish();

 private:
  void hear(const std::string& line);
  void stop_and_wait();
  RunnerCommand command_;
  RunnerWatch watch_;
  std::filesystem::path go_;
  bool told_ = false;
  std::mutex mutex_;
  std::function<void(const std::string&)> on_line_;
  ProcessResult result_;
  std::string why_stalled_;
  std::thread thread_;
};

}  // namespace ptxcts

// The fault line's first device runner, started the moment `ptxcts run` begins: before the specs
// load, the catalog is read and the GPUs are asked for, so that its driver start and context (a
// few hundred ms on an H100) overlap that work instead of following it, and the first launch waits
// only for the first job file. It runs on the GPU the run most likely uses first (ordinal 0, or the
// one CTest gives); a run that has no such GPU, or ends early, tells it to quit.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "run/scratch_dir.hpp"
#include "run/standby_runner.hpp"

namespace ptxcts {

class EarlyRunner {
 public:
  // In a fresh scratch directory under `work_dir` (empty: the system's temp directory).
  EarlyRunner(const std::string& runner, int device, const std::filesystem::path& work_dir, double idle_timeout,
              RunToolchain toolchain = RunToolchain::Cubin);
  const std::filesystem::path& dir() const { return scratch_.path; }  // the run's scratch directory
  // The waiting runner, for the fault line of GPU `device`: once, and only for its own GPU (else nullptr).
  std::unique_ptr<StandbyRunner> adopt(int device);

  static constexpr const char* kLine = "faults";  // the line it waits for (its files in dir())

 private:
  ScratchDir scratch_;  // outlives the runner (declared first)
  std::mutex mutex_;
  std::unique_ptr<StandbyRunner> runner_;
};

}  // namespace ptxcts

#include "run/early_runner.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

EarlyRunner::EarlyRunner(const std::string& runner, int device, const fs::path& work_dir, double idle_timeout,
                         RunToolchain toolchain)
    : scratch_(work_dir.empty() ? fs::temp_directory_path() : work_dir) {
  runner_ = std::make_unique<StandbyRunner>(RunnerCommand{.runner = runner,
                                                          .device = device,
                                                          .files = line_files(scratch_.path, device, kLine),
                                                          .batch = 1,
                                                          .idle_timeout = idle_timeout,
                                                          .toolchain = toolchain},
                                            scratch_.path / "early-go");
}

std::unique_ptr<StandbyRunner> EarlyRunner::adopt(int device) {
  std::lock_guard<std::mutex> hold(mutex_);
  if (!runner_ || runner_->command().device != device) return nullptr;
  return std::move(runner_);
}

}  // namespace ptxcts

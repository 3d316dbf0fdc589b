#include "run/standby_runner.hpp"

#include <string>
#include <vector>

namespace ptxcts {
namespace fs = std::filesystem;

std::vector<std::string> runner_argv(const RunnerCommand& c, const std::string& standby) {
  std::vector<std::string> argv = {c.runner,
                                   "--device",
                                   std::to_string(c.device),
                                   "--jobs",
                                   c.files.jobs.string(),
                                   "--results",
                                   c.files.results.string(),
                                   "--batch",
                                   std::to_string(c.batch),
                                   "--toolchain",
                                   to_string(c.toolchain)};
  if (!standby.empty()) argv.insert(argv.end(), {"--standby", standby});
  if (!c.only_gpu.empty()) argv.insert(argv.end(), {"--only-gpu", c.only_gpu});
  return argv;
}

StandbyRunner::StandbyRunner(const RunnerCommand& command, fs::path go, std::function<void(const std::string&)> on_line)
    : command_(command), go_(std::move(go)), on_line_(std::move(on_line)) {
  std::vector<std::string> argv = runner_argv(command_, go_.string());
  thread_ = std::thread([this, argv = std::move(argv)] {
    try {
      result_ = run_process(
          argv, 0, [this](const std::string& line) { hear(line); }, command_.idle_timeout);
    } catch (const std::exception& e) { result_.output = e.what(); }
  });
}

StandbyRunner::~StandbyRunner() {
  try {
    finish();
  } catch (const std::exception&) {  // its go file cannot be written: its folder made again, and once more
    std::error_code ec;
    fs::create_directories(go_.parent_path(), ec);
    try {
      write_go(go_.string(), std::nullopt);
    } catch (const std::exception&) {}
    if (thread_.joinable()) thread_.join();
  }
}

void StandbyRunner::listen(std::function<void(const std::string&)> on_line) {
  std::lock_guard<std::mutex> hold(mutex_);
  on_line_ = std::move(on_line);
}

void StandbyRunner::hear(const std::string& line) {
  std::function<void(const std::string&)> to;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    to = on_line_;
  }
  if (to) to(line);
}

void StandbyRunner::go(const GoOrder& order) {
  told_ = true;
  write_go(go_.string(), order);
}

ProcessResult StandbyRunner::finish() {
  if (!told_) {
    told_ = true;
    write_go(go_.string(), std::nullopt);
  }
  if (thread_.joinable()) thread_.join();
  return result_;
}

}  // namespace ptxcts

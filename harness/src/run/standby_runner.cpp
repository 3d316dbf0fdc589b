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
    : command_(command),
      watch_(command.launch_limit, command.batch_limit),
      go_(std::move(go)),
      on_line_(std::move(on_line)) {
  std::vector<std::string> argv = runner_argv(command_, go_.string());
  watch_.start();  // a limit from its start: to be ready (then its go or quit arms the next)
  thread_ = std::thread([this, argv = std::move(argv)] {
    try {
      result_ = run_process(argv, ProcessOptions{.idle_seconds = command_.idle_timeout,
                                                 .on_line =
                                                     [this](const std::string& line) {
                                                       watch_.hear(line);
                                                       hear(line);
                                                     },
                                                 .watch = &watch_.child()});
    } catch (const std::exception& e) { result_.output = e.what(); }
    if (result_.stalled) why_stalled_ = watch_.why_stalled();  // the state it was killed in
  });
}

StandbyRunner::~StandbyRunner() {
  try {
    finish();
  } catch (const std::exception&) {}  // stopped: nothing is left waiting
}

void StandbyRunner::stop_and_wait() {
  watch_.child().stop();
  if (thread_.joinable()) thread_.join();
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
  watch_.begin();
  try {
    write_go(go_.string(), order);
  } catch (const std::exception&) {  // a full disk: it would wait for its go file forever
    stop_and_wait();
    throw;
  }
}

ProcessResult StandbyRunner::finish() {
  if (!told_) {
    told_ = true;
    try {
      write_go(go_.string(), std::nullopt);
    } catch (const std::exception&) {
      stop_and_wait();
      throw;
    }
    watch_.quit();  // told to quit: it ends within the limit on a launch, whatever it keeps printing
  }
  if (thread_.joinable()) thread_.join();
  return result_;
}

}  // namespace ptxcts

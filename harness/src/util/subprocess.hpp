// Runs a program with an argument vector (never through a shell) and captures what it prints.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxcts {

struct ProcessResult {
  int exit_code = -1;          // -1 if it could not start
  int signal = 0;              // the signal that ended it, if any
  bool timed_out = false;      // killed: ran past timeout_seconds
  bool went_quiet = false;     // killed: printed nothing for idle_seconds
  bool stalled = false;        // killed: the caller's deadline (ChildWatch) passed
  bool line_too_long = false;  // killed: a line longer than max_line_bytes (the line is cut in `output`)
  bool stopped = false;        // killed: the caller said stop (ChildWatch::stop)
  std::string output;          // stdout and stderr together, as valid UTF-8 (invalid bytes become U+FFFD)
};

// The longest line read from a child before it is killed: no tool or runner of the suite prints
// lines near it, and a child printing without end on one line costs no more than this.
constexpr std::size_t kMaxChildLineBytes = std::size_t{1} << 20;

// What a caller, in any thread, can tell a running child's reader: a deadline it moves as the
// child makes progress (output alone does not move it: a runner that only says "loading" makes
// none), and stop (kill it now: what was waiting for it gave up).
class ChildWatch {
 public:
  void deadline_in(double seconds);  // killed (stalled) unless moved again or cleared before then
  void clear_deadline();
  void stop() { stop_ = true; }
  bool stop_asked() const { return stop_; }
  std::optional<std::chrono::steady_clock::time_point> deadline() const;

 private:
  std::atomic<std::int64_t> deadline_ns_{-1};  // steady_clock's count; -1: none
  std::atomic<bool> stop_{false};
};

struct ProcessOptions {
  double timeout_seconds = 0;  // the whole run; <= 0: no limit
  double idle_seconds = 0;     // > 0: a program silent for that long is killed (for programs that report as they go)
  // Sees each line of output as it arrives (for progress), in the thread that called run_process.
  std::function<void(const std::string&)> on_line = {};
  std::size_t max_line_bytes = kMaxChildLineBytes;  // 0: no limit
  ChildWatch* watch = nullptr;                      // a deadline and stop from the caller, if any
};

// The program runs in a process group of its own, and dies with this process (Linux: a
// parent-death signal, SIGKILL, set before exec, with a check that this process had not died
// already; a device runner also checks its parent while it waits). It is done when it exits, not
// when its output closes: what it left holding its output (a grandchild in a session of its own)
// is read for a short grace, then no more. The limits hold until it exits; on expiry its whole
// process group is killed and reaped, and whatever it left in its group is killed when it ends. A
// program that cannot be started gives exit_code 127 and says why in `output`.
// The parent-death signal follows the thread that started the child: run_process returns only
// when the child is reaped, so the thread outlives it.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options);
// The same with a time limit, a line reader and an idle watchdog (see ProcessOptions).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds = 0,
                          const std::function<void(const std::string&)>& on_line = {}, double idle_seconds = 0);

// On SIGINT, SIGTERM or SIGHUP, every program started by run_process and still running (its whole
// process group: each runs in a group of its own, out of the terminal's reach) is killed, then this
// process ends by that signal. Called once, early, by the command.
void end_children_with_this_process();

}  // namespace ptxcts

// Runs a program with an argument vector (never through a shell) and captures what it prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ptxcts {

struct ProcessResult {
  int exit_code = -1;       // -1 if it could not start
  int signal = 0;           // the signal that ended it, if any
  bool timed_out = false;   // killed: ran past timeout_seconds
  bool went_quiet = false;  // killed: printed nothing for idle_seconds
  std::string output;       // stdout and stderr together, as valid UTF-8 (invalid bytes become U+FFFD)
};

// The limits hold until the program exits, even after it closes its output; on expiry its whole
// process group is killed and reaped. Whatever it left in its group is killed when it ends.
// `timeout_seconds` <= 0: no limit. A program that cannot be started gives exit_code 127
// and says why in `output`.
// `on_line`, if given, sees each line of output as it arrives (for progress). `idle_seconds` > 0:
// a program silent for that long is killed (a watchdog for programs that report as they go).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds = 0,
                          const std::function<void(const std::string&)>& on_line = {}, double idle_seconds = 0);

// On SIGINT, SIGTERM or SIGHUP, every program started by run_process and still running (its whole
// process group: each runs in a group of its own, out of the terminal's reach) is killed, then this
// process ends by that signal. Called once, early, by the command.
void end_children_with_this_process();

}  // namespace ptxcts

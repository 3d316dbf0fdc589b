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
  std::string output;       // stdout and stderr together
};

// `timeout_seconds` <= 0: no limit. A program that cannot be started gives exit_code 127
// and says why in `output`.
// `on_line`, if given, sees each line of output as it arrives (for progress). `idle_seconds` > 0:
// a program silent for that long is killed (a watchdog for programs that report as they go).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds = 0,
                          const std::function<void(const std::string&)>& on_line = {}, double idle_seconds = 0);

}  // namespace ptxcts

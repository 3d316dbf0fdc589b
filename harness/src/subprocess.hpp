// Runs a program with an argument vector (never through a shell) and captures what it prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ptxcts {

struct ProcessResult {
  int exit_code = -1;   // -1 if it could not start
  int signal = 0;       // the signal that ended it, if any
  bool timed_out = false;
  std::string output;   // stdout and stderr together
};

// `timeout_seconds` <= 0: no limit. A program that cannot be started gives exit_code 127
// and says why in `output`.
// `on_line`, if given, sees each line of output as it arrives (for progress).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds = 0,
                          const std::function<void(const std::string&)>& on_line = {});

}  // namespace ptxcts

// A device runner for tests that wraps the fake one: it keeps a copy of each job file it is
// given (the run removes its own when it ends) and notes the path, then runs the fake runner.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ptxcts::test {

struct RunnerSpy {
  std::filesystem::path dir;  // the script, jobs.bin (the last job file), jobs-paths
  std::filesystem::path script;
  explicit RunnerSpy(std::filesystem::path in) : dir(std::move(in)), script(dir / "runner.sh") {
    std::filesystem::create_directories(dir);
    // Called as: <runner> --device N --jobs FILE --results FILE --start K
    std::ofstream(script) << "#!/bin/sh\ncp \"$4\" '" << (dir / "jobs.bin").string() << "'\necho \"$4\" >> '"
                          << (dir / "jobs-paths").string() << "'\nexec '" << PTXCTS_FAKE_RUNNER << "' \"$@\"\n";
    ::chmod(script.c_str(), 0755);
  }
  std::vector<std::string> job_files() const {
    std::ifstream in(dir / "jobs-paths");
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
};

}  // namespace ptxcts::test

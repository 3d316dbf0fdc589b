// A run's own directory for its job and result files, and the names of a device line's files in it.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

// Runs at the same time (ctest -j, two shells) never share one, and the catalog may be read-only.
// Removed when the run ends, failed or not, or by a signal: every result is in the run's results
// and journal, and the job file is made again from the suite and the catalog; one a SIGKILL left is
// swept by the next run (util/owned_folder: its `owner` file names the dead process).
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::filesystem::path& parent);  // throws std::runtime_error
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();
};

// The files of one device line (`name`: "main", "faults") of GPU `ordinal` in a run's directory.
struct LineFiles {
  std::filesystem::path jobs, results;
};
LineFiles line_files(const std::filesystem::path& dir, int ordinal, const std::string& name);

}  // namespace ptxcts

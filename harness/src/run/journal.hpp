// The run's journal: every result appended as a line of JSON the moment it is known, so that a
// run killed midway (even with SIGKILL) leaves a readable partial record, and `--resume` finishes
// it without redoing what is done.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "results/results.hpp"

namespace ptxcts {

class Journal {
 public:
  Journal() = default;
  Journal(Journal&&) = default;
  Journal& operator=(Journal&&) = default;
  // Opens `path` for appending (fresh: truncated first).
  Journal(const std::filesystem::path& path, bool fresh);
  void append(const CaseResult& r);  // written and flushed at once
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
};

// Reads a journal. A last line cut short (the run died while writing it) is dropped; any other bad
// line is a ReportError naming file:line:column, and so is a second record of a case (duplicated or
// contradicting the first): a run records each case once, and --resume does not guess which to believe.
std::vector<CaseResult> read_journal(const std::filesystem::path& path);

// Finished results by "kernel/case", for resuming.
std::map<std::pair<std::string, std::string>, CaseResult> by_kernel_and_case(const std::vector<CaseResult>& results);

}  // namespace ptxcts

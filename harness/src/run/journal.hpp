// The run's journal: every result appended as a line of JSON the moment it is known, so that a
// run killed midway (even with SIGKILL) leaves a readable partial record, and `--resume` finishes
// it without redoing what is done.
#pragma once

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "results/results.hpp"
#include "util/checked_file.hpp"

namespace ptxcts {

class Journal {
 public:
  Journal() = default;
  Journal(Journal&&) = default;
  Journal& operator=(Journal&&) = default;
  // Opens `path` for appending (fresh: emptied first).
  Journal(const std::filesystem::path& path, bool fresh);
  // Written and flushed at once, every byte checked: a full disk throws, and leaves at most a line
  // cut short, which resume_journal drops.
  void append(const CaseResult& r);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::unique_ptr<CheckedFile> out_;
};

// Reads a journal. A last line without its newline that is no whole record (the run died, or its
// disk filled, while writing it) is dropped; one that is a whole record is kept. Any other bad line
// is a ReportError naming file:line:column. A second record of a case that agrees with the first in
// every field (two runs into one reports folder at once) is the same record, read once; one that
// disagrees is a ReportError naming both lines and how to keep either: --resume does not guess which
// to believe.
std::vector<CaseResult> read_journal(const std::filesystem::path& path);

// read_journal for `--resume`, and the journal made ready to be appended to: a last line cut short
// is cut off the file (said in one line on `say`: its path, line and bytes), so that its case runs
// again and the next record starts a line of its own; a last whole record without its newline is
// given one. A journal read_journal refuses is left as it is.
std::vector<CaseResult> resume_journal(const std::filesystem::path& path, std::FILE* say = stderr);

// Finished results by "kernel/case", for resuming.
std::map<std::pair<std::string, std::string>, CaseResult> by_kernel_and_case(const std::vector<CaseResult>& results);

}  // namespace ptxcts

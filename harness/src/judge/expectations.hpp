// Known differences, per GPU and driver (in the manner of VK-GL-CTS's expectation lists and
// wptrunner's metadata): a YAML file names the GPUs and drivers it speaks for and lists cases (by
// "KERNEL/CASE" glob) or claims whose outcome is known to differ from what the suite expects, each
// with the outcome or verdict seen, a reason and a link. A run applies the files that speak for its
// GPU: a difference an expectation names reads as known (no action, exit 0); any other reads as a
// regression; an expectation that matches nothing of the run is reported, so that a fixed driver
// makes its entry go away rather than hide a later regression.
// May call: spec/ (strict YAML reading with file:line:column), results/ (judge/ may).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "results/results.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {

struct Expectation {
  std::string cases;    // a glob on "KERNEL/CASE" (fnmatch), or "" for a claim's
  std::string claim;    // a claim's id, or "" for cases'
  std::string outcome;  // what is known to happen: an outcome token (cases) or a verdict (claim)
  std::string reason, link;
  SourceLocation where;
};

struct ExpectationFile {
  std::string file;
  std::string gpu = "*", driver = "*";  // globs on the run's GPU name and driver version
  std::vector<Expectation> expectations;
  bool speaks_for(const RunInfo& info) const;
};

// Throws SpecError naming the file, line and column of what is wrong.
ExpectationFile read_expectation_file(const std::filesystem::path& file);
std::vector<ExpectationFile> read_expectation_dir(const std::filesystem::path& dir);  // *.yaml; none: empty

// The known difference an expectation of a file that speaks for `info` names for this result ("" none):
// what the console says of a case as it finishes.
std::string known_difference(const std::vector<ExpectationFile>& files, const RunInfo& info, const CaseResult& r);

// Marks the results and claims an expectation of a file that speaks for the report's GPU names
// (CaseResult::known, ClaimVerdict::known); returns one line per expectation that matched nothing.
std::vector<std::string> apply_expectations(const std::vector<ExpectationFile>& files, RunReport& report);

}  // namespace ptxcts

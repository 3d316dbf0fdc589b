// A run without a GPU: the catalog in a line (per target with --verbose), the audit, and the claims
// the toolkit alone can judge; it writes the JUnit file of the cases it would have run, each skipped
// with the reason (so that a CI's junit step finds one on every run), and ends with its verdict.
#pragma once

#include <string>
#include <vector>

#include "assemble/catalog.hpp"
#include "commands/command_context.hpp"
#include "commands/terminal_progress.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// The cases a run without a GPU would have run (its --family and --cases), and why none ran.
struct NoGpuRun {
  std::vector<std::string> families, globs;
  std::string reason;  // the device query's: "no CUDA device (...)"
};

void print_toolkit_side(const Suite& suite, const Catalog& c, const Paths& paths, Verbosity v, const NoGpuRun& run);

// The JUnit file's name for a run without a GPU, in the reports folder: "no-gpu-cuda13.0.xml".
std::string no_gpu_junit_name(const Catalog& c);

}  // namespace ptxcts

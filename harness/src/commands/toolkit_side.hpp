// A run without a GPU: the catalog in a line (per target with --verbose), the audit, and the claims
// the toolkit alone can judge; it ends with its verdict and says that it wrote no report.
#pragma once

#include "assemble/catalog.hpp"
#include "commands/command_context.hpp"
#include "commands/terminal_progress.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

void print_toolkit_side(const Suite& suite, const Catalog& c, const Paths& paths, Verbosity v);

}  // namespace ptxcts

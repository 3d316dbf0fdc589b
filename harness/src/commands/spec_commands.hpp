// The commands that read only the specs: `ptxcts list` (kernels, cases, claims; --cases: the case
// list of this release) and `ptxcts check-specs` (the specs validated); and the hidden
// `ptxcts release-manifest PREFIX`, which the release package's install step runs.
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_list_command(CLI::App& app);
Command add_check_specs_command(CLI::App& app);
Command add_release_manifest_command(CLI::App& app);

}  // namespace ptxcts

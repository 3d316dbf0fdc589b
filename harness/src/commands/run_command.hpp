// `ptxcts run`: the suite on every GPU of the host (commands/run_gpus), or, with none, the toolkit
// side (commands/toolkit_side); its catalog brought up to date first, or a release's taken as it is.
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_run_command(CLI::App& app, Paths& paths);

}  // namespace ptxcts

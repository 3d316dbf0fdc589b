// `ptxcts toolkits`: every ptxas found and what each says it is; `ptxcts toolkits fetch VERSION...`:
// other releases' ptxas (or disassemblers) through pip into the cache.
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_toolkits_command(CLI::App& app, Paths& paths);

}  // namespace ptxcts

// `ptxcts sass`: what the code of a toolkit's catalog becomes, as a table form x target
// (sass-cuda<release>.{json,md}); the catalog brought up to date and disassembled first, or
// (--no-assemble) taken as it is and disassembled where its manifest lacks the SASS.
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_sass_command(CLI::App& app, Paths& paths);

}  // namespace ptxcts

// The commands that read reports and write pages: `ptxcts diff` (two run reports, or two audit
// reports), `ptxcts html` (the page of a run or audit report or the toolkit matrix) and `ptxcts
// merge` (run reports of many machines into the fleet; audit reports into their toolkit matrix).
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_diff_command(CLI::App& app);
Command add_html_command(CLI::App& app);
Command add_merge_command(CLI::App& app);

}  // namespace ptxcts

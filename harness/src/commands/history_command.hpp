// `ptxcts history`: the history's commands (import, page (commands/history_page_command), and the
// questions: changes, case, latest, regressions), each a CLI11 subcommand of `history`, each taking
// --history (and the questions --json).
#pragma once

#include "commands/command.hpp"

namespace ptxcts {

Command add_history_command(CLI::App& app);

}  // namespace ptxcts

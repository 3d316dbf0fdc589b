// One subcommand of `ptxcts`: its CLI11 node, whose options are bound to the command's own options
// struct, and what runs it once the command line is parsed. main.cpp keeps a table of them.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

#include "commands/command_context.hpp"

namespace ptxcts {

struct Command {
  CLI::App* cli = nullptr;
  std::function<int(CommandContext&)> run;
  bool checks_release_itself = false;  // run: awaits the release check itself, before its first launch
  bool before_release_check = false;   // release-manifest: writes what the check reads
};

}  // namespace ptxcts

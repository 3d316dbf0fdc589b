// `ptxcts audit`: the toolkit's audit report (every statement ptxas can judge); with --toolkit, each
// toolkit's, and with two or more their matrix (toolkits.{json,md,html}), not written again where
// their inputs have not changed (report/up_to_date).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "commands/command.hpp"
#include "report/toolkits/sass_report.hpp"

namespace ptxcts {

Command add_audit_command(CLI::App& app, Paths& paths);

// The SASS reports of these releases found in `dir` (sass-cuda<release>.json), in that order.
std::vector<SassReport> sass_reports_in(const std::filesystem::path& dir, const std::vector<std::string>& releases);

}  // namespace ptxcts

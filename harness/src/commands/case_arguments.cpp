#include "commands/case_arguments.hpp"

#include <fmt/format.h>

#include <fstream>

namespace ptxcts {

namespace {

bool names_a_case(const std::string& glob) {
  auto slash = glob.find('/');
  return slash != std::string::npos && slash > 0 && slash + 1 < glob.size() && glob.find(' ') == std::string::npos;
}

}  // namespace

std::vector<std::string> case_globs(const std::vector<std::string>& arguments) {
  std::vector<std::string> globs;
  for (auto const& a : arguments) {
    if (!a.starts_with("@")) {
      if (!names_a_case(a))
        throw CaseListError(fmt::format("--cases '{}': expected KERNEL/CASE (a glob, e.g. 'ldmatrix.*x4*/unique-*'), "
                                        "or @FILE, a case list",
                                        a));
      globs.push_back(a);
      continue;
    }
    const std::string file = a.substr(1);
    std::ifstream in(file);
    if (!in) throw CaseListError(fmt::format("{}: cannot read this case list (--cases @FILE)", file));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      const std::string glob = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
      if (!names_a_case(glob))
        throw CaseListError(fmt::format("{}:{}:{}: expected KERNEL/CASE (a case name or glob), got '{}'", file, n,
                                        first + 1, glob));
      globs.push_back(glob);
    }
  }
  return globs;
}

}  // namespace ptxcts

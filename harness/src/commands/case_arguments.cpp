#include "commands/case_arguments.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <sstream>

#include "util/file_text.hpp"

namespace ptxcts {

namespace {

constexpr const char* kCaseList = "a case list (--cases @FILE: KERNEL/CASE names or globs, one a line)";

bool names_a_case(const std::string& glob) {
  auto slash = glob.find('/');
  return slash != std::string::npos && slash > 0 && slash + 1 < glob.size() && glob.find(' ') == std::string::npos;
}

// The globs of a case list, appended to `globs`; a line that is not KERNEL/CASE named with its place.
// Returns the list's size in bytes.
std::size_t read_case_list(const std::string& file, std::vector<std::string>& globs) {
  std::optional<std::string> text;
  try {
    text = try_read_file_text(file, kMaxInputFileBytes, kCaseList);
  } catch (const std::runtime_error& e) { throw CaseListError(e.what()); }
  if (!text)
    throw CaseListError(fmt::format("{}: cannot read this case list (--cases @FILE): {}", file, std::strerror(errno)));
  // A byte-order mark (a list saved by a Windows editor) is no part of the first name.
  std::istringstream in(text->starts_with("\xEF\xBB\xBF") ? text->substr(3) : *text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string glob = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (!names_a_case(glob))
      throw CaseListError(
          fmt::format("{}:{}:{}: expected KERNEL/CASE (a case name or glob), got '{}'", file, n, first + 1, glob));
    globs.push_back(glob);
  }
  return text->size();
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
    if (file.empty()) throw CaseListError("--cases '@': expected @FILE, the path of a case list, after the '@'");
    const std::size_t before = globs.size();
    const std::size_t bytes = read_case_list(file, globs);
    if (globs.size() == before)
      throw CaseListError(fmt::format("{}: names no case ({}); expected a case list: KERNEL/CASE names or globs, one "
                                      "a line, as `ptxcts list --cases` writes them (a selection of nothing is "
                                      "refused, never run as every case)",
                                      file, bytes == 0 ? "it is empty" : "only blank lines and # comments"));
  }
  return globs;
}

}  // namespace ptxcts

#include "report/run/sass_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ptxcts {

std::string sass_summary(const std::vector<std::string>& matched, const std::vector<std::string>& expected,
                         const std::vector<std::string>& opcodes, const std::string& unavailable) {
  if (!unavailable.empty()) return "no SASS: " + unavailable;
  if (expected.empty()) return fmt::format("no expectation in the specs ({} opcodes)", opcodes.size());
  if (matched.empty()) return fmt::format("none of {}", fmt::join(expected, ", "));
  return fmt::format("{}", fmt::join(matched, " "));
}

bool sass_missing(const std::vector<std::string>& matched, const std::vector<std::string>& expected,
                  const std::string& unavailable) {
  return unavailable.empty() && !expected.empty() && matched.empty();
}

}  // namespace ptxcts

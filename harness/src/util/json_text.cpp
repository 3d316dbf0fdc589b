#include "util/json_text.hpp"

#include <fmt/format.h>

namespace ptxcts {

std::string json_line_column(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else ++column;
  }
  return fmt::format("{}:{}", line, column);
}

namespace {

// Calls `at(offset, char)` for every byte outside strings; stops when it returns false.
template <typename F>
void outside_strings(std::string_view text, F at) {
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (!at(i, c)) return;
  }
}

}  // namespace

std::optional<std::string> json_nesting_problem(std::string_view text, const std::string& file, int max_depth) {
  int depth = 0;
  std::optional<std::string> problem;
  outside_strings(text, [&](std::size_t i, char c) {
    if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        problem = fmt::format("{}:{}: nested more than {} deep; expected a report, journal or manifest (they nest "
                              "a few levels)",
                              file, json_line_column(text, i), max_depth);
        return false;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    return true;
  });
  return problem;
}

std::string json_number_overflow(std::string_view text, const std::string& file, const std::string& what) {
  const std::size_t open = what.find('\''), close = what.rfind('\'');
  const std::string number = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
  std::size_t found = std::string_view::npos;
  if (!number.empty())
    outside_strings(text, [&](std::size_t i, char) {
      if (text.compare(i, number.size(), number) != 0) return true;
      found = i;
      return false;
    });
  const std::string where = found == std::string_view::npos ? file : file + ":" + json_line_column(text, found);
  return fmt::format("{}: number {} is out of range (does not fit a double); expected a number a report can hold", where,
                     number.empty() ? "?" : number);
}

}  // namespace ptxcts

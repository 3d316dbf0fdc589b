#include "report/markdown_cell.hpp"

namespace ptxcts {

std::string markdown_cell(std::string s) {
  for (std::size_t p = 0; (p = s.find_first_of("|\n", p)) != std::string::npos; p += 2)
    s.replace(p, 1, s[p] == '|' ? "\\|" : "<br>");
  return s;
}

}  // namespace ptxcts

#include "judge/instruction_keys.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace ptxcts {

std::string mnemonic_of(std::string line) {
  if (!line.empty() && line[0] == '@') line.erase(0, line.find(' ') + 1);
  return line.substr(0, line.find_first_of(" \t"));
}

std::string qualifier_key(const std::string& opcode) {
  // An element type: bf16, tf32, f16, s8, u4, b1, e4m3, ... (told by hand: no std::regex in the plan).
  auto is_type = [](const std::string& u) {
    const std::size_t n = u.rfind("bf", 0) == 0 || u.rfind("tf", 0) == 0 ? 2
                          : !u.empty() && std::string_view("fsube").find(u[0]) != std::string_view::npos ? 1
                                                                                                          : 0;
    return n && u.size() > n && std::isdigit(static_cast<unsigned char>(u[n]));
  };
  std::vector<std::string> other;
  std::string types;
  std::size_t start = 0;
  for (std::size_t dot = 0; dot != std::string::npos; start = dot + 1) {
    dot = opcode.find('.', start);
    std::string unit = opcode.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (is_type(unit)) types += "." + unit;
    else other.push_back(std::move(unit));
  }
  std::sort(other.begin(), other.end());
  std::string key;
  for (auto const& o : other) key += o + ".";
  return key + "|" + types;
}

}  // namespace ptxcts

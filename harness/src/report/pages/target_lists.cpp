#include "report/pages/target_lists.hpp"

#include <fmt/format.h>

#include <regex>

namespace ptxcts {

std::vector<TextPiece> fold_target_pieces(const std::string& text, std::size_t at_least) {
  // A list: targets ("sm_90", "sm_100a", "sm_121f", "compute_90") joined by ", ".
  static const std::regex list(R"((?:sm|compute)_\d+[a-z]?(?:, (?:sm|compute)_\d+[a-z]?)+)");
  std::vector<TextPiece> pieces;
  std::size_t at = 0;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), list); m != std::sregex_iterator(); ++m) {
    const std::string found = m->str();
    std::vector<std::string> items;
    for (std::size_t from = 0; from <= found.size();) {
      std::size_t comma = std::min(found.find(", ", from), found.size());
      items.push_back(found.substr(from, comma - from));
      from = comma + 2;
    }
    if (items.size() < at_least) continue;
    const auto start = static_cast<std::size_t>(m->position());
    if (start > at) pieces.push_back({.text = text.substr(at, start - at), .whole = ""});
    pieces.push_back(
        {.text = fmt::format("{} \u2026 {} ({} targets)", items.front(), items.back(), items.size()), .whole = found});
    at = start + found.size();
  }
  if (at < text.size() || pieces.empty()) pieces.push_back({.text = text.substr(at), .whole = ""});
  return pieces;
}

std::string fold_target_lists(const std::string& text, std::size_t at_least) {
  std::string out;
  for (auto const& p : fold_target_pieces(text, at_least)) out += p.text;
  return out;
}

}  // namespace ptxcts

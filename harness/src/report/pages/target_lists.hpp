// Long lists of targets, folded for people: "sm_75, sm_80, ..., sm_121f" (23 of them) reads as
// "sm_75 … sm_121f (23 targets)". The reports' JSON keeps every list whole; pages and the console
// fold them (a page keeps the whole list in the folded text's tooltip).
#pragma once

#include <string>
#include <vector>

namespace ptxcts {

struct TextPiece {
  std::string text;
  std::string whole;  // a folded list: the list as written; "" for plain text
};

// `text` cut into plain pieces and folded lists of at least `at_least` targets.
std::vector<TextPiece> fold_target_pieces(const std::string& text, std::size_t at_least = 5);
std::string fold_target_lists(const std::string& text, std::size_t at_least = 5);

}  // namespace ptxcts

#include "judge/address_words.hpp"

#include <algorithm>

namespace ptxcts {
namespace {

SectionWords words_of(const SectionQuote& q) {
  return {.words = q.words, .source = q.cite.source, .paraphrase = q.paraphrase};
}

bool listed(const std::vector<std::string>& spaces, const std::string& space) {
  return std::find(spaces.begin(), spaces.end(), space) != spaces.end();
}

}  // namespace

SectionWords address_words(const GrammarBlock& block) {
  return block.address_words ? words_of(block.address_words->address) : SectionWords{};
}

SectionWords state_space_words(const GrammarBlock& block) {
  return block.address_words ? words_of(block.address_words->state_spaces) : SectionWords{};
}

SpaceVerdict state_space_allowed(const GrammarBlock& block, const std::string& space) {
  const auto& a = block.address_words;
  if (!a || a->state_spaces.words.empty() || listed(a->unnamed, space)) return {.said = false, .allowed = false};
  return {.said = true, .allowed = listed(a->allowed, space)};
}

}  // namespace ptxcts

#include "judge/mnemonic_units.hpp"

#include <algorithm>

namespace ptxcts {

MnemonicUnits mnemonic_units(const Combination& c) {
  MnemonicUnits s;
  const GrammarBlock& b = *c.block;
  const std::string& syn = b.syntax;
  std::string literal;
  auto flush_literal = [&] {
    std::size_t at = 0;
    while (at < literal.size()) {
      std::size_t next = literal.find('.', at + 1);
      if (next == std::string::npos) next = literal.size();
      std::string tok = literal.substr(at, next - at);
      if (s.opcode.empty() && s.units.empty() && tok[0] != '.') s.opcode = tok;
      else s.units.push_back({.text = tok, .optional = false, .position = false, .name = ""});
      at = next;
    }
    literal.clear();
  };
  for (std::size_t p = 0; p < syn.size() && syn[p] != ' '; ++p) {
    if (syn[p] != '{') {
      literal += syn[p];
      continue;
    }
    flush_literal();
    std::size_t close = syn.find('}', p);
    const std::string name = syn.substr(p + 1, close - p - 1);
    for (std::size_t k = 0; k < b.positions.size(); ++k)
      if (b.positions[k].name == name && !b.positions[k].values[c.choice[k]].text.empty())
        s.units.push_back({.text = b.positions[k].values[c.choice[k]].text,
                           .optional = b.positions[k].optional(),
                           .position = true,
                           .name = name});
    p = close;
  }
  flush_literal();
  // The rest: the combination's text from its first space (positions there are already filled).
  s.rest = c.text.substr(std::min(c.text.find(' '), c.text.size()));
  return s;
}

std::string join_units(const MnemonicUnits& s, const std::vector<MnemonicUnit>& units) {
  std::string out = s.opcode;
  for (auto const& u : units) out += u.text;
  return out + s.rest;
}

}  // namespace ptxcts

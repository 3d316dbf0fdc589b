// Invalid values and state spaces: every state space on every form, values no syntax list of the
// block spells (other shapes, .x3, .x8, other types), a second value of a position beside the first
// (two shapes, .row.col, .x1.x2), a required qualifier doubled.
#include <fmt/format.h>

#include <regex>

#include "judge/address_words.hpp"
#include "judge/negative_space_parts.hpp"

namespace ptxcts {
namespace {

const GrammarPosition* position_named(const GrammarBlock& b, const std::string& name) {
  for (auto const& p : b.positions)
    if (p.name == name) return &p;
  return nullptr;
}

bool block_spells(const GrammarBlock& b, const std::string& position, const std::string& value) {
  const GrammarPosition* p = position_named(b, position);
  if (!p) return false;
  for (auto const& v : p->values)
    if (v.text == value) return true;
  return false;
}

bool is_shape(const std::string& token) {
  return token.size() > 3 && token.rfind(".m", 0) == 0 && std::isdigit(static_cast<unsigned char>(token[2])) &&
         token.find('n') != std::string::npos && token.find_first_not_of("0123456789mnk", 1) == std::string::npos;
}

// Values no syntax spells that are tried beside those some syntax does, by position name.
std::set<std::string> invented_values(const std::string& position) {
  if (position == "num") return {".x3", ".x8", ".x16"};
  if (position.find("type") != std::string::npos || position.find("fmt") != std::string::npos)
    return {".b32", ".b64", ".u16", ".s16", ".u32", ".f16x2"};
  if (position == "trans") return {".trans2"};
  if (position == "rnd") return {".rna", ".rni"};
  if (position == "satfinite") return {".sat"};
  if (position == "kind") return {".kind::f16", ".kind::i8", ".kind::mxf8f6f4"};
  return {};
}

}  // namespace

std::string text_with(const Combination& c, const std::string& position, const std::string& value) {
  const GrammarBlock& b = *c.block;
  std::string out;
  for (std::size_t p = 0; p < b.syntax.size(); ++p) {
    std::size_t close = b.syntax[p] == '{' ? b.syntax.find('}', p) : std::string::npos;
    if (close == std::string::npos) {
      out += b.syntax[p];
      continue;
    }
    const std::string name = b.syntax.substr(p + 1, close - p - 1);
    bool filled = false;
    for (std::size_t k = 0; k < b.positions.size() && !filled; ++k)
      if (b.positions[k].name == name) {
        out += name == position ? value : b.positions[k].values[c.choice[k]].text;
        filled = true;
      }
    if (!filled) out += "{" + name + "}";
    p = close;
  }
  return out;
}

GrammarPools grammar_pools(const std::vector<GrammarBlock>& blocks) {
  GrammarPools pools;
  for (auto const& b : blocks) {
    for (auto const& c : enumerate(b)) pools.texts.insert(c.text);
    for (auto const& p : b.positions)
      for (auto const& v : p.values) {
        if (!v.text.empty()) pools.by_position[p.name].insert(v.text);
        if (is_shape(v.text)) pools.shapes.insert(v.text);
      }
    const std::string mnemonic = b.syntax.substr(0, b.syntax.find(' '));
    for (std::size_t at = mnemonic.find('.'); at != std::string::npos; at = mnemonic.find('.', at + 1)) {
      const std::string tok = mnemonic.substr(at, mnemonic.find_first_of(".{", at + 1) - at);
      if (is_shape(tok)) pools.shapes.insert(tok);
    }
  }
  for (auto& [name, values] : pools.by_position)
    for (auto const& v : invented_values(name)) values.insert(v);
  return pools;
}

void state_space_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& /*s*/,
                           const OperandShape& shape) {
  const Combination& c = valid.combo;
  const GrammarPosition* ss = position_named(*c.block, "ss");
  if (!ss || c.text.find("[{addr}]") == std::string::npos) return;
  // Forms that differ only in their state space give the same texts: those written generic ask them.
  if (!c.value("ss").empty() && block_spells(*c.block, "ss", "")) return;
  const SectionWords words = state_space_words(*c.block);
  for (const char* space : kStateSpaces) {
    if (block_spells(*c.block, "ss", space)) continue;
    const SpaceVerdict said = state_space_allowed(*c.block, space);
    const bool invalid = said.said && !said.allowed;
    out.add({.kind = "state-space",
             .detail = fmt::format("state space {}", *space ? space : "generic"),
             .text = text_with(c, "ss", space),
             .shape = shape,
             .expected = invalid ? DocClass::Invalid : DocClass::Undocumented,
             .words = invalid ? words.words : "",
             .source = invalid ? words.source : "",
             .words_paraphrase = invalid ? words.paraphrase : ""});
  }
}

void value_mutations(MutationSet& out, const ClassifiedCombination& valid, const MnemonicUnits& s,
                     const OperandShape& shape, const GrammarPools& pools) {
  const Combination& c = valid.combo;
  auto undocumented = [&](std::string kind, std::string detail, std::string text) {
    if (pools.texts.count(text)) return;  // a combination some syntax block spells: the grammar asks it
    out.add({.kind = std::move(kind),
             .detail = std::move(detail),
             .text = std::move(text),
             .shape = shape,
             .expected = DocClass::Undocumented,
             .words = "",
             .source = ""});
  };
  for (auto const& p : c.block->positions) {
    if (p.name == "ss" || p.name == "stride") continue;  // state spaces and operands: their own kinds
    auto pool = pools.by_position.find(p.name);
    if (pool != pools.by_position.end())
      for (auto const& v : pool->second)
        if (!block_spells(*c.block, p.name, v)) undocumented("value", p.name + " as " + v, text_with(c, p.name, v));
    // A second value of the position beside the first: two shapes, two layouts, two counts.
    const std::string mine = c.value(p.name);
    for (auto const& v : p.values)
      if (!mine.empty() && !v.text.empty() && v.text != mine)
        undocumented("conflict", fmt::format("{} twice: {}{}", p.name, mine, v.text), text_with(c, p.name, mine + v.text));
  }
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    std::vector<MnemonicUnit> u = s.units;
    if (!s.units[k].optional) {  // a required qualifier doubled (optional ones: negative_space.cpp)
      u.insert(u.begin() + static_cast<std::ptrdiff_t>(k), s.units[k]);
      undocumented("double", s.units[k].text + " twice", join_units(s, u));
    }
    // A shape the syntax fixes, with a second one beside it or another in its place.
    if (!s.units[k].position && is_shape(s.units[k].text))
      for (auto const& other : pools.shapes) {
        if (other == s.units[k].text) continue;
        std::vector<MnemonicUnit> two = s.units, instead = s.units;
        two[k].text += other;
        instead[k].text = other;
        undocumented("conflict", "two shapes: " + two[k].text, join_units(s, two));
        undocumented("value", "shape as " + other, join_units(s, instead));
      }
  }
}

}  // namespace ptxcts

#include "spec/address_words_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "spec/grammar_reader.hpp"

namespace ptxcts {
namespace {

SectionQuote read_section_quote(const YamlReader& r, std::initializer_list<const char*> keys) {
  YamlReader m = r;
  m.expect_map(keys);
  check_paraphrase(m);
  return {.words = m.at("words").str(),
          .cite = read_citation(m),
          .paraphrase = m.has("paraphrase") ? m.at("paraphrase").str() : ""};
}

// `allowed:` or `unnamed:` of a state_spaces entry: known spaces, each once ("generic" read as "").
std::vector<std::string> read_spaces(const YamlReader& r, const char* key, const std::vector<std::string>& other) {
  std::vector<std::string> out;
  if (!r.has(key)) return out;
  for (auto const& s : r.at(key).items(fmt::format("'{}' of state_spaces", key))) {
    const std::string text = s.str();
    if (std::find(kAddressStateSpaces.begin(), kAddressStateSpaces.end(), text) == kAddressStateSpaces.end())
      s.fail(fmt::format("unknown state space '{}'; expected one of {}", text,
                         fmt::join(kAddressStateSpaces, ", ")));
    const std::string space = text == "generic" ? "" : text;
    if (std::find(out.begin(), out.end(), space) != out.end() ||
        std::find(other.begin(), other.end(), space) != other.end())
      s.fail(fmt::format("state space '{}' is listed twice (in 'allowed' and 'unnamed' together, or twice in one)",
                         text));
    out.push_back(space);
  }
  return out;
}

AddressWords read_entry(const YamlReader& item) {
  YamlReader m = item;
  m.expect_map({"mnemonic", "address", "state_spaces"});
  AddressWords a{.mnemonic = m.at("mnemonic").str(), .where = m.where()};
  a.address = read_section_quote(m.at("address"), {"words", "document", "source", "paraphrase"});
  const YamlReader spaces = m.at("state_spaces");
  a.state_spaces =
      read_section_quote(spaces, {"words", "document", "source", "paraphrase", "allowed", "unnamed"});
  a.unnamed = read_spaces(spaces, "unnamed", {});
  a.allowed = read_spaces(spaces, "allowed", a.unnamed);
  if (a.allowed.empty()) spaces.fail("expected 'allowed': the state spaces the section allows (generic for none named)");
  return a;
}

}  // namespace

void read_address_words(const YamlReader& list, const std::string& family, std::vector<GrammarBlock>& blocks) {
  std::vector<std::string> seen;
  for (auto const& item : list.items("'address_words'")) {
    AddressWords a = read_entry(item);
    if (std::find(seen.begin(), seen.end(), a.mnemonic) != seen.end())
      item.at("mnemonic").fail(fmt::format("mnemonic '{}' has address words already", a.mnemonic));
    seen.push_back(a.mnemonic);
    bool any = false;
    for (auto& b : blocks)
      if (b.syntax.rfind(a.mnemonic, 0) == 0 && !b.address_words) {
        b.address_words = a;
        any = true;
      }
    if (!any)
      item.at("mnemonic").fail(fmt::format(
          "no syntax block of family '{}' begins with '{}' (or each has its words already); expected the mnemonic "
          "its blocks write",
          family, a.mnemonic));
  }
}

}  // namespace ptxcts

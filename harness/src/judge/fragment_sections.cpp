#include "judge/fragment_sections.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "judge/type_shape_product.hpp"
#include "kinds/mma/mma_sparse_spec.hpp"
#include "kinds/mma/mma_spec.hpp"
#include "spec/grammar.hpp"

namespace ptxcts {
namespace {

// "... 9.7.14.5.2 Matrix Fragments for mma.m8n8k4 with .f64 floating point type, Figure 53": the
// number, the title (to the first ',', '(' or the end), the instruction, the shape, the "with" part.
const std::regex& title_pattern() {
  static const std::regex re(
      R"((\d+(?:\.\d+)+)\.? (Matrix Fragments for ((?:sparse )?[A-Za-z.]+?)(\.m\d+n\d+k\d+)(?: with ([^,;()]*[^,;() ]))?))");
  return re;
}

void add_sections_of(const std::string& source, std::vector<FragmentSection>& out, std::set<std::string>& seen) {
  static const std::regex type(R"(\.[a-z][a-z0-9]*)");
  for (std::sregex_iterator it(source.begin(), source.end(), title_pattern()), end; it != end; ++it) {
    const std::smatch& m = *it;
    if (!seen.insert(m[1]).second) continue;
    FragmentSection s{.number = m[1], .title = m[2], .source = source, .instruction = m[3], .shape = m[4], .types = {}};
    const std::string with = m[5];
    for (std::sregex_iterator t(with.begin(), with.end(), type), e; t != e; ++t) s.types.push_back(t->str());
    out.push_back(std::move(s));
  }
}

// A combination's qualifiers: its mnemonic's tokens after the opcode, each with its '.'.
std::set<std::string> tokens_of(const std::string& text) {
  std::set<std::string> out;
  const std::string mnemonic = text.substr(0, text.find(' '));
  for (std::size_t at = mnemonic.find('.'); at != std::string::npos;) {
    const std::size_t next = mnemonic.find('.', at + 1);
    out.insert(mnemonic.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return out;
}

bool shape_qualifier(const std::string& t) {
  static const std::regex shape(R"(\.m\d+n\d+(k\d+)?)");
  return std::regex_match(t, shape);
}

bool any_of_in(const std::vector<std::string>& wanted, const std::set<std::string>& tokens) {
  return std::any_of(wanted.begin(), wanted.end(), [&](auto const& t) { return tokens.count(t) != 0; });
}

// Each block of an instruction the sections name, with the qualifiers of each of its combinations.
struct Spelled {
  const GrammarBlock* block;
  std::vector<std::set<std::string>> combinations;
};

std::map<std::string, std::vector<Spelled>> blocks_by_instruction(const SpecSet& specs,
                                                                  const std::vector<FragmentSection>& sections) {
  std::set<std::string> named;
  for (auto const& s : sections) named.insert(s.instruction);
  std::map<std::string, std::vector<Spelled>> out;
  for (auto const& b : specs.grammar) {
    const std::vector<Combination> combos = enumerate(b);
    if (combos.empty() || !named.count(product_instruction(combos.front().text))) continue;
    Spelled sp{.block = &b, .combinations = {}};
    for (auto const& c : combos) sp.combinations.push_back(tokens_of(c.text));
    out[product_instruction(combos.front().text)].push_back(std::move(sp));
  }
  return out;
}

bool spelled_by(const Spelled& b, const std::string& shape, const std::vector<std::string>& types) {
  return std::any_of(b.combinations.begin(), b.combinations.end(), [&](auto const& tokens) {
    return tokens.count(shape) && (types.empty() || any_of_in(types, tokens));
  });
}

}  // namespace

std::vector<FragmentSection> fragment_sections(const SpecSet& specs) {
  std::vector<FragmentSection> out;
  std::set<std::string> seen;
  for (auto const& v : specs.variants)
    if (const MmaSpec* spec = v.semantics_as<MmaSpec>())
      for (const MmaOperand* o : {&spec->a, &spec->b, &spec->c})
        for (auto const& [key, layout] : o->layouts) add_sections_of(layout.source, out, seen);
  for (auto const& c : specs.claims) add_sections_of(c.source, out, seen);
  for (auto const& s : sparse_fragments(specs)) add_sections_of(s.section, out, seen);
  return out;
}

std::vector<FragmentDisagreement> fragment_disagreements(const SpecSet& specs) {
  const std::vector<FragmentSection> sections = fragment_sections(specs);
  const auto blocks = blocks_by_instruction(specs, sections);
  std::vector<FragmentDisagreement> out;
  std::vector<bool> paired(sections.size(), false);
  for (auto const& [instruction, spelled] : blocks) {
    std::set<std::string> named;  // the shapes its sections name
    std::vector<std::size_t> unspelled;
    for (std::size_t k = 0; k < sections.size(); ++k) {
      if (sections[k].instruction != instruction) continue;
      named.insert(sections[k].shape);
      if (std::none_of(spelled.begin(), spelled.end(),
                       [&](auto const& b) { return spelled_by(b, sections[k].shape, sections[k].types); }))
        unspelled.push_back(k);
    }
    for (auto const& b : spelled) {
      FragmentDisagreement d{.instruction = instruction, .block = b.block, .unnamed_shapes = {}, .unspelled = {}};
      std::set<std::string> qualifiers;  // every one the block spells
      for (auto const& tokens : b.combinations) qualifiers.insert(tokens.begin(), tokens.end());
      for (auto const& t : qualifiers)
        if (shape_qualifier(t) && !named.count(t)) d.unnamed_shapes.push_back(t);
      for (auto k : unspelled)
        if (!sections[k].types.empty() && any_of_in(sections[k].types, qualifiers)) {
          d.unspelled.push_back(sections[k]);
          paired[k] = true;
        }
      if (!d.unnamed_shapes.empty() || !d.unspelled.empty()) out.push_back(std::move(d));
    }
    for (auto k : unspelled)
      if (!paired[k])
        out.push_back({.instruction = instruction, .block = nullptr, .unnamed_shapes = {}, .unspelled = {sections[k]}});
  }
  return out;
}

bool spells_shape(const std::string& text, const std::string& shape) { return tokens_of(text).count(shape) != 0; }

bool spells_section(const std::string& text, const FragmentSection& s) {
  const std::set<std::string> tokens = tokens_of(text);
  return tokens.count(s.shape) && (s.types.empty() || any_of_in(s.types, tokens));
}

}  // namespace ptxcts

// Reading a family's grammar, rules, examples, register claims and version spellings (YAML -> grammar_model.hpp),
// each checked where it is written: placeholders against positions, rules against the values the
// family's blocks spell, example lines as instructions, a product that is empty or over the limit.
// What refers across files (a rule that forbids a documented form, a claim's variant) is checked
// once every file is read (check_grammar, spec/grammar.hpp).
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// The most combinations one syntax block may spell: past it, split the block as the manual does.
inline constexpr std::size_t kMaxGrammarProduct = 20000;

// A statement's `document` (manual, or seed-NNN) and `source`.
Citation read_citation(const YamlReader& r);
// `paraphrase: <why>`, if there, says why (not an empty text).
void check_paraphrase(const YamlReader& r);

std::vector<GrammarBlock> read_grammar(const YamlReader& list, const std::string& family);
// Rules name positions and values of `blocks` (this family's): an unknown one is an error; a rule's
// `ptx_isa` bounds are versions targets.yaml lists, `from` below `below`.
std::vector<GrammarRule> read_rules(const YamlReader& list, const std::string& family,
                                    const std::vector<GrammarBlock>& blocks, const TargetCatalog& targets);
std::vector<DocExample> read_examples(const YamlReader& list, const std::string& family);
std::vector<RegisterClaim> read_register_claims(const YamlReader& list, const std::string& family);
// Each variant must be one of `variants` (this family's, read before).
std::vector<RegisterMinimum> read_register_minimums(const YamlReader& list, const std::string& family,
                                                    const std::vector<Variant>& variants);
// Each mnemonic must be of the family, the qualifier one its blocks' or variants' syntax writes, the
// version one targets.yaml lists.
std::vector<VersionSpelling> read_version_spellings(const YamlReader& list, const std::string& family,
                                                    const std::vector<GrammarBlock>& blocks,
                                                    const std::vector<Variant>& variants,
                                                    const TargetCatalog& targets);

// The instruction lines of an example's text: comments dropped, declarations (lines starting with
// '.') set aside; each remaining line must be one instruction ending in ';'. Throws std::invalid_argument
// naming the line (1-based in `text`) that is not one instruction.
struct ExampleLines {
  std::vector<std::string> declarations, instructions;
};
ExampleLines split_example(const std::string& text);

}  // namespace ptxcts

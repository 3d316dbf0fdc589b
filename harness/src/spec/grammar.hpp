// The documents' grammar, enumerated and classified: every combination a syntax block spells,
// and what the documents say of it. Documented: in the product of the block's value lists and not
// forbidden by a rule of the block's own document; documented-valid when a variant of the specs
// spells it (each variant is the spec's reading of one documented syntax, with its requirements and
// source), documented-no-variant otherwise. Documented-invalid: a rule of its document forbids it
// (named). Another document's rule that forbids it is listed too (a disagreement between the
// documents), but does not change its class. No toolkit here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/instance.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

struct Combination {
  const GrammarBlock* block = nullptr;
  std::vector<std::size_t> choice;  // a value index per position, in the block's order
  std::string text;                 // the syntax with every position filled, operand placeholders kept

  const std::string& value(const std::string& position) const;  // "" if the block has no such position
  bool has(const std::string& position) const;
  Bindings bindings() const;
  int registers(const std::string& operand) const;  // the block's formula; throws SpecError at it
  std::string label() const;                        // "block: text"
};

std::vector<Combination> enumerate(const GrammarBlock& block);

// Whether a rule speaks of a block (it names only positions the block has, and lists it if it
// lists blocks), and whether it forbids a combination of such a block.
bool rule_applies(const GrammarRule& rule, const GrammarBlock& block);
bool rule_forbids(const GrammarRule& rule, const Combination& c);

// Valid: a variant of the specs spells it. Invalid: a rule of the block's own document forbids it.
// Unencoded: the block spells it and no rule of its document forbids it, so the document gives it
// (documented), but no variant of the specs spells it: its requirements are not encoded.
// Undocumented: no document's syntax spells it (the negative space).
enum class DocClass { Valid, Invalid, Undocumented, Unencoded };
const char* to_string(DocClass c);

struct ClassifiedCombination {
  Combination combo;
  DocClass doc = DocClass::Undocumented;
  const Instance* instance = nullptr;  // Valid: the variant instance spelling it (64-bit address if it has one)
  std::vector<const GrammarRule*> forbidden_by;
};

// Instances by their text (Instance::text()), for matching: the 64-bit address one where both exist.
template <class Instances>
std::map<std::string, const Instance*> instances_by_text(const Instances& instances) {
  std::map<std::string, const Instance*> out;
  for (auto const& i : instances) {
    auto [at, fresh] = out.emplace(i.text(), &i);
    if (!fresh && i.address_width() == 64) at->second = &i;
  }
  return out;
}

// Every combination of every block, classified. `by_text`: every variant instance of the specs.
// `at`: the PTX ISA version it is read at (a probe's .version): a rule whose `ptx_isa` range leaves
// it out does not forbid there; none: every rule, whatever its range (the specs' own checks).
std::vector<ClassifiedCombination> classify_grammar(const SpecSet& specs,
                                                    const std::map<std::string, const Instance*>& by_text,
                                                    std::optional<PtxVersion> at = std::nullopt);

// How many registers an instance's vector operand has ("regs"; d, a, b, c of wmma.mma).
int instance_registers(const Instance& inst, const std::string& operand);

// What must hold across the files once all are read; each failure a SpecError at file:line:column:
// no rule forbids a documented form (a variant's instance); no two rules leave a position no value;
// a block gives a documented form the registers its variant gives; every register claim names an
// existing variant, operand and qualifier values.
void check_grammar(const SpecSet& specs);

}  // namespace ptxcts

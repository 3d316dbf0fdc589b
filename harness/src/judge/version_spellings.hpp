// Probes spelled as the documents spell them at the probe's PTX ISA version (the specs'
// `version_spellings`, spec/grammar_model.hpp): below a spelling's version, its qualifier is left out
// of the instructions it names (wmma's ".aligned ... considered implicit in PTX ISA versions less than
// 6.3"), so that a question about a version asks the form the documents give at that version, and
// the other spelling is asked apart, as a form no document gives there.
#pragma once

#include <string>
#include <vector>

#include "spec/grammar.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// The spelling rule that changes `body`'s instruction (its last line) at version `v`, or nullptr.
const VersionSpelling* spelling_below(const SpecSet& specs, const std::string& body, PtxVersion v);

// The probe body as the documents spell it at `v`: the rule's qualifier taken out of the instruction
// where `v` is below the rule's version; `body` itself otherwise.
std::string spelled_at(const SpecSet& specs, const std::string& body, PtxVersion v);

// The instruction's mnemonic and qualifiers (its first word, a guard left out) without the rule's qualifier.
std::string without_qualifier(const std::string& line, const std::string& qualifier);

// Whether the instruction (a line) is one the rule names: its first word starts with a mnemonic of it.
bool spelling_applies_to(const VersionSpelling& rule, const std::string& line);

// A probe at an edge of a spelling's version range, or one version past it: the form spelled one way
// at one version, and what the documents make of it there.
struct SpellingEdge {
  PtxVersion version;
  std::string body;  // the probe body, spelled so
  DocClass expected = DocClass::Undocumented;
  std::string detail;
  const VersionSpelling* rule = nullptr;
};

// For a form documented from `documented` (`body`: as the toolkit's version spells it), the edges of
// each spelling's range that the minimum-version questions (at `documented` and one below, the other
// spelling at `documented`) and the grammar (at `toolkit`) leave unasked: where a rule's version
// `from` falls after `documented`, the form without the qualifier at the last version below `from`
// (valid: the documents spell it so there) and at `from` (invalid: "required from" it), and with it
// at `from` (valid) and at the version below (no document gives it). A version past the toolkit's is
// not asked: the toolkit knows none of it (its own version's question says so).
std::vector<SpellingEdge> spelling_edges(const SpecSet& specs, const std::string& body, PtxVersion documented,
                                         PtxVersion toolkit);

// A rule whose documents change at a PTX ISA version (spec PtxRange: `ptx_isa: {from, below}`) is asked
// at the edges of its range and one version past each: the last version it holds at below `below`
// and `below` itself, `from` and the version below it. Each edge says whether the rule holds there
// (what it forbids is then invalid; past it, the form is what the block spells without the rule).
// Versions past the toolkit's own, or not listed in targets.yaml, are not asked; nor the toolkit's
// own, where the grammar asks every combination on every target already.
struct RuleEdge {
  PtxVersion version;
  bool holds = false;
  std::string detail;  // "PTX ISA 9.0: the last version the rule holds at (below 9.1)"
};
std::vector<RuleEdge> rule_edges(const SpecSet& specs, const GrammarRule& rule, PtxVersion toolkit);

}  // namespace ptxcts

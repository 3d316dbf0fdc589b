// What each instruction's own section says of its address operand and of its state spaces, so that
// a finding about an address cites the section of the instruction it is about (not one shared
// quote). The words, their source and the spaces each section allows are the specs'
// (`address_words:` of specs/<family>.yaml, on each syntax block: spec/grammar_model.hpp's
// AddressWords); here only how the audit reads them.
#pragma once

#include <string>

#include "spec/grammar_model.hpp"

namespace ptxcts {

struct SectionWords {
  std::string words, source;
  std::string paraphrase;  // why the words are not verbatim in shared/reference/ptx-isa ("" : they are)
};

// The words on the address operand p of the block's instruction; empty words for an instruction
// whose section the specs quote none of (one without an address).
SectionWords address_words(const GrammarBlock& block);

// The words on the state spaces the instruction may use; empty words where the specs quote none.
SectionWords state_space_words(const GrammarBlock& block);

// What the instruction's section makes of a state space (".shared", ".global", ..., "" generic):
// allowed (true), forbidden (false), or not said (unset: `said` false): where the specs quote no
// words on its state spaces, or list the space as one the section does not name.
struct SpaceVerdict {
  bool said = false, allowed = false;
};
SpaceVerdict state_space_allowed(const GrammarBlock& block, const std::string& space);

}  // namespace ptxcts

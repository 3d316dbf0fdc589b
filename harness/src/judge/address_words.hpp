// What each instruction's own section says of its address operand and of its state spaces, so that
// a finding about an address cites the section of the instruction it is about (not one shared
// quote): the words, verbatim where the reference text of the manual has them, and where.
#pragma once

#include <string>

namespace ptxcts {

struct SectionWords {
  std::string words, source;
  std::string paraphrase;  // why the words are not verbatim in shared/reference/ptx-isa ("" : they are)
};

// The words on the address operand p of the instruction `text` begins with (ldmatrix, stmatrix,
// wmma.load, wmma.store); empty words for an instruction without an address.
SectionWords address_words(const std::string& text);

// The words on the state spaces the instruction may use; empty words where its section says none.
SectionWords state_space_words(const std::string& text);

// What the instruction's section makes of a state space (".shared", ".global", ..., "" generic):
// allowed (true), forbidden (false), or not said (unset: `said` false).
struct SpaceVerdict {
  bool said = false, allowed = false;
};
SpaceVerdict state_space_allowed(const std::string& text, const std::string& space);

}  // namespace ptxcts

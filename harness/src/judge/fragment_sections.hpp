// Where an instruction's syntax blocks and its fragment sections disagree on the shapes. The
// manual gives mma a section per shape ("9.7.14.5.2 Matrix Fragments for mma.m8n8k4 with .f64
// floating point type"); the specs cite those titles (a kind's own texts, as it gives them through
// InstructionKind::fragment_section_sources: mma's layouts and sparse sections; a claim). Two parts
// of one document disagree where a block spells a shape no fragment section of its instruction
// names, or a section names a shape (with its types, where its title names some) that no block of
// the instruction spells. Both sides are paired where they can be: a block's
// unnamed shape with the sections whose types the block spells and whose shape no block does (the
// double precision block's ".m8n84" with 9.7.14.5.2's ".m8n8k4 with .f64"). Only instructions that
// have both blocks and fragment sections are compared (mma.sp's sections have no block).
// May call: spec/, kinds/.
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"

namespace ptxcts {

struct FragmentSection {
  std::string number;              // "9.7.14.5.2"
  std::string title;               // "Matrix Fragments for mma.m8n8k4 with .f64 floating point type"
  std::string source;              // a specs' source citing it, as written
  std::string instruction, shape;  // "mma", ".m8n8k4"
  std::vector<std::string> types;  // the types its title names: ".f64" (none: every type of the shape)
};

struct FragmentDisagreement {
  std::string instruction;                  // "mma"
  const GrammarBlock* block = nullptr;      // null: a section no block of its instruction pairs with
  std::vector<std::string> unnamed_shapes;  // shapes the block spells that no fragment section names
  std::vector<FragmentSection> unspelled;   // sections whose shape (with their types) no block spells
};

// Every fragment section the specs cite, once each, in the order first cited.
std::vector<FragmentSection> fragment_sections(const SpecSet& specs);

std::vector<FragmentDisagreement> fragment_disagreements(const SpecSet& specs);

// Whether an instruction's text (a form, an example's line) spells the shape (a qualifier of its mnemonic).
bool spells_shape(const std::string& text, const std::string& shape);
// Whether it spells the section's shape, and one of the types its title names where it names some.
bool spells_section(const std::string& text, const FragmentSection& s);

}  // namespace ptxcts

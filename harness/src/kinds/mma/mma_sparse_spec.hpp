// Reading a family's 'sparse_fragments' (specs/mma.yaml): mma.sp's fragment sections, PTX ISA 9.0
// 9.7.14.6.2.1-8, as the manual gives them. For A a formula block in the manual's notation
// (spec/manual_formula.hpp): each element's row, and the window [firstcol, lastcol] of columns its
// non-zero element lies in; for B, C/D and the metadata the manual's cross-reference to a dense
// section, or its figures alone. Nothing of it is run; kinds/mma/formula_text checks the A blocks.
#pragma once

#include <string>
#include <vector>

#include "spec/kind_blocks.hpp"
#include "spec/manual_formula.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// What a sparse fragment section (mma.sp) says of an operand it gives no formula for: the manual's
// cross-reference to a dense section ("the same as in case of ..."), or only figures.
struct SparseOperandText {
  std::string same_as;               // "9.7.14.5.8 Matrix Fragments for ..." ("" where pictures only)
  std::vector<std::string> figures;  // "Figure 121", ... (pictures only)
  std::string words;                 // the manual's sentence
  SourceLocation where;
};

// One section 9.7.14.6.2.N (mma.sp, sparse A): its formula block for A, which gives each element a
// row and a window of columns [firstcol, lastcol] (where in the window, the metadata says), and what
// the section says of B, C/D and the metadata. Not a variant: nothing of it is run.
struct SparseFragmentSection {
  std::string name, section, family;  // section: "9.7.14.6.2.1 Matrix Fragments for sparse mma..."
  int m = 0, n = 0, k = 0;
  // 9.7.14.6.1's granularity for these types: `nonzero` of each `chunk` consecutive elements of a row
  int nonzero = 0, chunk = 0;
  std::string granularity_source;
  // A: its element types, registers, and the table's "N non-zero elements out of W consecutive"
  std::string source, register_words;
  std::vector<std::string> types;  // "f16", "bf16"
  int registers = 0, per_register = 0, consecutive = 0;
  std::vector<std::pair<std::string, ManualFormula>> let;  // groupID, threadID_in_group
  ManualFormula row, firstcol, lastcol;                    // the manual's text (lastcol over firstcol)
  std::string col_note;                                    // "[firstcol ... lastcol] // As per ..."
  SparseOperandText b, cd, metadata;
  SourceLocation where;
  int elements() const { return registers * per_register; }  // of one lane
};

// The entries of `r` (a sequence); each name unique among them and those `taken` before.
std::vector<SparseFragmentSection> read_sparse_fragments(const YamlReader& r, const std::string& family,
                                                         const std::vector<SparseFragmentSection>& taken);

// Every family's sections, in file order (SpecSet::family_blocks' 'sparse_fragments').
const std::vector<SparseFragmentSection>& sparse_fragments(const SpecSet& specs);

// The family files' 'sparse_fragments' block: read into the set (its check is the audit's).
KindFamilyBlock sparse_fragments_block();

}  // namespace ptxcts

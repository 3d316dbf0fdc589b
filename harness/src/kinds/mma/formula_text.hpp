// The manual's printed fragment formulas (mma, PTX ISA 9.0, 9.7.14.5.1-13), checked on the host: each
// printed row and col formula is read and evaluated for every form of its variant. Where the printed
// text cannot be read, or does not place every element of its matrix exactly once, that is a
// document error in the formula text itself; the spec then gives the reading the suite evaluates
// instead, and why.
// mma.sp (PTX ISA 9.0, 9.7.14.6.2.1-8): each sparse section's A block (a row and a window [firstcol,
// lastcol] per element) evaluated for every lane and element and checked against the section's own
// table and 9.7.14.6.1's granularity; what it says of B, C/D and the metadata is never evaluated
// (a dense section it defers to, or figures), and says so.
// May call: spec/.
#pragma once

#include <string>
#include <vector>

#include "kinds/mma/mma_sparse_spec.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

struct FormulaTextCheck {
  std::string variant, family, operand, axis;  // axis: row or col
  std::string layout;                          // the qualifier value choosing the layout ("" if one)
  std::string source, manual, reading, why;
  bool printed_holds = true;  // the printed text reads and places every element once
  std::string evidence;       // what the printed text does
};

std::vector<FormulaTextCheck> check_formula_texts(const SpecSet& specs);

// One element of a lane's sparse A fragment: its row, and the window of columns its non-zero lies in.
struct SparseElement {
  int lane = 0, element = 0, row = 0, firstcol = 0, lastcol = 0;
};

// Every element of every lane (lane by lane, a0 first), from the section's formulas as printed.
// Throws FormulaEvalError where no line of a formula applies.
std::vector<SparseElement> sparse_elements(const SparseFragmentSection& s);

// One statement of a sparse section: its A block ("formula": evaluated, holds or not), or what it
// says of B, C/D or the metadata: "figures" (never checked) or "reference" to a dense section (not
// checked, unless the section's operand in the specs cannot be the same: other dimensions or types).
struct SparseFragmentCheck {
  std::string entry, family, operand, what;  // operand: a, b, cd, metadata; what: formula, figures, reference
  std::string source, words;
  bool checked = false, holds = true;
  std::string evidence;
};

std::vector<SparseFragmentCheck> check_sparse_fragments(const SpecSet& specs);

}  // namespace ptxcts

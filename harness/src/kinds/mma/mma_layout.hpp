// The layout of one mma instance, evaluated from the spec's formulas (the manual's, 9.7.14.5.1-13):
// for each operand, which (computation, row, col) each element of each lane holds. Also checks that
// the formulas describe a possible layout: every element of every matrix exactly once. mma.sp's A
// is the matrix of its non-zero elements (m x k/2).
#pragma once

#include <string>
#include <vector>

#include "kinds/mma/mma_spec.hpp"
#include "spec/element_format.hpp"
#include "spec/instance.hpp"
#include "spec/layout.hpp"

namespace ptxcts {

struct MmaOperandLayout {
  std::string name;  // a, b, c, d
  const ElementFormat* format = nullptr;
  int registers = 0;
  bool wide = false;       // .f64: 64-bit registers
  int container_bits = 0;  // an element's room in its register
  int shift = 0;           // the element's lowest bit in its container
  int per_register = 0;    // elements in one register
  int rows = 0, cols = 0;  // of its matrix
  std::string source;      // the manual's section and figure for its layout
  std::vector<ElementPos> at;  // [lane * elements() + e]: (computation, row, col) of element e

  int elements() const { return registers * per_register; }
  const ElementPos& of(int lane, int e) const { return at[static_cast<std::size_t>(lane * elements() + e)]; }
};

struct MmaLayouts {
  int m = 0, n = 0, k = 0, computations = 1;
  MmaOperandLayout a, b, c, d;
};

// Throws LayoutError where the formulas do not place every element exactly once (naming the lanes
// and elements that collide, or how many places are left empty), FormulaEvalError where they
// cannot be evaluated.
MmaLayouts compute_mma_layouts(const Instance& inst);

}  // namespace ptxcts

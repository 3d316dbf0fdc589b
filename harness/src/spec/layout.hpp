// The layout of one instance, evaluated from the spec's formulas: which lane supplies which row
// address, and which matrix element each (lane, register, element) holds. Also checks that the
// formulas describe a possible layout (every element exactly once, every row address exactly once).
#pragma once

#include <stdexcept>
#include <vector>

#include "spec/instance.hpp"

namespace ptxcts {

inline constexpr int kWarpLanes = 32;

struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ElementPos {
  int matrix = 0, row = 0, col = 0;
};

struct Layout {
  int registers = 0, elements_per_register = 0, matrices = 0, rows = 0, cols = 0, element_bits = 0;
  int memory_bits = 0;  // an element's width in memory (element_bits unless the load widens)
  bool widen_signed = false;
  int row_bytes = 0;  // a row in memory: its elements, and any padding after them (never read)
  std::vector<bool> active;          // [lane]: supplies a row address
  std::vector<ElementPos> lane_row;  // [lane]: the (matrix, row) an active lane supplies (col = 0)
  std::vector<int> row_lane;         // [matrix * rows + row] -> lane supplying it
  std::vector<ElementPos> element;   // [(lane * registers + r) * elements_per_register + i]
  // Moves: `element` is the destination's layout, `source` the source's, both in source coordinates.
  std::vector<ElementPos> source;

  const ElementPos& at(int lane, int r, int i) const {
    return element[static_cast<std::size_t>((lane * registers + r) * elements_per_register + i)];
  }
};

Layout compute_layout(const Instance& inst);  // throws LayoutError, FormulaEvalError

}  // namespace ptxcts

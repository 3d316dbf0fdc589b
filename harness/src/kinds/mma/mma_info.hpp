// What one mma instance is, resolved from its variant's 'mma' block and the qualifiers chosen: each
// operand's layout (kinds/mma/mma_layout), where its words sit in a thread's words, and the product rule.
#pragma once

#include <string>
#include <vector>

#include "kinds/mma/mma_layout.hpp"
#include "spec/instance.hpp"
#include "spec/matrix_product.hpp"

namespace ptxcts {

// An operand's layout (mma_layout.hpp), and where its words sit in a thread's words.
struct MmaOperandInfo : MmaOperandLayout {
  int first_word = 0;
  int words() const { return registers * (wide ? 2 : 1); }
  // Element e's bits in a thread's words, and writing them.
  std::uint64_t get(const std::uint32_t* words, int e) const;
  void set(std::uint32_t* words, int e, std::uint64_t bits) const;
};

// mma.sp (MmaSpec::sparse): the instance's selector and what its metadata word means.
struct MmaSparseInfo {
  int chunk = 0;          // 0: a dense mma
  int selector = 0;       // operand f
  int threads = 0;        // lanes of a group of four that hold metadata (4 / the selector's values)
  bool ordered = false;   // .sp::ordered_metadata
  int e_word = -1;        // the metadata operand e's word in a thread's words (after d)
  bool one_row = false;   // a lane's e holds 8 fields of one row (else 4 of each of two rows)
};

struct MmaInfo {
  int m = 0, n = 0, k = 0, computations = 1;
  MmaOperandInfo a, b, c, d;
  ProductRule rule;
  MmaSparseInfo sparse;
  int words = 0;  // per thread: a, b, c, d, then mma.sp's e
};

// Throws LayoutError or FormulaEvalError as compute_mma_layouts does.
MmaInfo mma_info(const Instance& inst);

}  // namespace ptxcts

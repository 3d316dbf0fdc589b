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

struct MmaInfo {
  int m = 0, n = 0, k = 0, computations = 1;
  MmaOperandInfo a, b, c, d;
  ProductRule rule;
  int words = 0;  // per thread: a, b, c, then d
};

// Throws LayoutError or FormulaEvalError as compute_mma_layouts does.
MmaInfo mma_info(const Instance& inst);

}  // namespace ptxcts

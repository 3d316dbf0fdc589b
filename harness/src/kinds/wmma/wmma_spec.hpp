// The wmma kind's operations and its variants' 'wmma' block (see specs/wmma.yaml), read and checked
// in its room through the describing face (spec/kind_blocks.hpp): the semantics of a wmma.load,
// wmma.store or wmma.mma variant, whose fragments have no specified register layout.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "spec/kind_blocks.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// wmma.load / wmma.store: which matrix, its shape and element type, and its layout in memory.
struct WmmaMatrix : VariantSemantics {
  std::string matrix;  // "a", "b", "c", "d"
  Formula rows, cols;
  AxisOrFixed element, layout;
};

// One operand of wmma.mma.
struct WmmaOperand {
  AxisOrFixed element, layout;  // layout: a and b only
  Formula registers;
};

struct WmmaMma : VariantSemantics {
  WmmaOperand a, b, c, d;
  std::string saturate;  // the qualifier whose ".satfinite" clamps ("" if none)
  std::string rounding;  // the qualifier giving the rounding mode of .f64 ("" if none)
  AxisOrFixed product;   // "multiply", or the qualifier with .xor.popc / .and.popc
  const Formula* operand_registers(std::string_view operand) const override;
};

// The operation words of wmma's variants.
inline constexpr const char* kWmmaLoad = "wmma-load";
inline constexpr const char* kWmmaStore = "wmma-store";
inline constexpr const char* kWmmaMmaOperation = "wmma-mma";

// wmma-load, wmma-store and wmma-mma, each with its 'wmma' block's reader and the planner's
// contract (wmma_axes.hpp) as its check.
std::vector<KindOperation> wmma_operations();

}  // namespace ptxcts

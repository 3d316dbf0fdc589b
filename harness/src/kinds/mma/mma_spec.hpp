// The mma kind's operation and its variants' 'mma' block (specs/mma.yaml), read in its room through
// the describing face (spec/kind_blocks.hpp): the shape, and each operand's element type, registers
// and fragment layout in the manual's own notation (spec/manual_formula.hpp).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "spec/kind_blocks.hpp"
#include "spec/manual_formula.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A row or column formula of an mma fragment: the manual's printed text, and what the suite
// evaluates: the same text, or (`why` says why) a reading of it where the printed text cannot be
// right. The audit reports every reading as a finding against the manual's text.
struct MmaFormula {
  std::string manual;        // as printed
  ManualFormula formula;     // evaluated: the manual's text, or the reading
  std::string reading, why;  // "" where the printed text is what the suite evaluates
  SourceLocation where;
};

// Where each element of one lane's fragment sits: row and column (the manual's formulas over
// %laneid, i and the block's definitions).
struct MmaLayout {
  std::string source;  // section and figure
  MmaFormula row, col;
  SourceLocation where;
};

// One operand of mma: its element type, its registers, and its layout (one, or one per value of
// the qualifier `layout_by`). d may share c's layouts ("Accumulators (C or D)").
struct MmaOperand {
  AxisOrFixed element;
  Formula registers;
  int container_bits = 0;   // an element's room in the register where wider than the element
  Formula container_shift;  // the element's lowest bit in its container (empty: 0)
  std::string layout_by;
  std::map<std::string, MmaLayout> layouts;  // by the value of layout_by ("" when there is one)
  std::string layout_of;                     // "c": the layouts are c's
};

// mma.sp and mma.sp::ordered_metadata (9.7.14.6): A is structured sparse; its operand holds only the
// non-zero elements (a matrix m x k/2, laid out by the 'a' block), and the metadata operand e says
// where in each chunk of a row they sit. Which lane's bits of e give which chunk the manual draws
// only (9.7.14.6.2's figures): kinds/mma/mma_sparse.hpp states the suite's reading (a hypothesis,
// cited in the family file), which the device judges.
struct MmaSparse {
  int chunk = 0;          // elements of a row of A per 4-bit metadata field: 4 (2:4), 2 (.tf32 1:2), 8 (4:8 in pairs); 0: dense
  int selectors = 0;      // the sparsity selector's documented values: 0 .. selectors - 1 (9.7.14.6.1)
  std::string selector;   // the variable the selector qualifier's values set (operand f)
  std::string ordered;    // the qualifier whose value .sp::ordered_metadata asks for sorted indices
  // How a contributing lane's 32 bits of e hold the fields ('lane_fields'): two-rows (4 fields of
  // row groupID in bits 15..0, 4 of row groupID + 8 in 31..16: the 16- and 32-bit types) or
  // one-row (8 consecutive fields of one row: the 8- and 4-bit types); kinds/mma/mma_sparse.hpp.
  bool one_row = false;
  std::string source;     // 9.7.14.6.1's words on granularity and selector
  std::string hypothesis; // the suite's reading of the metadata figures, with what it cites
};

struct MmaSpec : VariantSemantics {
  int m = 0, n = 0, k = 0;
  // m8n8k4 .f16: a warp computes several products; which one a lane takes part in.
  int computations = 1;
  ManualFormula computation;  // over laneid; empty when there is one
  std::string computations_source;
  std::vector<std::pair<std::string, ManualFormula>> let;  // groupID, threadID_in_group
  MmaOperand a, b, c, d;
  std::string saturate;  // the qualifier whose ".satfinite" clamps ("" if none)
  std::string rounding;  // the qualifier giving .f64's rounding mode ("" if none: .rn)
  AxisOrFixed product;   // "multiply", or the qualifier with .xor.popc / .and.popc
  // 'unchecked': why no result can be checked though the fragments are given (.block_scale: the
  // scale matrices' layout and the scaling are in a section the specs do not hold); "": checked.
  std::string why_unchecked;
  MmaSparse sparse;      // mma.sp's metadata and selector (chunk 0: a dense mma)
  const Formula* operand_registers(std::string_view operand) const override;
  std::string unchecked() const override { return why_unchecked; }
};

// A formula in the manual's notation (spec/manual_formula.hpp) over the `allowed` variables; errors
// point into its text (a block scalar's line and column).
ManualFormula read_manual(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what);

// The operation word of mma's variants.
inline constexpr const char* kMmaOperation = "mma";

// mma, with its 'mma' block's reader (optional: a variant without one is given by syntax and
// requirements only).
std::vector<KindOperation> mma_operations();

}  // namespace ptxcts

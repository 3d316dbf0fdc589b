// The describing face's spec side: what spec/ asks of the instruction kinds (kinds/, a later stage)
// about the blocks a kind adds to the spec files. spec/ declares kind_operations(),
// kind_family_blocks(), kind_case_blocks() and kind_layouts() and names no kind; kinds/kinds.cpp
// defines them from the one list of kinds, each kind giving its own (InstructionKind::operations,
// ::family_blocks, ::case_blocks, ::layout), so that a kind's blocks are read and checked in its own
// room. A variant's semantics block is spec_model.hpp's VariantSemantics, of the kind's own type.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "spec/instance.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// An operation a kind's variants may name in `operation:` (the YAML's word: "load", "wmma-load").
struct KindOperation {
  std::string name;
  bool addressed = true;    // has 'address_widths' and the operands {regs} and {addr}
  bool multiplies = false;  // no address: operands {d}, {a}, {b} and {c} (else {dst} and {src})
  bool stride = false;      // may take the optional stride operand, the qualifier value ", {stride}"
  // may take a sparse multiply's metadata operand and its selector, the qualifier value ", {e}, N"
  // (N: the selector, a constant 0 to 3), whose {e} the kind's emitter fills
  bool metadata = false;
  // The key of its variants' semantics block ("wmma"); "" for the generic fragment layout
  // (matrix, row_alignment, address_lanes, fragment, fragments) that spec/ reads.
  std::string block;
  // Reads the variant's semantics (variant: the variant's node; bound: the variables its qualifiers
  // set), refusing the generic layout's keys as the kind says; throws SpecError naming
  // file:line:column. Null: the block is optional and absent.
  std::function<std::shared_ptr<const VariantSemantics>(const YamlReader& variant, const Variant& v,
                                                        const std::set<std::string>& bound)>
      read;
  // After the generic checks of a variant (variant_checks): the kind's own; throws SpecError. Empty: none.
  std::function<void(const Variant& v, const YamlReader& variant)> check;
};

// Every kind's operations, in the kinds' order (defined in kinds/kinds.cpp).
const std::vector<KindOperation>& kind_operations();
// The operation named `name`; null when no kind has it.
const KindOperation* find_kind_operation(const std::string& name);

// A family file's block of a kind's own (the mma kind's 'sparse_fragments:'), read in the kind's room
// into SpecSet::family_blocks[key]; check-specs then checks it against the whole set.
struct KindFamilyBlock {
  std::string key;
  std::function<void(const YamlReader& block, const std::string& family, SpecSet& specs)> read;
  std::function<void(const SpecSet&)> check;  // empty: none
};

// Every kind's, in the kinds' order (defined in kinds/kinds.cpp).
const std::vector<KindFamilyBlock>& kind_family_blocks();

// A kind's own block of cases.yaml: its settings and its cases.
struct KindCaseBlock {
  std::string key;  // the block's key in cases.yaml
  // Reads the block: its settings into set.kind_settings[key]; its cases, each with block == key and
  // the kind's options in CaseSpec::options, appended to set.cases (names: the case names so far;
  // targets: for a case's 'undefined', spec_fields.hpp's read_case_undefined).
  std::function<void(YamlReader, CaseSet&, std::set<std::string>& names, const TargetCatalog& targets)> read;
  // check-specs: what the block says, against the whole spec set; throws SpecError. Empty: none.
  std::function<void(const SpecSet&)> check;
};

// Every kind's case blocks, in the kinds' order (defined in kinds/kinds.cpp).
const std::vector<KindCaseBlock>& kind_case_blocks();

// A kind whose variants lay out their operands in a block of their own (not `fragment`): which
// variants, and the evaluation of one form's layout, which throws LayoutError or FormulaEvalError
// as compute_layout does. check-specs evaluates every form of such a variant.
struct KindLayout {
  std::function<bool(const Variant&)> lays_out;
  std::function<void(const Instance&)> evaluate;
};

// Every kind's, in the kinds' order (defined in kinds/kinds.cpp).
const std::vector<KindLayout>& kind_layouts();

}  // namespace ptxcts

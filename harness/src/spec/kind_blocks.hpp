// The describing face's spec side: what spec/ asks of the instruction kinds (kinds/, a later stage)
// about the blocks a kind adds to the spec files. spec/ declares kind_case_blocks() and
// kind_layouts() and names no kind; kinds/kinds.cpp defines them from the one list of kinds, each
// kind giving its own (InstructionKind::case_blocks, ::layout), so that a kind's blocks are read and
// checked in its own room.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "spec/instance.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A kind's own block of cases.yaml: its settings and its cases.
struct KindCaseBlock {
  std::string key;  // the block's key in cases.yaml
  // Reads the block: its settings into set.kind_settings[key]; its cases, each with block == key and
  // the kind's options in CaseSpec::options, appended to set.cases (names: the case names so far).
  std::function<void(YamlReader, CaseSet&, std::set<std::string>& names)> read;
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

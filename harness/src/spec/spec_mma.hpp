// Reading the 'mma' block of an mma variant (specs/mma.yaml): the shape, and each operand's element
// type, registers and fragment layout in the manual's own notation (spec/manual_formula.hpp).
#pragma once

#include <set>
#include <string>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A formula in the manual's notation (spec/manual_formula.hpp) over the `allowed` variables; errors
// point into its text (a block scalar's line and column).
ManualFormula read_manual(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what);

// Fills v.mma; `bound` are the variables the qualifiers set.
void read_mma_semantics(YamlReader r, Variant& v, const std::set<std::string>& bound);

}  // namespace ptxcts

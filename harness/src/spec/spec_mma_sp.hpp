// Reading a family's 'sparse_fragments' (specs/mma.yaml): mma.sp's fragment sections, PTX ISA 9.0
// 9.7.14.6.2.1-8, as the manual gives them. For A a formula block in the manual's notation
// (spec/manual_formula.hpp): each element's row, and the window [firstcol, lastcol] of columns its
// non-zero element lies in; for B, C/D and the metadata the manual's cross-reference to a dense
// section, or its figures alone. Nothing of it is run; kinds/mma/formula_text checks the A blocks.
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// The entries of `r` (a sequence); each name unique among them and those `taken` before.
std::vector<SparseFragmentSection> read_sparse_fragments(const YamlReader& r, const std::string& family,
                                                         const std::vector<SparseFragmentSection>& taken);

}  // namespace ptxcts

// Spec validation of layouts: every instance of a variant must have a possible layout.
#pragma once

#include "spec/kind_blocks.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// A fragment layout, or a kind's own (spec/kind_blocks.hpp): throws SpecError at the variant.
void check_layouts(const Variant& v);
// The kind whose own layout block the variant has (nullptr: none).
const KindLayout* kind_layout_of(const Variant& v);

}  // namespace ptxcts

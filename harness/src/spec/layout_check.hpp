// Spec validation of layouts: every instance of a variant must have a possible layout.
#pragma once

#include "spec/spec_model.hpp"

namespace ptxcts {

void check_layouts(const Variant& v);  // throws SpecError at the variant

}  // namespace ptxcts

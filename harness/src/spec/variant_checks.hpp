// The cross-reference checks within one variant: what one part of it says about another (the
// syntax about the qualifiers, an exclusion about qualifier values, a value about a fragment
// layout, ...). One check per function; read_variant runs them all, in order, once it has read
// every part. Each failure is a SpecError at the YAML node at fault.
#pragma once

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// `r`: the variant's YAML node, read into `v` (for the positions of what a check blames).
void check_variant(const Variant& v, const YamlReader& r);

}  // namespace ptxcts

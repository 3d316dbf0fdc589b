// Reading the 'wmma' block of a wmma-load, wmma-store or wmma-mma variant (see specs/wmma.yaml).
#pragma once

#include <set>
#include <string>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// Fills v.wmma_matrix or v.wmma_mma; `bound` are the variables the qualifiers set.
void read_wmma_semantics(YamlReader r, Variant& v, const std::set<std::string>& bound);

}  // namespace ptxcts

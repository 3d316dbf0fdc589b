// A family file's `sass:` block: which SASS mnemonics are expected to implement each of its
// operations, each entry a claim with its source (or marked as the suite's assumption).
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// Reads `list` (the family's `sass:`), checking each entry against the family's `variants` (an
// operation none of them has is an error at file:line:column, as is one named twice).
std::vector<SassExpectation> read_sass_expectations(const YamlReader& list, const std::string& family,
                                                    const std::vector<Variant>& variants);

}  // namespace ptxcts

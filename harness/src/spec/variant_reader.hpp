// Reading one variant of a family spec (YAML -> Variant), one function per part of it. What refers
// from one part to another (syntax to qualifiers, exclusions to qualifier values, ...) is checked by
// variant_checks, which read_variant runs once every part is read.
#pragma once

#include <string>

#include "spec/kind_blocks.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A variant's 'operation': one of the kinds' (spec/kind_blocks.hpp), else a SpecError listing them.
const KindOperation& read_operation(const YamlReader& r);

// A sparse multiply's metadata operand and selector written as a qualifier value: ", {e}, N", N a
// constant 0 to 3 (KindOperation::metadata).
bool is_metadata_operand(const std::string& text);

// A variant of `family`, read and checked (throws SpecError at file:line:column).
Variant read_variant(YamlReader r, const std::string& family, const TargetCatalog& targets);

}  // namespace ptxcts

// The cross-reference checks across the spec files: what claims, wrong devices' excuses, known
// discrepancies and cases name exists; each instruction form comes from one variant; layouts are
// possible and rows fit the tile. One check per function; load_specs runs check_distinct_instances
// as each variant is read, and check_spec_set once every file is read. Each failure is a SpecError
// at file:line:column.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// Each instruction form must come from one variant and one choice of its qualifier values.
// `syntax`: the variant's syntax node; `seen`: every instance id so far, with its variant and that
// variant's syntax position (v's instances join it).
void check_distinct_instances(const Variant& v, const YamlReader& syntax,
                              std::map<std::string, std::pair<std::string, SourceLocation>>& seen);

// Every check across the whole set, in order.
void check_spec_set(const SpecSet& specs);

}  // namespace ptxcts

// Pieces of the spec format that several readers share (spec_loader, spec_wmma): formulas, and
// the fields every case has.
#pragma once

#include <set>
#include <string>

#include "spec/formula.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A formula over the `allowed` variables; errors point into the formula's text.
Formula read_formula(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what);

// A case's name (unique among `names`, which it joins), description and data kind.
CaseSpec read_case_basics(const YamlReader& item, std::set<std::string>& names);

// A case's optional 'where': the qualifier values of the instances it applies to.
void read_case_where(const YamlReader& item, CaseSpec& c);

}  // namespace ptxcts

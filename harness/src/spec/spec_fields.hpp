// Pieces of the spec format that several readers share (spec_loader, variant_reader, variant_checks,
// and the kinds' block readers in kinds/): formulas, PTX versions and requirements, placeholders,
// and the fields every case has.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>

#include "spec/formula.hpp"
#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// A formula over the `allowed` variables; errors point into the formula's text.
Formula read_formula(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what);

// A PTX ISA version like "7.8"; with `targets`, one that targets.yaml lists.
PtxVersion read_ptx(const YamlReader& r, const TargetCatalog* targets);

// A 'requires' block: ptx, targets (a target set) and source; `need_all`: ptx and targets required.
Requirement read_requirement(YamlReader r, const TargetCatalog& targets, bool need_all);

// The placeholders of a syntax or a form's text, counted. Braces must pair up around a name in
// `known` (else a SpecError pointing into the text, `expected` saying what may stand there).
std::map<std::string, int> read_placeholders(const YamlReader& r, const std::string& text, const std::string& what,
                                             const std::set<std::string>& known, const std::string& expected);

// 'operands': the operands a syntax names beyond its operation's own (grammar_model.hpp's
// ExtraOperand), in the order written: each `name: {words, type, elements, immediates}`, a name
// none of `reserved` (the operation's operands, the qualifiers). Single without 'elements'.
std::vector<ExtraOperand> read_extra_operands(const YamlReader& r, const std::set<std::string>& reserved);

// A syntax with each {name} for which `value` gives a text replaced by it; other placeholders
// (the operands) are kept.
std::string fill_syntax(const std::string& syntax, const std::function<const std::string*(const std::string&)>& value);

// A case's name (unique among `names`, which it joins), description and data kind.
CaseSpec read_case_basics(const YamlReader& item, std::set<std::string>& names);

// The variant's qualifier of that name (null if none).
const QualifierAxis* find_axis(const Variant& v, const std::string& name);

// An element type: a qualifier whose every value names a known type, or a type name.
AxisOrFixed read_element(const YamlReader& r, const Variant& v);

// A qualifier of the variant whose every value is one of `values`.
std::string read_axis_name(const YamlReader& r, const Variant& v, const std::vector<std::string>& values);

// A case's optional 'where': the qualifier values of the instances it applies to.
void read_case_where(const YamlReader& item, CaseSpec& c);

// A case's optional 'undefined': the targets on which the documents leave its behaviour undefined,
// each with their words, their source and what the fake device does there.
void read_case_undefined(const YamlReader& item, CaseSpec& c, const TargetCatalog& targets);

}  // namespace ptxcts

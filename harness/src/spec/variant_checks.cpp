#include "spec/variant_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spec/kind_blocks.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"
#include "spec/variant_reader.hpp"

namespace ptxcts {
namespace {

using VariantCheck = void (*)(const Variant&, const YamlReader&);


// The YAML node of each qualifier value, indexed like v.axes[a].options[i] (the variant is read,
// so its 'qualifiers' has the shape read_qualifiers accepted).
std::vector<std::vector<YamlReader>> option_nodes(const YamlReader& r) {
  std::vector<std::vector<YamlReader>> out;
  const YamlReader q = r.at("qualifiers");
  if (q.node().IsMap() && q.node().size() == 0) return out;
  for (auto& [k, opts] : q.entries("'qualifiers'")) out.push_back(opts.items("qualifier values"));
  return out;
}

// The placeholders of the syntax, counted; unknown ones are errors (at the placeholder).
std::map<std::string, int> syntax_placeholders(const Variant& v, const YamlReader& r) {
  const bool move = !v.addressed && !v.multiplies();
  std::set<std::string> known = move             ? std::set<std::string>{"dst", "src"}
                                : v.multiplies() ? std::set<std::string>{"d", "a", "b", "c"}
                                                 : std::set<std::string>{"regs", "addr"};
  for (auto const& a : v.axes) known.insert(a.name);
  for (auto const& o : v.operands) known.insert(o.name);
  return read_placeholders(r.at("syntax"), v.syntax, "syntax", known,
                           fmt::format("a qualifier name, {}", move             ? "{dst} or {src}"
                                                               : v.multiplies() ? "{d}, {a}, {b} or {c}"
                                                                                : "{regs} or {addr}"));
}

// The operations whose emitter fills the stride operand (KindOperation::stride): "O1 and O2".
std::string stride_operations() {
  std::vector<std::string> names;
  for (auto const& op : kind_operations())
    if (op.stride) names.push_back(op.name);
  if (names.size() < 2) return fmt::format("{}", fmt::join(names, ""));
  return fmt::format("{} and {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

// Only some kinds' emitters fill the stride operand: elsewhere it would reach ptxas as written.
void check_stride_operand(const Variant& v, const YamlReader& r) {
  if (const KindOperation* op = find_kind_operation(v.operation); op && op->stride) return;
  const auto nodes = option_nodes(r);
  for (std::size_t a = 0; a < v.axes.size(); ++a)
    for (std::size_t i = 0; i < v.axes[a].options.size(); ++i)
      if (v.axes[a].options[i].text == ", {stride}")
        nodes[a][i].at("text").fail(
            fmt::format("the stride operand \", {{stride}}\" belongs to {} variants only; expected a qualifier like "
                        "'.x1' or \"\"",
                        stride_operations()));
}

// Only some kinds' emitters fill a sparse multiply's metadata operand: elsewhere "{e}" would reach ptxas.
void check_metadata_operand(const Variant& v, const YamlReader& r) {
  if (const KindOperation* op = find_kind_operation(v.operation); op && op->metadata) return;
  const auto nodes = option_nodes(r);
  for (std::size_t a = 0; a < v.axes.size(); ++a)
    for (std::size_t i = 0; i < v.axes[a].options.size(); ++i)
      if (is_metadata_operand(v.axes[a].options[i].text))
        nodes[a][i].at("text").fail(fmt::format(
            "the metadata operand and selector \"{}\" belong to the variants of an operation whose kind fills "
            "them; expected a qualifier like '.x1' or \"\"",
            v.axes[a].options[i].text));
}

// A variable, the state space and the fragment layout are each decided by one qualifier at most.
void check_one_decider(const Variant& v, const YamlReader&) {
  std::map<std::string, std::string> setter;  // variable, state space or fragment -> the qualifier that decides it
  auto decide = [&](const std::string& what, const std::string& axis, const SourceLocation& at) {
    auto [it, fresh] = setter.emplace(what, axis);
    if (!fresh && it->second != axis)
      throw SpecError(
          at, fmt::format("{} is decided by qualifier '{}' and by qualifier '{}'; only one qualifier may decide it",
                          what, it->second, axis));
  };
  for (auto const& a : v.axes)
    for (auto const& o : a.options) {
      for (auto const& [n, val] : o.set) decide(fmt::format("variable '{}'", n), a.name, o.where);
      if (!o.space.empty()) decide("the state space", a.name, o.where);
      if (!o.fragment.empty()) decide("the fragment layout", a.name, o.where);
    }
}

// The values of a qualifier differ.
void check_distinct_values(const Variant& v, const YamlReader&) {
  for (auto const& a : v.axes) {
    std::set<std::string> texts;
    for (auto const& o : a.options)
      if (!texts.insert(o.text).second)
        throw SpecError(o.where, fmt::format("duplicate value '{}' of qualifier '{}'", o.text, a.name));
  }
}

// Every value of a qualifier sets the same variables, so that formulas have them whichever is chosen.
void check_same_variables(const Variant& v, const YamlReader&) {
  for (auto const& a : v.axes) {
    std::optional<std::set<std::string>> axis_vars;
    for (auto const& o : a.options) {
      std::set<std::string> vars;
      for (auto const& [n, val] : o.set) vars.insert(n);
      if (axis_vars && *axis_vars != vars)
        throw SpecError(
            o.where,
            fmt::format("every value of qualifier '{}' must set the same variables ({}) but this one sets ({})", a.name,
                        fmt::join(*axis_vars, ", "), fmt::join(vars, ", ")));
      axis_vars = vars;
    }
  }
}

// The syntax names only known placeholders, and every qualifier exactly once.
void check_syntax_names_qualifiers(const Variant& v, const YamlReader& r) {
  std::map<std::string, int> used = syntax_placeholders(v, r);
  for (auto const& a : v.axes)
    if (used[a.name] != 1) r.at("syntax").fail(fmt::format("syntax must use {{{}}} exactly once", a.name));
}

// The instruction's name becomes kernel and file names: nothing that could climb out of a directory.
void check_instruction_name(const Variant& v, const YamlReader& r) {
  std::string name = v.syntax.substr(0, v.syntax.find(' '));
  for (std::size_t p = 0; p < name.size(); ++p) {
    if (name[p] == '{') {
      p = name.find('}', p);
      if (p == std::string::npos) break;
      continue;
    }
    char c = name[p];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':'))
      throw SpecError(
          r.at("syntax").where_in_scalar(p),
          fmt::format("the instruction name in the syntax may hold only letters, digits, '.', '_' and ':' but has '{}'",
                      c));
  }
}

// The syntax names the operands of its operation once each: {regs} and {addr}, {dst} and {src}, or {d}, {a}, {b} and
// {c}.
void check_syntax_operands(const Variant& v, const YamlReader& r) {
  std::map<std::string, int> used = syntax_placeholders(v, r);
  const YamlReader syn = r.at("syntax");
  const bool move = !v.addressed && !v.multiplies();
  if (move && (used["dst"] != 1 || used["src"] != 1)) syn.fail("syntax must use {dst} and {src} exactly once each");
  if (v.multiplies() && (used["d"] != 1 || used["a"] != 1 || used["b"] != 1 || used["c"] != 1))
    syn.fail("syntax must use {d}, {a}, {b} and {c} exactly once each");
  if (v.addressed && (used["regs"] != 1 || used["addr"] != 1))
    syn.fail("syntax must use {regs} and {addr} exactly once each");
}

// An exclusion names qualifiers of the variant, and values they have.
void check_exclusion_refs(const Variant& v, const YamlReader& r) {
  if (!r.has("exclude")) return;
  for (auto const& item : r.at("exclude").items("'exclude'"))
    for (auto& [k, val] : item.at("when").entries("'when' of an exclusion")) {
      const std::string axis = k.str();
      const std::string text = val.str();
      if (axis == "address_width") continue;
      const QualifierAxis* a = find_axis(v, axis);
      if (!a) k.fail(fmt::format("unknown qualifier '{}' in exclusion", axis));
      if (std::none_of(a->options.begin(), a->options.end(), [&](auto const& o) { return o.text == text; }))
        val.fail(fmt::format("unknown value '{}' of qualifier '{}'", text, axis));
    }
}

// A qualifier value that selects a fragment layout selects one that 'fragments' defines.
void check_fragment_refs(const Variant& v, const YamlReader&) {
  for (auto const& a : v.axes)
    for (auto const& o : a.options)
      if (!o.fragment.empty() && v.has_layout && !v.fragments.count(o.fragment))
        throw SpecError(
            o.where,
            fmt::format("value '{}' of qualifier '{}' selects fragment layout '{}', which 'fragments' does not define",
                        o.text, a.name, o.fragment));
}

// In the order a user has always seen them (the operation's kind's own checks follow: KindOperation::check).
constexpr VariantCheck kVariantChecks[] = {
    check_stride_operand,   check_metadata_operand, check_one_decider,      check_distinct_values,
    check_same_variables,   check_syntax_names_qualifiers, check_instruction_name, check_syntax_operands,
    check_exclusion_refs,   check_fragment_refs,
};

}  // namespace

void check_variant(const Variant& v, const YamlReader& r) {
  for (VariantCheck check : kVariantChecks) check(v, r);
}

}  // namespace ptxcts

#include "spec/spec_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "spec/instance.hpp"
#include "spec/kind_blocks.hpp"
#include "spec/layout.hpp"
#include "spec/layout_check.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {
namespace {

using SpecSetCheck = void (*)(const SpecSet&);

// A wrong device's excuse names variants (a trailing '*' matches any ending) and cases that exist.
void check_mutant_exception_refs(const SpecSet& specs, const MutantException& e) {
  for (auto const& pat : e.variants) {
    const bool prefix = pat.ends_with("*");
    const std::string stem = prefix ? pat.substr(0, pat.size() - 1) : pat;
    if (std::none_of(specs.variants.begin(), specs.variants.end(),
                     [&](auto const& v) { return prefix ? v.name.starts_with(stem) : v.name == stem; }))
      throw SpecError(e.where,
                      fmt::format("'{}' may pass variants '{}', which match no variant of the specs", e.mutant, pat));
  }
  for (auto const& name : e.cases)
    if (!specs.find_case(name))
      throw SpecError(e.where, fmt::format("'{}' may pass unknown case '{}'", e.mutant, name));
}

void check_claim_refs(const SpecSet& specs, const Claim& c) {
  auto need_variant = [&](const std::string& name) -> const Variant& {
    const Variant* v = specs.find_variant(name);
    if (!v) throw SpecError(c.where, fmt::format("claim '{}' names unknown variant '{}'", c.id, name));
    return *v;
  };
  if (c.check.kind == ClaimCheckKind::Composition) {
    for (auto const& step : c.check.steps) {
      bool found = false;
      for (auto const& v : specs.variants)
        for (auto const& inst : expand(v)) found = found || inst.mnemonic() == step;
      if (!found)
        throw SpecError(c.where, fmt::format("claim '{}' composes '{}', which is no form of any variant", c.id, step));
    }
    return;
  }
  if (c.check.kind == ClaimCheckKind::Roundtrip) {
    const Variant& ld = need_variant(c.check.load);
    const Variant& st = need_variant(c.check.store);
    if (ld.operation != "load" || st.operation != "store")
      throw SpecError(c.where, fmt::format("claim '{}': a round trip needs a load variant then a store variant", c.id));
    return;
  }
  const Variant& v = need_variant(c.check.variant);
  for (auto const& filter : c.check.where) {
    const std::string& axis = filter.first;
    const std::vector<std::string>& texts = filter.second;
    auto a = std::find_if(v.axes.begin(), v.axes.end(), [&](auto const& x) { return x.name == axis; });
    if (a == v.axes.end())
      throw SpecError(c.where, fmt::format("claim '{}' filters on unknown qualifier '{}' of '{}'", c.id, axis, v.name));
    for (auto const& t : texts)
      if (std::none_of(a->options.begin(), a->options.end(), [&](auto const& o) { return o.text == t; }))
        throw SpecError(c.where, fmt::format("claim '{}' names unknown value '{}' of qualifier '{}'", c.id, t, axis));
  }
  for (auto const& name : c.check.cases)
    if (!specs.find_case(name)) throw SpecError(c.where, fmt::format("claim '{}' names unknown case '{}'", c.id, name));
  for (auto const& name : c.check.controls)
    if (!specs.find_case(name))
      throw SpecError(c.where, fmt::format("claim '{}' names unknown control case '{}'", c.id, name));
}

// Every claim names variants, qualifier values and cases that exist.
void check_claims_refs(const SpecSet& specs) {
  for (auto const& c : specs.claims) check_claim_refs(specs, c);
}

// Every wrong device's excuse names variants and cases that exist.
void check_mutant_exceptions_refs(const SpecSet& specs) {
  for (auto const& e : specs.cases.mutant_exceptions) check_mutant_exception_refs(specs, e);
}

// A known discrepancy names a form or a variant that exists.
void check_known_discrepancy_refs(const SpecSet& specs) {
  for (auto const& k : specs.known_discrepancies) {
    if (!k.finding.empty()) continue;  // a finding's id: the audit says when it no longer occurs
    if (!k.form.empty() &&
        std::none_of(specs.forms.begin(), specs.forms.end(), [&](auto const& f) { return f.name == k.form; }))
      throw SpecError(k.where, fmt::format("known discrepancy names unknown form '{}'", k.form));
    if (k.form.empty() && !specs.find_variant(k.variant))
      throw SpecError(k.where, fmt::format("known discrepancy names unknown variant '{}'", k.variant));
  }
}

// A case's 'where' names qualifier values that some variant has.
void check_case_where_refs(const SpecSet& specs) {
  for (auto const& c : specs.cases.cases)
    for (auto const& [axis, texts] : c.only)
      for (auto const& t : texts) {
        bool known = false;
        for (auto const& v : specs.variants)
          for (auto const& a : v.axes)
            if (a.name == axis)
              for (auto const& o : a.options) known = known || o.text == t;
        if (!known)
          throw SpecError(c.where, fmt::format("case '{}' selects value '{}' of qualifier '{}', which no variant has",
                                               c.name, t, axis));
      }
}

// Every instance of a variant with a layout has a possible layout.
void check_variant_layouts(const SpecSet& specs) {
  for (auto const& v : specs.variants)
    if (v.has_layout || kind_layout_of(v)) check_layouts(v);
}

// Every case must place every instance's rows inside one region of the tile.
void check_rows_fit(const Variant& v, const CaseSet& set) {
  const int region = set.tile_bytes / set.regions;
  const int stride = (v.row_bytes() + v.row_alignment - 1) / v.row_alignment * v.row_alignment;
  for (auto const& inst : expand(v)) {
    const Layout L = compute_layout(inst);
    const int rows = L.matrices * L.rows;
    for (auto const& c : set.cases) {
      if (!c.block.empty()) continue;  // a kind's own block: its kind checks its cases
      const int pitch = c.rows == RowPlacement::Pitch ? c.pitch : stride;
      if (c.rows == RowPlacement::Pitch && (pitch < v.row_bytes() || pitch % v.row_alignment != 0))
        throw SpecError(c.where,
                        fmt::format("case '{}': a pitch of {} bytes cannot hold the {}-byte rows of {} aligned to {}",
                                    c.name, pitch, v.row_bytes(), inst.id(), v.row_alignment));
      const int need = c.rows == RowPlacement::Scattered ? rows * stride : (rows - 1) * pitch + v.row_bytes();
      if (need > region)
        throw SpecError(
            c.where, fmt::format("case '{}': the {} rows of {} need {} bytes; a region has {} (tile_bytes / regions)",
                                 c.name, rows, inst.id(), need, region));
    }
  }
}

// Every case places the rows of every load's and store's instances inside one region.
void check_cases_rows_fit(const SpecSet& specs) {
  for (auto const& v : specs.variants)
    if (v.has_layout && v.addressed) check_rows_fit(v, specs.cases);
}

// What each kind's own case block says, against the whole spec set (spec/kind_blocks.hpp).
void check_kind_case_blocks(const SpecSet& specs) {
  for (auto const& b : kind_case_blocks())
    if (b.check) b.check(specs);
}

// What each kind's own family block says, against the whole spec set (spec/kind_blocks.hpp).
void check_kind_family_blocks(const SpecSet& specs) {
  for (auto const& b : kind_family_blocks())
    if (b.check) b.check(specs);
}

// The families a case's 'undefined' names are families of the specs.
void check_case_undefined_refs(const SpecSet& specs) {
  for (auto const& c : specs.cases.cases)
    for (auto const& u : c.undefined)
      for (auto const& f : u.families)
        if (std::find(specs.families.begin(), specs.families.end(), f) == specs.families.end())
          throw SpecError(u.where, fmt::format("case '{}': 'undefined' names unknown family '{}'; expected one of {}",
                                               c.name, f, fmt::join(specs.families, ", ")));
}

// In the order a user has always seen them.
constexpr SpecSetCheck kSpecSetChecks[] = {
    check_claims_refs,      check_mutant_exceptions_refs, check_known_discrepancy_refs,
    check_case_where_refs,  check_variant_layouts,        check_cases_rows_fit,
    check_kind_case_blocks, check_kind_family_blocks,     check_case_undefined_refs,
};

}  // namespace

// Each instruction form must come from one variant and one choice of its qualifier values: two
// would share a kernel name, results and claims. `seen`: every instance id so far, with its variant
// and that variant's syntax.
void check_distinct_instances(const Variant& v, const YamlReader& syntax,
                              std::map<std::string, std::pair<std::string, SourceLocation>>& seen) {
  const std::vector<Instance> all = expand(v);
  std::map<std::string, const Instance*> mine;
  for (auto const& inst : all) {
    const std::string id = inst.id();
    if (auto [it, fresh] = mine.emplace(id, &inst); !fresh) {
      std::vector<std::string> first, second;  // the qualifier values that differ
      for (auto const& a : v.axes)
        if (it->second->option(a.name).text != inst.option(a.name).text) {
          first.push_back(fmt::format("{}: \"{}\"", a.name, it->second->option(a.name).text));
          second.push_back(fmt::format("{}: \"{}\"", a.name, inst.option(a.name).text));
        }
      syntax.fail(fmt::format(
          "variant '{}' gives instance '{}' twice, with {{{}}} and with {{{}}}; expected each choice of qualifier "
          "values to give a different instruction",
          v.name, id, fmt::join(first, ", "), fmt::join(second, ", ")));
    }
    if (auto it = seen.find(id); it != seen.end())
      syntax.fail(
          fmt::format("instance '{}' of variant '{}' is also an instance of variant '{}' (syntax at {}); expected each "
                      "instruction form in one variant only",
                      id, v.name, it->second.first, it->second.second.str()));
  }
  for (auto const& [id, inst] : mine) seen.emplace(id, std::pair{v.name, syntax.where()});
}

void check_spec_set(const SpecSet& specs) {
  for (SpecSetCheck check : kSpecSetChecks) check(specs);
}

}  // namespace ptxcts

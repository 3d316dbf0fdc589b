#include "spec/spec_limits.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace ptxcts {

std::size_t saturating_product(std::size_t a, std::size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return SIZE_MAX;
  return a * b;
}

std::size_t saturating_product(std::initializer_list<std::size_t> factors) {
  std::size_t n = 1;
  for (std::size_t f : factors) n = saturating_product(n, f);
  return n;
}

std::size_t variant_forms(const Variant& v) {
  std::size_t n = v.address_widths.empty() ? 1 : v.address_widths.size();
  for (auto const& a : v.axes) n = saturating_product(n, a.options.size());
  return n;
}

namespace {

// "10 x 10 x 2 address widths": the factors a variant's forms are the product of.
std::string forms_factors(const Variant& v) {
  std::string out;
  for (auto const& a : v.axes) out += fmt::format("{}{} .{}", out.empty() ? "" : " x ", a.options.size(), a.name);
  if (!v.address_widths.empty())
    out += fmt::format("{}{} address widths", out.empty() ? "" : " x ", v.address_widths.size());
  return out.empty() ? "1" : out;
}

std::string count(std::size_t n) { return n == SIZE_MAX ? std::string("more than 2^64") : fmt::format("{}", n); }

}  // namespace

void check_variant_forms(const Variant& v, const YamlReader& qualifiers) {
  const std::size_t n = variant_forms(v);
  if (n > kMaxVariantForms)
    qualifiers.fail(fmt::format("variant '{}' spells {} forms ({}), over the limit of {}; expected it split into "
                                "variants as the document splits its syntax",
                                v.name, count(n), forms_factors(v), kMaxVariantForms));
}

void check_suite_size(const SpecSet& specs, std::size_t before, const Variant& v, const YamlReader& qualifiers) {
  const std::size_t forms = before + variant_forms(v);
  const std::size_t cases = specs.cases.cases.size(), targets = specs.targets.targets.size();
  if (const std::size_t pairs = saturating_product(forms, cases); pairs > kMaxSuiteCases)
    qualifiers.fail(fmt::format("with variant '{}' ({} forms) the specs hold {} forms x {} cases (cases.yaml) = {} "
                                "kernel-case pairs, over the limit of {}; expected fewer forms or cases",
                                v.name, count(variant_forms(v)), count(forms), cases, count(pairs), kMaxSuiteCases));
  if (const std::size_t assemblies = saturating_product(forms, targets); assemblies > kMaxCatalogAssemblies)
    qualifiers.fail(fmt::format("with variant '{}' ({} forms) the specs hold {} forms x {} targets (targets.yaml) = {} "
                                "catalog assemblies, over the limit of {}; expected fewer forms or targets",
                                v.name, count(variant_forms(v)), count(forms), targets, count(assemblies),
                                kMaxCatalogAssemblies));
}

}  // namespace ptxcts

// How much work a spec file may ask for. A user's file multiplies work in three places: a
// variant's qualifier values (every combination is a form), forms x cases (every case runs
// against every variant's kernels), and forms x targets (the catalog assembles every kernel for
// every target). Each product is refused where the file makes it, before anything is expanded,
// with the product and the limit named (as the grammar's kMaxGrammarProduct is).
#pragma once

#include <cstddef>
#include <initializer_list>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// The most forms one variant may spell (today's largest: 144): past it, split the variant as the
// document splits its syntax.
inline constexpr std::size_t kMaxVariantForms = 20000;
// The most kernel-case pairs the specs may make, counted as every form x every case (today
// 1,539 x 25 = 38,475; a run of 5,415 cases): a run past it takes hours.
inline constexpr std::size_t kMaxSuiteCases = 1000000;
// The most assemblies the catalog may make, counted as every form x every target of targets.yaml
// (today 1,539 x 28 = 43,092).
inline constexpr std::size_t kMaxCatalogAssemblies = 500000;

// a x b x ..., or SIZE_MAX where that overflows (a product over the limit must never wrap below it).
std::size_t saturating_product(std::initializer_list<std::size_t> factors);
std::size_t saturating_product(std::size_t a, std::size_t b);

// The forms a variant's qualifiers and address widths spell, before exclusions.
std::size_t variant_forms(const Variant& v);

// Refuses a variant spelling more than kMaxVariantForms forms, at its `qualifiers`.
void check_variant_forms(const Variant& v, const YamlReader& qualifiers);

// Refuses the variant `v` (just read; `before`: the forms of every variant read before it) where
// it takes the specs past kMaxSuiteCases or kMaxCatalogAssemblies, at its `qualifiers`.
void check_suite_size(const SpecSet& specs, std::size_t before, const Variant& v, const YamlReader& qualifiers);

}  // namespace ptxcts

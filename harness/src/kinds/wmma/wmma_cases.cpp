#include "kinds/wmma/wmma_cases.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinds/wmma/wmma_axes.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

constexpr const char* kWmmaCaseBlock = "wmma";

WmmaCaseSettings read_wmma_settings(YamlReader r) {
  WmmaCaseSettings s;
  s.warps = static_cast<int>(r.at("warps").integer(1, 32));
  s.tile_bytes = static_cast<int>(r.at("tile_bytes").integer(1024, 49152));
  s.regions = static_cast<int>(r.at("regions").integer(5, 16));  // a round trip kernel takes 5
  if (s.tile_bytes % (256 * s.regions) != 0)
    r.at("tile_bytes").fail("tile_bytes must split into regions of a multiple of 256 bytes");
  if (s.warps * s.tile_bytes > 48 * 1024) r.fail("warps x tile_bytes must fit in 48 KiB of shared memory");
  s.product_state_spaces_where = r.at("product_state_spaces").where();
  for (auto item : r.at("product_state_spaces").items("'product_state_spaces' of wmma"))
    s.product_state_spaces.push_back(item.str());
  if (s.product_state_spaces.empty())
    r.at("product_state_spaces").fail("expected at least one state space for the products");
  return s;
}

Fault read_wmma_fault(const YamlReader& r) {
  std::string f = r.str();
  if (f == "misaligned-address") return Fault::Misaligned;
  if (f == "misaligned-stride") return Fault::MisalignedStride;
  if (f == "minimal-alignment-address") return Fault::MinimalAlignmentAddress;
  if (f == "minimal-alignment-stride") return Fault::MinimalAlignmentStride;
  r.fail(
      fmt::format("unknown wmma fault '{}'; expected misaligned-address, misaligned-stride, "
                  "minimal-alignment-address or minimal-alignment-stride",
                  f));
}

// 'upper_lanes': what lanes 16 to 31 give otherwise than lanes 0 to 15 (the manual: "the same values
// of p and stride"); 'variant': the one variant whose single loads the case takes.
void read_wmma_undefined_fields(const YamlReader& item, WmmaCaseOptions& o) {
  if (item.has("upper_lanes")) {
    const std::string u = item.at("upper_lanes").str();
    if (u == "other-address") o.upper_lanes = WmmaCaseOptions::Lanes::OtherAddress;
    else if (u == "other-stride") o.upper_lanes = WmmaCaseOptions::Lanes::OtherStride;
    else item.at("upper_lanes").fail(fmt::format("unknown upper_lanes '{}'; expected other-address or other-stride", u));
  }
  if (item.has("variant")) o.variant = item.at("variant").str();
  o.lanes = read_lanes_case(item);
}

CaseSpec read_wmma_case(YamlReader item, std::set<std::string>& names, const TargetCatalog& targets) {
  item.expect_map({"name", "description", "data", "stride", "seed", "overflow", "fault", "where", "upper_lanes",
                   "variant", "undefined", "lanes", "other_form"});
  CaseSpec c = read_case_basics(item, names);
  WmmaCaseOptions o;
  c.block = kWmmaCaseBlock;
  c.where = item.at("stride").where();
  std::string stride = item.at("stride").str();
  if (stride == "wide") o.wide_stride = true;
  else if (stride == "below-default") o.below_default_stride = true;
  else if (stride != "default")
    item.at("stride").fail(fmt::format("unknown stride '{}'; expected default, wide or below-default", stride));
  if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
  else if (c.data == DataKind::Random) item.fail("random data needs a 'seed', so that runs are repeatable");
  if (item.has("overflow")) o.overflow = item.at("overflow").boolean();
  if (item.has("fault")) c.fault = read_wmma_fault(item.at("fault"));
  read_wmma_undefined_fields(item, o);
  read_case_where(item, c);
  read_case_undefined(item, c, targets);
  if ((o.below_default_stride || o.upper_lanes != WmmaCaseOptions::Lanes::Same || o.lanes.lanes != LanesShape::All) &&
      c.undefined.empty())
    item.fail("a stride below the default or lanes that differ leave the behaviour undefined: the case needs its "
              "'undefined' entry (the manual's words)");
  if (o.lanes.lanes != LanesShape::All && o.variant.empty())
    item.fail("lanes 16 to 31 leaving the instruction: the case needs the 'variant' whose kernel it takes");
  c.options = o;
  return c;
}

void read_wmma_block(YamlReader r, CaseSet& set, std::set<std::string>& names, const TargetCatalog& targets) {
  r.expect_map({"warps", "tile_bytes", "regions", "product_state_spaces", "cases"});
  set.kind_settings[kWmmaCaseBlock] = read_wmma_settings(r);
  for (auto item : r.at("cases").items("'cases' of wmma")) set.cases.push_back(read_wmma_case(item, names, targets));
}

// The state spaces products take in turn: each a value of the state-space qualifier of every
// wmma.load and wmma.store variant, so that every product finds the loads and the store it needs.
void check_wmma_product_state_spaces(const SpecSet& specs) {
  const WmmaCaseSettings& s = wmma_case_settings(specs.cases);
  for (auto const& ss : s.product_state_spaces)
    for (auto const& v : specs.variants) {
      if (v.operation != kWmmaLoad && v.operation != kWmmaStore) continue;
      auto axis =
          std::find_if(v.axes.begin(), v.axes.end(), [](auto const& a) { return a.name == kWmmaStateSpaceAxis; });
      if (axis == v.axes.end()) continue;  // check_wmma_paired_axes says so, at the variant
      if (std::none_of(axis->options.begin(), axis->options.end(), [&](auto const& o) { return o.text == ss; }))
        throw SpecError(
            s.product_state_spaces_where,
            fmt::format(
                "product state space '{}' is not a value of qualifier '{}' of variant '{}'; expected one of its values",
                ss, kWmmaStateSpaceAxis, v.name));
    }
}

// A case's 'variant' names a variant of the specs.
void check_wmma_case_variants(const SpecSet& specs) {
  for (auto const& c : specs.cases.cases) {
    const auto* o = std::any_cast<WmmaCaseOptions>(&c.options);
    if (c.block == kWmmaCaseBlock && o && !o->variant.empty() && !specs.find_variant(o->variant))
      throw SpecError(c.where, fmt::format("case '{}' names unknown variant '{}'; expected a variant of the specs",
                                           c.name, o->variant));
  }
}

void check_wmma_block(const SpecSet& specs) {
  check_wmma_product_state_spaces(specs);
  check_wmma_case_variants(specs);
}

}  // namespace

const WmmaCaseSettings& wmma_case_settings(const CaseSet& set) {
  static const WmmaCaseSettings defaults;
  auto it = set.kind_settings.find(kWmmaCaseBlock);
  return it == set.kind_settings.end() ? defaults : std::any_cast<const WmmaCaseSettings&>(it->second);
}

WmmaCaseOptions wmma_case_options(const CaseSpec& c) {
  const auto* o = std::any_cast<WmmaCaseOptions>(&c.options);
  return o ? *o : WmmaCaseOptions{};
}

KindCaseBlock wmma_case_block() {
  return {.key = kWmmaCaseBlock, .read = read_wmma_block, .check = check_wmma_block};
}

}  // namespace ptxcts

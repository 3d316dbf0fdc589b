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

CaseSpec read_wmma_case(YamlReader item, std::set<std::string>& names) {
  item.expect_map({"name", "description", "data", "stride", "seed", "overflow", "fault", "where"});
  CaseSpec c = read_case_basics(item, names);
  WmmaCaseOptions o;
  c.block = kWmmaCaseBlock;
  c.where = item.at("stride").where();
  std::string stride = item.at("stride").str();
  if (stride == "wide") o.wide_stride = true;
  else if (stride != "default")
    item.at("stride").fail(fmt::format("unknown stride '{}'; expected default or wide", stride));
  if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
  else if (c.data == DataKind::Random) item.fail("random data needs a 'seed', so that runs are repeatable");
  if (item.has("overflow")) o.overflow = item.at("overflow").boolean();
  if (item.has("fault")) c.fault = read_wmma_fault(item.at("fault"));
  read_case_where(item, c);
  c.options = o;
  return c;
}

void read_wmma_block(YamlReader r, CaseSet& set, std::set<std::string>& names) {
  r.expect_map({"warps", "tile_bytes", "regions", "product_state_spaces", "cases"});
  set.kind_settings[kWmmaCaseBlock] = read_wmma_settings(r);
  for (auto item : r.at("cases").items("'cases' of wmma")) set.cases.push_back(read_wmma_case(item, names));
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
  return {.key = kWmmaCaseBlock, .read = read_wmma_block, .check = check_wmma_product_state_spaces};
}

}  // namespace ptxcts

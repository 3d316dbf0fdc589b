#include "kinds/mma/mma_cases.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "kinds/mma/mma_layout.hpp"
#include "kinds/mma/mma_numbers.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

constexpr const char* kMmaCaseBlock = "mma";

// 'lanes': what lanes 16 to 31 of each warp do instead of running the mma with lanes 0 to 15.
void read_mma_lanes(const YamlReader& item, MmaCaseOptions& o) {
  if (!item.has("lanes")) return;
  const std::string l = item.at("lanes").str();
  for (auto lanes : {MmaCaseOptions::Lanes::UpperExited, MmaCaseOptions::Lanes::UpperPredicatedOff,
                     MmaCaseOptions::Lanes::UpperOtherForm})
    if (l == lanes_name(lanes)) o.lanes = lanes;
  if (o.lanes == MmaCaseOptions::Lanes::All)
    item.at("lanes").fail(
        fmt::format("unknown lanes '{}'; expected upper-exited, upper-predicated-off or upper-other-form", l));
  if ((o.lanes == MmaCaseOptions::Lanes::UpperOtherForm) != item.has("other_form"))
    item.fail("'other_form' (the qualifier values lanes 16 to 31 run) goes with lanes upper-other-form, and only there");
  if (!item.has("other_form")) return;
  for (auto& [k, v] : item.at("other_form").entries("'other_form' of a case")) o.other_form[k.str()] = v.str();
}

CaseSpec read_mma_case(YamlReader item, std::set<std::string>& names, const TargetCatalog& targets) {
  item.expect_map({"name", "description", "data", "seed", "overflow", "where", "metadata", "variant", "undefined",
                   "lanes", "other_form", "numbers"});
  CaseSpec c = read_case_basics(item, names);
  MmaCaseOptions o;
  c.block = kMmaCaseBlock;
  c.where = item.at("data").where();
  if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
  else if (c.data == DataKind::Random) item.fail("random data needs a 'seed', so that runs are repeatable");
  if (item.has("overflow")) o.overflow = item.at("overflow").boolean();
  if (item.has("numbers")) {
    o.numbers = item.at("numbers").str();
    const auto& known = numbers_questions();
    if (std::find(known.begin(), known.end(), o.numbers) == known.end())
      item.at("numbers").fail(
          fmt::format("unknown question '{}'; expected one of {}", o.numbers, fmt::join(known, ", ")));
    c.named_only = true;  // judges the Description's arithmetic: only the claims that name it rest on it
  }
  if (item.has("metadata")) {
    const std::string m = item.at("metadata").str();
    if (m != "unsorted") item.at("metadata").fail(fmt::format("unknown metadata '{}'; expected unsorted", m));
    o.unsorted_metadata = true;
  }
  if (item.has("variant")) o.variant = item.at("variant").str();
  read_mma_lanes(item, o);
  read_case_where(item, c);
  read_case_undefined(item, c, targets);
  if (o.lanes != MmaCaseOptions::Lanes::All && (c.undefined.empty() || o.variant.empty()))
    item.fail("lanes 16 to 31 that exit or skip the mma leave it undefined: the case needs its 'undefined' entry "
              "(the manual's words) and the 'variant' whose kernel it takes");
  if (o.unsorted_metadata && c.undefined.empty())
    item.fail("unsorted metadata leaves mma.sp::ordered_metadata undefined: the case needs its 'undefined' entry "
              "(the manual's words)");
  c.options = o;
  return c;
}

void read_mma_block(YamlReader r, CaseSet& set, std::set<std::string>& names, const TargetCatalog& targets) {
  r.expect_map({"warps", "cases"});
  set.kind_settings[kMmaCaseBlock] = MmaCaseSettings{.warps = static_cast<int>(r.at("warps").integer(1, 32))};
  for (auto item : r.at("cases").items("'cases' of mma")) set.cases.push_back(read_mma_case(item, names, targets));
}

// A case's 'variant' names a variant of the specs.
void check_mma_case_variants(const SpecSet& specs) {
  for (auto const& c : specs.cases.cases) {
    const auto* o = std::any_cast<MmaCaseOptions>(&c.options);
    if (c.block == kMmaCaseBlock && o && !o->variant.empty() && !specs.find_variant(o->variant))
      throw SpecError(c.where, fmt::format("case '{}' names unknown variant '{}'; expected a variant of the specs",
                                           c.name, o->variant));
  }
}

}  // namespace

const MmaCaseSettings& mma_case_settings(const CaseSet& set) {
  static const MmaCaseSettings defaults;
  auto it = set.kind_settings.find(kMmaCaseBlock);
  return it == set.kind_settings.end() ? defaults : std::any_cast<const MmaCaseSettings&>(it->second);
}

MmaCaseOptions mma_case_options(const CaseSpec& c) {
  const auto* o = std::any_cast<MmaCaseOptions>(&c.options);
  return o ? *o : MmaCaseOptions{};
}

const MmaLanesKernel* mma_lanes_kernel(const KernelPlan& k) { return std::any_cast<MmaLanesKernel>(&k.kind_data); }

MmaCaseOptions::Lanes mma_kernel_lanes(const KernelPlan& k) {
  const auto* l = mma_lanes_kernel(k);
  return l ? l->lanes : MmaCaseOptions::Lanes::All;
}

const char* lanes_name(MmaCaseOptions::Lanes lanes) {
  switch (lanes) {
    case MmaCaseOptions::Lanes::UpperExited: return "upper-exited";
    case MmaCaseOptions::Lanes::UpperPredicatedOff: return "upper-predicated-off";
    case MmaCaseOptions::Lanes::UpperOtherForm: return "upper-other-form";
    case MmaCaseOptions::Lanes::All: break;
  }
  return "";
}

KindLayout mma_layout() {
  return {.lays_out = [](const Variant& v) { return v.semantics_as<MmaSpec>() != nullptr; },
          .evaluate = [](const Instance& inst) { compute_mma_layouts(inst); }};
}

KindCaseBlock mma_case_block() { return {.key = kMmaCaseBlock, .read = read_mma_block, .check = check_mma_case_variants}; }

}  // namespace ptxcts

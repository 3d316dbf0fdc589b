#include "kinds/mma/mma_cases.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "kinds/mma/mma_layout.hpp"
#include "kinds/mma/mma_numbers.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

constexpr const char* kMmaCaseBlock = "mma";

CaseSpec read_mma_case(YamlReader item, std::set<std::string>& names) {
  item.expect_map({"name", "description", "data", "seed", "overflow", "numbers", "where"});
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
  }
  read_case_where(item, c);
  c.options = o;
  return c;
}

void read_mma_block(YamlReader r, CaseSet& set, std::set<std::string>& names) {
  r.expect_map({"warps", "cases"});
  set.kind_settings[kMmaCaseBlock] = MmaCaseSettings{.warps = static_cast<int>(r.at("warps").integer(1, 32))};
  for (auto item : r.at("cases").items("'cases' of mma")) set.cases.push_back(read_mma_case(item, names));
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

KindLayout mma_layout() {
  return {.lays_out = [](const Variant& v) { return v.semantics_as<MmaSpec>() != nullptr; },
          .evaluate = [](const Instance& inst) { compute_mma_layouts(inst); }};
}

KindCaseBlock mma_case_block() { return {.key = kMmaCaseBlock, .read = read_mma_block, .check = {}}; }

}  // namespace ptxcts

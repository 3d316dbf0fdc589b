#include "spec_model.hpp"

#include <algorithm>

namespace ptxcts {

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const TargetInfo* TargetCatalog::find(const std::string& name) const {
  for (auto const& t : targets)
    if (t.name == name) return &t;
  return nullptr;
}

bool TargetCatalog::contains(const TargetSet& set, const TargetInfo& t) const {
  if (set.min_arch) return t.arch >= *set.min_arch;
  return std::find(set.names.begin(), set.names.end(), t.name) != set.names.end();
}

std::optional<PtxVersion> TargetCatalog::previous(PtxVersion v) const {
  auto it = std::find(ptx_versions.begin(), ptx_versions.end(), v);
  if (it == ptx_versions.end() || it == ptx_versions.begin()) return std::nullopt;
  return *(it - 1);
}

const Variant* SpecSet::find_variant(const std::string& name) const {
  for (auto const& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

const CaseSpec* SpecSet::find_case(const std::string& name) const {
  for (auto const& c : cases.cases)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace ptxcts

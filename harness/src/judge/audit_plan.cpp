#include "judge/audit_plan.hpp"

#include <algorithm>
#include <tuple>

namespace ptxcts {

std::optional<KernelAtVersion> version_probe(const Suite& suite, const KernelPlan& k,
                                             const std::vector<std::string>& targets) {
  if (!k.audited) return std::nullopt;
  const PtxVersion documented = kernel_min_ptx(k);
  auto below = suite.specs.targets.previous(documented);
  if (!below) return std::nullopt;
  const TargetInfo* lowest = nullptr;
  auto better = [&](const TargetInfo& t) {
    if (!lowest) return true;
    auto key = [&](const TargetInfo& x) { return std::tuple(*below < x.ptx, !x.suffix.empty(), x.ptx, x.arch); };
    return key(t) < key(*lowest);
  };
  for (auto const& tname : targets) {
    const TargetInfo& t = *suite.specs.targets.find(tname);
    if (supports(suite.specs.targets, k.subject_instance(), t) && better(t)) lowest = &t;
  }
  if (!lowest) return std::nullopt;
  return KernelAtVersion{.kernel = &k, .target = lowest->name, .ptx = *below, .documented = documented};
}

std::vector<FormRequest> form_requests(const Suite& suite, const CatalogScope& scope) {
  std::vector<FormRequest> out;
  for (auto const& f : suite.specs.forms)
    if (std::find(scope.targets.begin(), scope.targets.end(), f.target) != scope.targets.end())
      out.push_back({.form = &f, .target = f.target, .ptx = f.ptx.value_or(scope.toolkit_ptx)});
  return out;
}

CatalogRequests audit_requests(const Suite& suite, const CatalogScope& scope) {
  CatalogRequests r;
  for (auto const& k : suite.kernels)
    if (auto p = version_probe(suite, k, scope.targets)) r.probes.push_back(std::move(*p));
  r.forms = form_requests(suite, scope);
  return r;
}

CatalogRequests audit_requests(const Suite& suite, const Toolchain& tc) {
  return audit_requests(suite, catalog_scope(suite, tc));
}

}  // namespace ptxcts

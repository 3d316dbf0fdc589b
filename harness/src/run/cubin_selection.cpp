#include "run/cubin_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace ptxcts {

bool runs_on(const TargetCatalog& targets, const TargetInfo& t, int major, int minor) {
  const int t_major = t.arch / 10, t_minor = t.arch % 10;
  if (t.suffix == "a") return major == t_major && minor == t_minor;
  if (t.suffix == "f") {
    const TargetInfo* own = targets.find(fmt::format("sm_{}{}", major, minor));
    return own && t.family != 0 && own->family == t.family && own->arch >= t.arch;
  }
  return major == t_major && minor >= t_minor;
}

CubinChoice select_cubin(const TargetCatalog& targets, const Catalog& catalog, const KernelPlan& kernel, int major,
                         int minor) {
  CubinChoice choice;
  const std::string device = fmt::format("sm_{}{}", major, minor);
  std::vector<const TargetInfo*> loadable, documented;
  for (auto const& name : catalog.targets)
    if (const TargetInfo* t = targets.find(name); t && runs_on(targets, *t, major, minor)) loadable.push_back(t);
  if (loadable.empty()) {
    choice.skip =
        fmt::format("no target this toolkit (CUDA {}) assembles for loads on {}", catalog.cuda_release, device);
    return choice;
  }
  for (auto const* t : loadable) {
    bool ok = true;
    for (auto const* s : kernel.steps) ok = ok && supports(targets, *s, *t);
    if (ok) documented.push_back(t);
  }
  if (documented.empty()) {
    for (auto const* s : kernel.steps)
      if (std::none_of(loadable.begin(), loadable.end(), [&](auto const* t) { return supports(targets, *s, *t); })) {
        choice.skip = fmt::format("{} requires {}; device is {}", s->mnemonic(), s->requirement_text(), device);
        choice.lacks_form = true;
        return choice;
      }
    choice.skip = fmt::format("no single target covers every step of this kernel on {}", device);
    choice.lacks_form = true;
    return choice;
  }
  // Most general first: portable, then family-specific, then arch-specific; newest first within each.
  auto rank = [](const TargetInfo* t) {
    return std::tuple(t->suffix.empty() ? 0 : t->suffix == "f" ? 1 : 2, -t->arch);
  };
  std::sort(documented.begin(), documented.end(), [&](auto const* x, auto const* y) { return rank(x) < rank(y); });
  const Assembly* a = catalog.find(kernel.name, documented.front()->name);
  if (!a)
    choice.error =
        fmt::format("the catalog has no {} assembly of this kernel (rebuild the catalog)", documented.front()->name);
  else if (!a->attempted) {  // the toolkit's PTX ISA version cannot express the form
    choice.skip = a->message;
    choice.lacks_form = true;
  }
  else if (!a->error.empty())
    choice.error =
        fmt::format("ptxas failed on this kernel for {}, so there is no cubin (the next catalog build tries again): {}",
                    a->target, a->error);
  else if (!a->accepted)
    choice.error = fmt::format("ptxas rejected a documented form for {}: {}", a->target, a->message);
  else choice.assembly = a;
  return choice;
}

void keep_loadable(Catalog& catalog, const TargetCatalog& targets, const std::vector<std::pair<int, int>>& devices) {
  std::set<std::string> loadable;
  for (auto const& name : catalog.targets)
    if (const TargetInfo* t = targets.find(name))
      for (auto const& [major, minor] : devices)
        if (runs_on(targets, *t, major, minor)) loadable.insert(name);
  std::erase_if(catalog.assemblies, [&](const Assembly& a) { return !loadable.count(a.target); });
  catalog.assemblies.shrink_to_fit();
}

}  // namespace ptxcts

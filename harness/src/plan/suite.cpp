#include "plan/suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ptxcts {

bool KernelPlan::runnable() const {
  for (auto const* s : steps)
    if (!s->variant().runnable()) return false;
  return true;
}

KernelPlan KernelPlan::of(const InstructionKind& kind, std::string name, std::string family,
                          std::vector<const Instance*> steps, std::string claim) {
  KernelPlan k;
  k.kind = &kind;
  k.name = std::move(name);
  k.family = std::move(family);
  k.steps = std::move(steps);
  k.claim = std::move(claim);
  return k;
}

const KernelPlan* Suite::find_kernel(const std::string& name) const {
  if (auto it = kernel_at.find(name); it != kernel_at.end() && it->second < kernels.size() &&
                                      kernels[it->second].name == name)
    return &kernels[it->second];
  for (auto const& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

std::string file_safe(const std::string& text) {
  std::string out;
  for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.') ? c : '_';
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');  // never "..", never hidden
  return out;
}

}  // namespace ptxcts

#include "kinds/fragment/fragment_planner.hpp"

#include <algorithm>

#include "kinds/instruction_kind.hpp"

namespace ptxcts {

std::vector<KernelPlan> plan_fragment_kernels(const InstructionKind& kind, const std::deque<Instance>& instances) {
  std::vector<KernelPlan> out;
  for (auto const& inst : instances)
    if (kind.owns(inst.variant()))
      out.push_back(KernelPlan::of(kind, file_safe(inst.id()), inst.variant().family, {&inst}));
  return out;
}

bool fragment_takes(const KernelPlan& k, const CaseSpec& c) {
  if (c.wmma || c.mma) return false;
  if (c.fault != Fault::None && k.steps.size() != 1) return false;
  for (auto const& [axis, texts] : c.only) {
    bool has_axis = false;
    for (auto const& a : k.steps.front()->variant().axes) has_axis = has_axis || a.name == axis;
    if (!has_axis || std::find(texts.begin(), texts.end(), k.steps.front()->option(axis).text) == texts.end())
      return false;
  }
  return true;
}

std::vector<ModelStep> fragment_model_steps(const KernelPlan& k) {
  std::vector<ModelStep> out;
  for (auto const* s : k.steps) out.push_back({.instance = s, .layout = compute_layout(*s)});
  return out;
}

}  // namespace ptxcts

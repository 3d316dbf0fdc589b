#include "kinds/matrix_move/matrix_move_planner.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "kinds/instruction_kind.hpp"
#include "kinds/matrix_move/matrix_move_cases.hpp"

namespace ptxcts {
namespace {

// Each store instance after the load instance with the same qualifier texts and address width.
const Instance* roundtrip_load(const std::deque<Instance>& instances, const ClaimCheck& check, const Instance& st) {
  const Instance* match = nullptr;
  for (auto const& ld : instances) {
    if (ld.variant().name != check.load || ld.address_width() != st.address_width()) continue;
    bool same = true;
    for (auto const& axis : st.variant().axes) same = same && ld.has_option(axis.name, st.option(axis.name).text);
    if (same) match = &ld;
  }
  return match;
}

// A round trip a claim asks for: `store` after `load`. Two instructions: the audit judges each by
// its own kernel.
KernelPlan roundtrip_kernel(const InstructionKind& kind, const Instance& load, const Instance& store,
                            const std::string& claim) {
  KernelPlan k =
      KernelPlan::of(kind, file_safe("roundtrip." + store.id()), store.variant().family, {&load, &store}, claim);
  k.audited = false;
  return k;
}

}  // namespace

std::vector<KernelPlan> plan_matrix_move_kernels(const InstructionKind& kind, const std::deque<Instance>& instances) {
  std::vector<KernelPlan> out;
  for (auto const& inst : instances)
    if (kind.owns(inst.variant()))
      out.push_back(KernelPlan::of(kind, file_safe(inst.id()), inst.variant().family, {&inst}));
  return out;
}

std::vector<KernelPlan> plan_matrix_move_lanes_kernels(const InstructionKind& kind,
                                                       const std::deque<Instance>& instances, const SpecSet& specs) {
  std::vector<KernelPlan> out;
  std::set<std::string> names;
  for (auto const& c : specs.cases.cases) {
    if (c.block != kMatrixMoveCaseBlock) continue;
    const MatrixMoveCaseOptions o = matrix_move_case_options(c);
    for (auto const& inst : instances) {
      if (!kind.owns(inst.variant()) || inst.variant().name != o.variant || !lanes_admits(inst, c.only)) continue;
      const std::string name = file_safe(inst.id() + "." + lanes_shape_name(o.lanes.lanes));
      if (!names.insert(name).second) continue;
      KernelPlan k = KernelPlan::of(kind, name, inst.variant().family, {&inst});
      k.audited = false;  // the plain kernel of the same instance is
      k.kind_data =
          MatrixMoveLanesKernel{.lanes = o.lanes.lanes, .other = lanes_other_form(instances, inst, o.lanes.other_form)};
      out.push_back(std::move(k));
    }
  }
  return out;
}

std::vector<KernelPlan> plan_matrix_move_roundtrips(const InstructionKind& kind, const std::deque<Instance>& instances,
                                                    const SpecSet& specs) {
  std::vector<KernelPlan> out;
  for (auto const& c : specs.claims) {
    if (c.check.kind != ClaimCheckKind::Roundtrip) continue;
    for (auto const& st : instances) {
      if (st.variant().name != c.check.store) continue;
      const Instance* ld = roundtrip_load(instances, c.check, st);
      if (!ld) continue;  // the load variant has no such form; nothing to pair
      if (!kind.owns(st.variant()))
        throw std::runtime_error("claim " + c.id + " asks for a round trip through " + st.id() +
                                 ", which is no load/store pair of ldmatrix, stmatrix or movmatrix");
      out.push_back(roundtrip_kernel(kind, *ld, st, c.id));
    }
  }
  return out;
}

bool matrix_move_takes(const KernelPlan& k, const CaseSpec& c) {
  // a lanes shape's kernel takes its shape's cases (of its variant) alone, and they no other kernel
  const MatrixMoveLanesKernel* shape = matrix_move_lanes_kernel(k);
  if (c.block == kMatrixMoveCaseBlock) {
    const MatrixMoveCaseOptions o = matrix_move_case_options(c);
    return shape && shape->lanes == o.lanes.lanes && k.steps.front()->variant().name == o.variant &&
           lanes_admits(*k.steps.front(), c.only);
  }
  if (!c.block.empty() || shape) return false;  // another kind's cases
  if (c.fault != Fault::None && k.steps.size() != 1) return false;
  for (auto const& [axis, texts] : c.only) {
    bool has_axis = false;
    for (auto const& a : k.steps.front()->variant().axes) has_axis = has_axis || a.name == axis;
    if (!has_axis || std::find(texts.begin(), texts.end(), k.steps.front()->option(axis).text) == texts.end())
      return false;
  }
  return true;
}

std::vector<ModelStep> matrix_move_model_steps(const KernelPlan& k) {
  std::vector<ModelStep> out;
  for (auto const* s : k.steps) out.push_back({.instance = s, .layout = compute_layout(*s)});
  return out;
}

}  // namespace ptxcts

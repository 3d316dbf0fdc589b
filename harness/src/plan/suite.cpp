#include "plan/suite.hpp"

#include "kinds/wmma/wmma_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ptxcts {

std::vector<ModelStep> KernelPlan::model_steps() const {
  std::vector<ModelStep> out;
  if (is_wmma()) return out;  // wmma kernels have their own model (wmma_model)
  for (auto const* s : steps) out.push_back({s, compute_layout(*s)});
  return out;
}

bool KernelPlan::runnable() const {
  for (auto const* s : steps)
    if (!s->variant().runnable()) return false;
  return true;
}

bool KernelPlan::takes(const CaseSpec& c) const {
  if (is_wmma()) return wmma_takes(*this, c);
  if (c.wmma) return false;
  if (c.fault != Fault::None && steps.size() != 1) return false;
  for (auto const& [axis, texts] : c.only) {
    bool has_axis = false;
    for (auto const& a : steps.front()->variant().axes) has_axis = has_axis || a.name == axis;
    if (!has_axis || std::find(texts.begin(), texts.end(), steps.front()->option(axis).text) == texts.end()) return false;
  }
  return true;
}

KernelPlan KernelPlan::of(std::string name, std::string family, std::vector<const Instance*> steps, std::string claim) {
  KernelPlan k;
  k.name = std::move(name);
  k.family = std::move(family);
  k.steps = std::move(steps);
  k.claim = std::move(claim);
  return k;
}

const KernelPlan* Suite::find_kernel(const std::string& name) const {
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

Suite build_suite(SpecSet specs) {
  Suite suite;
  suite.specs = std::move(specs);
  std::set<std::string> names;
  auto add_kernel = [&](KernelPlan k) {
    if (!names.insert(k.name).second) throw std::runtime_error("two kernels would share the name " + k.name);
    suite.kernels.push_back(std::move(k));
  };
  for (auto const& v : suite.specs.variants)
    for (auto& inst : expand(v)) {
      suite.instances.push_back(std::move(inst));
      const Instance* p = &suite.instances.back();
      if (v.is_wmma()) continue;  // planned below
      add_kernel(KernelPlan::of(file_safe(p->id()), v.family, {p}));
    }
  for (auto& k : plan_wmma_kernels(suite.instances)) add_kernel(std::move(k));
  // Round trips: each store instance after the load instance with the same qualifier texts.
  for (auto const& c : suite.specs.claims) {
    if (c.check.kind != ClaimCheckKind::Roundtrip) continue;
    for (auto const& st : suite.instances) {
      if (st.variant().name != c.check.store) continue;
      const Instance* match = nullptr;
      for (auto const& ld : suite.instances) {
        if (ld.variant().name != c.check.load || ld.address_width() != st.address_width()) continue;
        bool same = true;
        for (auto const& axis : st.variant().axes) same = same && ld.has_option(axis.name, st.option(axis.name).text);
        if (same) match = &ld;
      }
      if (!match) continue;  // the load variant has no such form; nothing to pair
      KernelPlan k = KernelPlan::of(file_safe("roundtrip." + st.id()), st.variant().family, {match, &st}, c.id);
      k.audited = false;  // two instructions: the audit judges each by its own kernel
      add_kernel(std::move(k));
    }
  }
  return suite;
}

}  // namespace ptxcts

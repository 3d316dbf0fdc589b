#include "kinds/kinds.hpp"

#include <set>
#include <stdexcept>

#include "kinds/fragment/fragment_kind.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/wmma/wmma_kind.hpp"

namespace ptxcts {

const std::vector<const InstructionKind*>& instruction_kinds() {
  static const std::vector<const InstructionKind*> kinds = {&fragment_kind(), &wmma_kind(), &mma_kind()};
  return kinds;
}

const InstructionKind& kind_of(const Variant& v) {
  for (auto const* k : instruction_kinds())
    if (k->owns(v)) return *k;
  throw std::logic_error("no instruction kind owns variant " + v.name);
}

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

}  // namespace

Suite build_suite(SpecSet specs) {
  Suite suite;
  suite.specs = std::move(specs);
  std::set<std::string> names;
  auto add_kernel = [&](KernelPlan k) {
    if (!names.insert(k.name).second) throw std::runtime_error("two kernels would share the name " + k.name);
    suite.kernels.push_back(std::move(k));
  };
  for (auto const& v : suite.specs.variants)
    for (auto& inst : expand(v)) suite.instances.push_back(std::move(inst));
  for (auto const* kind : instruction_kinds())
    for (auto& k : kind->plan_kernels(suite.instances, suite.specs)) add_kernel(std::move(k));
  for (auto const& c : suite.specs.claims) {
    if (c.check.kind != ClaimCheckKind::Roundtrip) continue;
    for (auto const& st : suite.instances) {
      if (st.variant().name != c.check.store) continue;
      const Instance* ld = roundtrip_load(suite.instances, c.check, st);
      if (!ld) continue;  // the load variant has no such form; nothing to pair
      add_kernel(kind_of(st.variant()).plan_roundtrip(*ld, st, c.id));
    }
  }
  return suite;
}

std::string emit_kernel_ptx(const KernelSkeletons& sk, const KernelPlan& kernel, const std::string& target,
                            PtxVersion ptx) {
  const InstructionKind& kind = kind_of(kernel);
  return kind.emit(sk.at(std::string(kind.skeleton())), kernel, target, ptx);
}

std::string kernel_instruction_text(const KernelPlan& kernel) { return kind_of(kernel).instruction_text(kernel); }

}  // namespace ptxcts

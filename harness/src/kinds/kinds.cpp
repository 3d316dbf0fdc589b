#include "kinds/kinds.hpp"

#include <set>
#include <stdexcept>

#include "kinds/matrix_move/matrix_move_kind.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/wmma/wmma_kind.hpp"

namespace ptxcts {

namespace {

// The product's kinds, one line each; a build's own (a test's kind, KindRegistration) go after them.
std::vector<const InstructionKind*>& kind_list() {
  static std::vector<const InstructionKind*> kinds = {&matrix_move_kind(), &wmma_kind(), &mma_kind()};
  return kinds;
}

// Set once the list has been read: a kind registered later would be missed by what was drawn from it.
bool& kinds_read() {
  static bool read = false;
  return read;
}

}  // namespace

const std::vector<const InstructionKind*>& instruction_kinds() {
  kinds_read() = true;
  return kind_list();
}

KindRegistration::KindRegistration(const InstructionKind& kind) {
  if (kinds_read()) throw std::logic_error("an instruction kind registered after the kinds were first read");
  kind_list().push_back(&kind);
}

// spec/kind_blocks.hpp's: each kind's, in the kinds' order.
const std::vector<KindOperation>& kind_operations() {
  static const std::vector<KindOperation> operations = [] {
    std::vector<KindOperation> out;
    for (auto const* k : instruction_kinds())
      for (auto& op : k->operations()) out.push_back(std::move(op));
    return out;
  }();
  return operations;
}

// spec/kind_blocks.hpp's: each kind's, in the kinds' order.
const std::vector<KindFamilyBlock>& kind_family_blocks() {
  static const std::vector<KindFamilyBlock> blocks = [] {
    std::vector<KindFamilyBlock> out;
    for (auto const* k : instruction_kinds())
      for (auto& b : k->family_blocks()) out.push_back(std::move(b));
    return out;
  }();
  return blocks;
}

// spec/kind_blocks.hpp's: each kind's, in the kinds' order.
const std::vector<KindCaseBlock>& kind_case_blocks() {
  static const std::vector<KindCaseBlock> blocks = [] {
    std::vector<KindCaseBlock> out;
    for (auto const* k : instruction_kinds())
      for (auto& b : k->case_blocks()) out.push_back(std::move(b));
    return out;
  }();
  return blocks;
}

// spec/kind_blocks.hpp's: each kind's, in the kinds' order.
const std::vector<KindLayout>& kind_layouts() {
  static const std::vector<KindLayout> layouts = [] {
    std::vector<KindLayout> out;
    for (auto const* k : instruction_kinds())
      if (auto l = k->layout()) out.push_back(std::move(*l));
    return out;
  }();
  return layouts;
}

std::vector<KindFigures> kind_figures(const SpecSet& specs) {
  std::vector<KindFigures> out;
  for (auto const* k : instruction_kinds())
    if (auto f = k->figures(specs)) out.push_back(std::move(*f));
  return out;
}

std::vector<KindStatement> kind_statements(const SpecSet& specs) {
  std::vector<KindStatement> out;
  for (auto const* k : instruction_kinds())
    for (auto& s : k->statements(specs)) out.push_back(std::move(s));
  return out;
}

std::vector<std::string> kind_fragment_section_sources(const SpecSet& specs) {
  std::vector<std::string> out;
  for (auto const* k : instruction_kinds())
    for (auto& s : k->fragment_section_sources(specs)) out.push_back(std::move(s));
  return out;
}

std::string layout_observers() {
  std::string out;
  for (auto const* k : instruction_kinds())
    if (!k->observes_layouts().empty()) out += (out.empty() ? "" : " and ") + std::string(k->observes_layouts());
  return out;
}

const InstructionKind& kind_of(const Variant& v) {
  for (auto const* k : instruction_kinds())
    if (k->owns(v)) return *k;
  throw std::logic_error("no instruction kind owns variant " + v.name);
}

Suite build_suite(SpecSet specs) {
  Suite suite;
  suite.specs = std::move(specs);
  auto add_kernel = [&](KernelPlan k) {
    if (!suite.kernel_at.emplace(k.name, suite.kernels.size()).second)
      throw std::runtime_error("two kernels would share the name " + k.name);
    suite.kernels.push_back(std::move(k));
  };
  for (auto const& v : suite.specs.variants)
    for (auto& inst : expand(v)) suite.instances.push_back(std::move(inst));
  for (auto const* kind : instruction_kinds())
    for (auto& k : kind->plan_kernels(suite.instances, suite.specs)) add_kernel(std::move(k));
  for (auto const* kind : instruction_kinds())
    for (auto& k : kind->plan_last(suite.instances, suite.specs)) add_kernel(std::move(k));
  return suite;
}

std::string emit_kernel_ptx(const KernelSkeletons& sk, const KernelPlan& kernel, const std::string& target,
                            PtxVersion ptx) {
  const InstructionKind& kind = kind_of(kernel);
  return kind.emit(sk.at(std::string(kind.skeleton())), kernel, target, ptx);
}

std::string kernel_instruction_text(const KernelPlan& kernel) { return kind_of(kernel).instruction_text(kernel); }

}  // namespace ptxcts

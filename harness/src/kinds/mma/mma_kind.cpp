#include "kinds/mma/mma_kind.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "kinds/lanes_shape.hpp"
#include "kinds/mma/mma_case_data.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_check.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_emitter.hpp"
#include "kinds/mma/mma_figures.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_numbers_check.hpp"
#include "kinds/mma/mma_sparse_spec.hpp"
#include "kinds/mma/mma_spec.hpp"
#include "kinds/mma/mma_statements.hpp"

namespace ptxcts {
namespace {

class MmaCase : public PreparedCase {
 public:
  MmaCase(const KernelPlan& k, MmaInfo x, LaunchInput in) : PreparedCase(std::move(in)), kernel_(k), x_(std::move(x)) {}
  CaseOutcome check(const LaunchState& actual) const override {
    CaseOutcome out;
    out.comparison = is_composition(kernel_) ? check_compose(kernel_, x_, input, actual) : check_mma(x_, input, actual);
    return out;
  }

 private:
  const KernelPlan& kernel_;
  MmaInfo x_;
};

// A question about arithmetic (kinds/mma/mma_numbers): its design, made again for the check.
class MmaNumbersCase : public PreparedCase {
 public:
  MmaNumbersCase(MmaInfo x, std::string question, LaunchInput in)
      : PreparedCase(std::move(in)), x_(std::move(x)), question_(std::move(question)) {}
  CaseOutcome check(const LaunchState& actual) const override {
    return check_numbers(x_, numbers_design(question_, x_), input, actual);
  }

 private:
  MmaInfo x_;
  std::string question_;
};

bool has_value(const Instance& inst, const std::string& axis, const std::vector<std::string>& texts) {
  const auto& axes = inst.variant().axes;
  if (std::none_of(axes.begin(), axes.end(), [&](auto const& a) { return a.name == axis; })) return false;
  return std::find(texts.begin(), texts.end(), inst.option(axis).text) != texts.end();
}

// A case's 'lanes' shape: a kernel of its own per instance of its variant that its 'where' admits,
// the plain kernel with lanes 16 to 31 exiting or predicated off around the mma; not audited (the
// plain kernel is). One per (shape, instance), however many cases share it.
std::vector<KernelPlan> plan_lanes_kernels(const InstructionKind& kind, const std::deque<Instance>& instances,
                                           const SpecSet& specs) {
  std::vector<KernelPlan> out;
  std::set<std::string> names;
  for (auto const& c : specs.cases.cases) {
    const auto* o = std::any_cast<MmaCaseOptions>(&c.options);
    if (c.block != "mma" || !o || o->lanes == MmaCaseOptions::Lanes::All) continue;
    for (auto const& inst : instances) {
      if (inst.variant().name != o->variant) continue;
      bool admitted = true;
      for (auto const& [axis, texts] : c.only) admitted = admitted && has_value(inst, axis, texts);
      const std::string name = file_safe(inst.id() + "." + lanes_name(o->lanes));
      if (!admitted || !names.insert(name).second) continue;
      KernelPlan k = KernelPlan::of(kind, name, inst.variant().family, {&inst});
      k.audited = false;
      k.kind_data = MmaLanesKernel{.lanes = o->lanes, .other = lanes_other_form(instances, inst, o->other_form)};
      out.push_back(std::move(k));
    }
  }
  return out;
}

class MmaKind : public InstructionKind {
 public:
  std::vector<KindOperation> operations() const override { return mma_operations(); }
  std::vector<KindFamilyBlock> family_blocks() const override { return {sparse_fragments_block()}; }
  std::vector<KindCaseBlock> case_blocks() const override { return {mma_case_block()}; }
  std::optional<KindLayout> layout() const override { return mma_layout(); }
  std::optional<KindFigures> figures(const SpecSet& specs) const override { return mma_figures(specs); }
  std::vector<KindStatement> statements(const SpecSet& specs) const override { return mma_statements(specs); }
  std::vector<std::string> fragment_section_sources(const SpecSet& specs) const override {
    return mma_section_sources(specs);
  }
  bool multiplies_matrices() const override { return true; }

  std::vector<KernelPlan> plan_kernels(const std::deque<Instance>& instances, const SpecSet& specs) const override {
    std::vector<KernelPlan> out;
    for (auto const& inst : instances)
      if (owns(inst.variant())) out.push_back(KernelPlan::of(*this, file_safe(inst.id()), inst.variant().family, {&inst}));
    for (auto& k : plan_mma_compositions(*this, instances, specs)) out.push_back(std::move(k));
    for (auto& k : plan_lanes_kernels(*this, instances, specs)) out.push_back(std::move(k));
    return out;
  }
  bool takes(const KernelPlan& k, const CaseSpec& c) const override {
    if (c.block != "mma") return false;
    const Instance& inst = mma_step(k);
    // a lanes shape's kernel takes its shape's cases alone, and they no other kernel
    if (mma_kernel_lanes(k) != mma_case_options(c).lanes) return false;
    // compositions: random data in one tile per warp
    const MmaCaseOptions o = mma_case_options(c);
    if (is_composition(k) && (c.data == DataKind::Unique || o.overflow || !o.numbers.empty())) return false;
    for (auto const& [axis, texts] : c.only)
      if (!has_value(inst, axis, texts)) return false;
    // a question about arithmetic: forms whose results are checked and whose types it fits
    if (!o.numbers.empty()) return numbers_apply(o.numbers, inst);
    if (!mma_case_options(c).variant.empty() && (is_composition(k) || inst.variant().name != mma_case_options(c).variant))
      return false;
    // unsorted metadata: mma.sp::ordered_metadata alone, of two indices a field (not .tf32's 1:2)
    if (mma_case_options(c).unsorted_metadata) {
      const MmaInfo x = mma_info(inst);
      return !is_composition(k) && x.sparse.ordered && x.sparse.chunk >= 4;
    }
    // accumulators near the 32-bit limits: integer products only
    return !o.overflow || mma_info(inst).d.format->kind == ElementKind::Signed;
  }
  // A plain kernel checks claims on its mma; a composition only its own claim (KernelPlan::claim).
  bool checks_claim_on(const KernelPlan& k, const std::function<bool(const Instance&)>& selects) const override {
    return !is_composition(k) && selects(k.subject_instance());
  }

  std::string_view skeleton() const override { return kMmaSkeleton; }
  std::string emit(const std::string& skeleton, const KernelPlan& k, const std::string& target,
                   PtxVersion ptx) const override {
    return emit_mma_ptx(skeleton, k.name, mma_program(k), target, ptx);
  }
  std::string instruction_text(const KernelPlan& k) const override { return mma_program(k).instruction_text(); }

  std::unique_ptr<PreparedCase> prepare(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) const override {
    MmaInfo x = mma_info(mma_step(k));
    if (const std::string q = mma_case_options(c).numbers; !q.empty() && !is_composition(k)) {
      LaunchInput in = make_numbers_input(set, x, numbers_design(q, x));
      return std::make_unique<MmaNumbersCase>(std::move(x), q, std::move(in));
    }
    LaunchInput in = is_composition(k) ? make_compose_input(set, c, k, x) : make_mma_input(set, c, x);
    return std::make_unique<MmaCase>(k, std::move(x), std::move(in));
  }
};

}  // namespace

const InstructionKind& mma_kind() {
  static const MmaKind kind;
  return kind;
}

}  // namespace ptxcts

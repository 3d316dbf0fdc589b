#include "kinds/wmma/wmma_kind.hpp"

#include <algorithm>
#include <stdexcept>

#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_cases.hpp"
#include "kinds/wmma/wmma_check.hpp"
#include "kinds/wmma/wmma_emitter.hpp"
#include "kinds/wmma/wmma_observe.hpp"
#include "kinds/wmma/wmma_planner.hpp"
#include "kinds/wmma/wmma_spec.hpp"

namespace ptxcts {
namespace {

class WmmaCase : public PreparedCase {
 public:
  WmmaCase(const KernelPlan& kernel, const CaseSpec& c, LaunchInput in)
      : PreparedCase(std::move(in)), kernel_(kernel), case_(c) {}
  CaseOutcome check(const LaunchState& actual) const override {
    CaseOutcome out;
    out.comparison = check_wmma(kernel_, input, actual);
    // Unique data shows where each element sat in the registers (not through a wide stride, a fault or
    // what the manual leaves undefined).
    if (case_.data == DataKind::Unique && !wmma_case_options(case_).wide_stride && case_.fault == Fault::None &&
        case_.undefined.empty())
      out.observed_layout = observe_wmma_layout(kernel_, input, actual);
    return out;
  }

 private:
  const KernelPlan& kernel_;
  const CaseSpec& case_;
};

class WmmaKind : public InstructionKind {
 public:
  std::vector<KindOperation> operations() const override { return wmma_operations(); }
  std::vector<KindCaseBlock> case_blocks() const override { return {wmma_case_block()}; }
  // The register layout of its fragments is unspecified: its unique cases record what the GPU did.
  std::string_view observes_layouts() const override { return "wmma"; }
  // wmma.load, wmma.store and wmma.mma: the shapes of a multiply (.m16n16k16), its types.
  bool multiplies_matrices() const override { return true; }
  // Its sections say "address operand p" and, unlike ldmatrix's ("Supported addressing modes for p
  // are described in Addresses as Operands"), point to no addressing modes: a variable there is a
  // form no document gives (ptxas accepting it is undocumented, not invalid).
  bool documents_variable_addresses() const override { return false; }

  std::vector<KernelPlan> plan_kernels(const std::deque<Instance>& instances, const SpecSet& specs) const override {
    return plan_wmma_kernels(*this, instances, specs);
  }
  bool takes(const KernelPlan& kernel, const CaseSpec& c) const override { return wmma_takes(kernel, c); }
  // Loads, stores and products are checked through one another: every kernel with a step of the variant.
  bool checks_claim_on(const KernelPlan& k, const std::function<bool(const Instance&)>& selects) const override {
    return std::any_of(k.steps.begin(), k.steps.end(), [&](auto const* s) { return selects(*s); });
  }

  std::string_view skeleton() const override { return kWmmaSkeleton; }
  std::string emit(const std::string& skeleton, const KernelPlan& k, const std::string& target,
                   PtxVersion ptx) const override {
    return emit_wmma_ptx(skeleton, k.name, wmma_program(k), target, ptx);
  }
  std::string instruction_text(const KernelPlan& k) const override { return wmma_program(k).instruction_text(); }

  std::unique_ptr<PreparedCase> prepare(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) const override {
    return std::make_unique<WmmaCase>(k, c, make_wmma_input(set, c, k));
  }
};

}  // namespace

const InstructionKind& wmma_kind() {
  static const WmmaKind kind;
  return kind;
}

}  // namespace ptxcts

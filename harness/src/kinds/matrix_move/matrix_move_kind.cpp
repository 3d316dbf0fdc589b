#include "kinds/matrix_move/matrix_move_kind.hpp"

#include "kinds/matrix_move/case_data.hpp"
#include "kinds/matrix_move/compare.hpp"
#include "kinds/matrix_move/matrix_move_cases.hpp"
#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "kinds/matrix_move/matrix_move_figures.hpp"
#include "kinds/matrix_move/matrix_move_operations.hpp"
#include "kinds/matrix_move/matrix_move_planner.hpp"

namespace ptxcts {
namespace {

// Region 1's rows equal region 0's input rows: what a load/store round trip must give.
bool roundtrip_identity(const std::vector<ModelStep>& steps, const LaunchInput& in, const LaunchState& actual) {
  const Layout& L = steps[0].layout;
  const LaunchShape& s = in.shape;
  const std::size_t row_bytes = static_cast<std::size_t>(L.row_bytes);
  for (int w = 0; w < s.warps; ++w)
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (!L.active[static_cast<std::size_t>(lane)]) continue;
      std::size_t t = static_cast<std::size_t>(w * kWarpLanes + lane),
                  tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(s.tile_bytes);
      std::size_t from = tile + in.offsets[t], to = tile + in.offsets[static_cast<std::size_t>(s.threads()) + t];
      for (std::size_t b = 0; b < row_bytes; ++b)
        if (actual.smem[to + b] != in.state.smem[from + b]) return false;
    }
  return true;
}

class MatrixMoveCase : public PreparedCase {
 public:
  MatrixMoveCase(const KernelPlan& kernel, std::vector<ModelStep> steps, LaunchInput in)
      : PreparedCase(std::move(in)), kernel_(kernel), steps_(std::move(steps)) {}
  CaseOutcome check(const LaunchState& actual) const override {
    CaseOutcome out;
    out.comparison = compare_states(steps_, input, expected_state(steps_, input), actual);
    if (!kernel_.claim.empty()) out.roundtrip_identity = roundtrip_identity(steps_, input, actual);
    return out;
  }

 private:
  const KernelPlan& kernel_;
  std::vector<ModelStep> steps_;
};

class MatrixMoveKind : public InstructionKind {
 public:
  std::vector<KindOperation> operations() const override { return matrix_move_operations(); }
  std::optional<KindFigures> figures(const SpecSet& specs) const override { return matrix_move_figures(specs, *this); }
  std::vector<KindCaseBlock> case_blocks() const override { return {matrix_move_case_block()}; }

  // One kernel per instance, then one per lanes shape of the 'matrix_move' block's cases.
  std::vector<KernelPlan> plan_kernels(const std::deque<Instance>& instances, const SpecSet& specs) const override {
    std::vector<KernelPlan> out = plan_matrix_move_kernels(*this, instances);
    for (auto& k : plan_matrix_move_lanes_kernels(*this, instances, specs)) out.push_back(std::move(k));
    return out;
  }
  std::vector<KernelPlan> plan_last(const std::deque<Instance>& instances, const SpecSet& specs) const override {
    return plan_matrix_move_roundtrips(*this, instances, specs);
  }
  bool takes(const KernelPlan& kernel, const CaseSpec& c) const override { return matrix_move_takes(kernel, c); }
  // Single-instruction kernels of the variant.
  bool checks_claim_on(const KernelPlan& k, const std::function<bool(const Instance&)>& selects) const override {
    return k.steps.size() == 1 && selects(*k.steps[0]);
  }

  std::string_view skeleton() const override { return kMatrixMoveSkeleton; }
  std::string emit(const std::string& skeleton, const KernelPlan& k, const std::string& target,
                   PtxVersion ptx) const override {
    return emit_ptx(skeleton, k, target, ptx);
  }
  std::string instruction_text(const KernelPlan& k) const override { return ptxcts::instruction_text(emit_steps(k)); }

  std::unique_ptr<PreparedCase> prepare(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) const override {
    std::vector<ModelStep> steps = matrix_move_model_steps(k);
    LaunchInput in = make_case_input(set, c, steps);
    return std::make_unique<MatrixMoveCase>(k, std::move(steps), std::move(in));
  }
};

}  // namespace

const InstructionKind& matrix_move_kind() {
  static const MatrixMoveKind kind;
  return kind;
}

}  // namespace ptxcts

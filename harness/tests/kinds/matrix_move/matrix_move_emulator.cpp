// The matrix-move kind's GPU in software (support/device_emulator): each step of a kernel through the
// reference model's layouts, one step at a time; shuffled, each lane's registers go to the lane
// before it after a load or a move, and come from the lane after it before a store.
#include "kinds/matrix_move/matrix_move_kind.hpp"
#include "kinds/matrix_move/matrix_move_planner.hpp"
#include "kinds/matrix_move/reference_model.hpp"
#include "support/device_emulator.hpp"

namespace ptxcts::test {
namespace {

LaunchState run_matrix_move_kernel(const KernelPlan& k, const LaunchInput& in, bool shuffle, Mutant) {
  const std::vector<ModelStep> steps = matrix_move_model_steps(k);
  const std::size_t threads = static_cast<std::size_t>(in.shape.threads());
  LaunchState s = in.state;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool store = steps[i].instance->variant().operation == "store";
    if (shuffle && store) rotate_lanes(s, in.shape, false);
    LaunchInput one{in.shape, {}, s};
    one.offsets.assign(in.offsets.begin() + static_cast<std::ptrdiff_t>(i * threads),
                       in.offsets.begin() + static_cast<std::ptrdiff_t>((i + 1) * threads));
    s = expected_state({steps[i]}, one);
    if (shuffle) rotate_lanes(s, in.shape, store);
  }
  return s;
}

[[maybe_unused]] const bool matrix_move_emulated =
    add_kind_emulator({.kind = &matrix_move_kind(), .run = run_matrix_move_kernel, .mutants = {}});

}  // namespace
}  // namespace ptxcts::test

#include "model/case_check.hpp"

#include "model/case_data.hpp"
#include "kinds/wmma/wmma_model.hpp"

namespace ptxcts {

LaunchInput case_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& kernel, const std::vector<ModelStep>& steps) {
  return kernel.is_wmma() ? make_wmma_input(set, c, kernel) : make_case_input(set, c, steps);
}

Comparison check_case(const KernelPlan& kernel, const std::vector<ModelStep>& steps, const LaunchInput& input, const LaunchState& actual) {
  if (kernel.is_wmma()) return check_wmma(kernel, input, actual);
  return compare_states(steps, input, expected_state(steps, input), actual);
}

}  // namespace ptxcts

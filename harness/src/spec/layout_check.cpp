#include "spec/layout_check.hpp"

#include <fmt/format.h>

#include "spec/layout.hpp"
#include "spec/mma_layout.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {

void check_layouts(const Variant& v) {
  for (auto const& inst : expand(v)) {
    try {
      if (v.mma) compute_mma_layouts(inst);
      else compute_layout(inst);
    } catch (const LayoutError& e) {
      throw SpecError(v.where, fmt::format("impossible layout in variant '{}': {}", v.name, e.what()));
    } catch (const FormulaEvalError& e) {
      throw SpecError(
          v.where, fmt::format("layout of variant '{}' cannot be evaluated for {}: {}", v.name, inst.id(), e.what()));
    }
  }
}

}  // namespace ptxcts

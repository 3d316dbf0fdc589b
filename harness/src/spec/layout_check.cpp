#include "spec/layout_check.hpp"

#include <fmt/format.h>

#include "spec/kind_blocks.hpp"
#include "spec/layout.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {

const KindLayout* kind_layout_of(const Variant& v) {
  for (auto const& k : kind_layouts())
    if (k.lays_out(v)) return &k;
  return nullptr;
}

void check_layouts(const Variant& v) {
  const KindLayout* kind = kind_layout_of(v);
  for (auto const& inst : expand(v)) {
    try {
      if (kind) kind->evaluate(inst);
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

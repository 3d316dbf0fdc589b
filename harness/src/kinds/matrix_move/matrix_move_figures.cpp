#include "kinds/matrix_move/matrix_move_figures.hpp"

#include <fmt/format.h>

#include <exception>

#include "spec/instance.hpp"

namespace ptxcts {
namespace {

// One form's layout into `out`: a figure of its own, or the same one as an earlier form's.
void add_form_figure(KindFigures& out, std::map<std::string, std::size_t>& by_key, const Instance& inst) {
  if (out.figures_of.contains(inst.mnemonic())) return;
  Layout L;
  try {
    L = compute_layout(inst);
  } catch (const std::exception&) {
    return;  // check-specs names it; a page draws what can be drawn
  }
  std::string key = fmt::format("{} {} {} {} {} {}:", L.registers, L.elements_per_register, L.matrices, L.rows,
                                L.cols, L.element_bits);
  for (auto const& p : L.element) key += fmt::format("{},{},{};", p.matrix, p.row, p.col);
  auto [it, fresh] = by_key.emplace(key, out.figures.size());
  if (fresh)
    out.figures.push_back({.layout = std::move(L),
                           .forms = {},
                           .letter = 0,
                           .operand = "",
                           .dims = "",
                           .sources = {},
                           .readings = {},
                           .origin = "",
                           .note = ""});
  out.figures[it->second].forms.push_back(inst.mnemonic());
  out.figures_of[inst.mnemonic()] = {{.label = "", .figure = it->second}};
}

}  // namespace

KindFigures matrix_move_figures(const SpecSet& specs, const InstructionKind& kind) {
  KindFigures out{.heading = "As the specs give them (ldmatrix, stmatrix, movmatrix)",
                  .words = "Each matrix element with the lane (T) and register (r) that holds it, evaluated from the "
                           "spec's formulas; neighbouring elements of one register share a box (r1.0\u20131 where a "
                           "register holds several); rows and columns are numbered along the edges; colors tell "
                           "registers apart.",
                  .anchor = "spec-layout-",
                  .figures = {},
                  .figures_of = {}};
  std::map<std::string, std::size_t> by_key;  // the layout as text -> figure
  for (auto const& v : specs.variants)
    if (v.has_layout && kind.owns(v))
      for (auto const& inst : expand(v)) add_form_figure(out, by_key, inst);
  return out;
}

}  // namespace ptxcts

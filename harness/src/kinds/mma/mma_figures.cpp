#include "kinds/mma/mma_figures.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "kinds/mma/mma_layout.hpp"
#include "kinds/mma/mma_spec.hpp"
#include "spec/instance.hpp"

namespace ptxcts {
namespace {

// The spec's layout of an operand whose section and figure are `source`: its readings, if any. (The
// layouts of one operand name distinct figures.)
std::vector<FigureReading> readings_of(const MmaSpec& spec, const MmaOperand& o, const std::string& source) {
  const MmaOperand& owner = o.layout_of.empty() ? o : spec.c;
  std::vector<FigureReading> out;
  for (auto const& [_, layout] : owner.layouts) {
    if (layout.source != source) continue;
    for (auto const& [line, f] : {std::pair{"row", &layout.row}, std::pair{"col", &layout.col}})
      if (!f->reading.empty()) out.push_back({.line = line, .manual = f->manual, .reading = f->reading, .why = f->why});
    break;
  }
  return out;
}

// What makes two figures one: the operand, the matrices' shape, which element of which lane sits
// where, how elements fill registers, and the readings the drawing rests on.
std::vector<int> shape_key(const std::string& operand, int computations, const MmaOperandLayout& o) {
  std::vector<int> k{operand[0], computations, o.rows, o.cols, o.registers, o.per_register};
  k.reserve(k.size() + o.at.size() * 3);
  for (auto const& p : o.at) k.insert(k.end(), {p.matrix, p.row, p.col});
  return k;
}

bool same_places(const MmaOperandLayout& x, const MmaOperandLayout& y) {
  if (x.registers != y.registers || x.per_register != y.per_register || x.at.size() != y.at.size()) return false;
  for (std::size_t i = 0; i < x.at.size(); ++i)
    if (x.at[i].matrix != y.at[i].matrix || x.at[i].row != y.at[i].row || x.at[i].col != y.at[i].col) return false;
  return true;
}

// The grid report/ draws: the operand's matrices, lane by lane, element by element.
Layout grid_of(const MmaOperandLayout& o, int computations) {
  Layout L;
  L.registers = o.registers;
  L.elements_per_register = o.per_register;
  L.matrices = computations;
  L.rows = o.rows;
  L.cols = o.cols;
  L.element = o.at;
  return L;
}

// A new figure of an operand ("A", "B", "C/D"), its elements named by `letter`.
FragmentFigure operand_figure(const std::string& role, char letter, const MmaOperandLayout& o, int computations,
                              std::vector<FigureReading> readings) {
  const char* dims = role == "A" ? "m x k" : role == "B" ? "k x n" : "m x n";
  return {.layout = grid_of(o, computations),
          .forms = {},
          .letter = letter,
          .operand = role,
          .dims = dims,
          .sources = {},
          .readings = std::move(readings),
          .origin = "Computed from the manual's formulas (specs/mma.yaml), lane by lane.",
          .note = role == "C/D" ? "The accumulators, as the manual draws them: c3 is C's c3 and D's d3 (where a form "
                                  "is marked (C) or (D), only that operand of it)."
                                : ""};
}

struct FigureBuilder {
  KindFigures& out;
  std::map<std::pair<std::vector<int>, std::string>, std::size_t> by_key{};  // places, readings

  // The figure of one operand of a form: found, or new; the form listed under it.
  void add(std::vector<FigureOf>& refs, const char* operand, const char* role, char letter, const MmaLayouts& x,
           const MmaOperandLayout& o, const MmaSpec& spec, const MmaOperand& so, const std::string& listed) {
    std::vector<FigureReading> readings = readings_of(spec, so, o.source);
    std::string read;
    for (auto const& r : readings) read += r.line + " = " + r.reading + "\n";
    auto [it, fresh] = by_key.emplace(std::pair{shape_key(role, x.computations, o), read}, out.figures.size());
    if (fresh) out.figures.push_back(operand_figure(role, letter, o, x.computations, std::move(readings)));
    FragmentFigure& f = out.figures[it->second];
    if (std::find(f.sources.begin(), f.sources.end(), o.source) == f.sources.end()) f.sources.push_back(o.source);
    f.forms.push_back(listed);
    refs.push_back({.label = operand, .figure = it->second});
  }

  void add_form(const Instance& inst, const MmaSpec& spec) {
    const std::string form = inst.mnemonic();
    if (out.figures_of.contains(form)) return;
    MmaLayouts x;
    try {
      x = compute_mma_layouts(inst);
    } catch (const std::exception&) {
      return;  // check-specs names it; a page draws what can be drawn
    }
    std::vector<FigureOf> refs;
    add(refs, "A", "A", 'a', x, x.a, spec, spec.a, form);
    add(refs, "B", "B", 'b', x, x.b, spec, spec.b, form);
    if (same_places(x.c, x.d)) {
      add(refs, "C/D", "C/D", 'c', x, x.c, spec, spec.c, form);
    } else {  // m8n8k4 .f16 with .ctype .f16 and .dtype .f32: each has its type's layout
      add(refs, "C", "C/D", 'c', x, x.c, spec, spec.c, form + " (C)");
      add(refs, "D", "C/D", 'c', x, x.d, spec, spec.d, form + " (D)");
    }
    out.figures_of.emplace(form, std::move(refs));
  }
};

}  // namespace

KindFigures mma_figures(const SpecSet& specs) {
  KindFigures out{
      .heading = "As the specs give them (mma: the manual's fragment layouts)",
      .words =
          "Each operand's matrix with, in each element, the lane (T) and the fragment element (a0, b0, c0, as the "
          "manual names them) that hold it, evaluated lane by lane from the manual's formulas; neighbouring elements "
          "of one register share a box (a0\u20131); one figure per distinct layout, with the forms that have it; "
          "colors tell registers apart. A run pins these layouts only up to a consistent relabelling of m, n and k (the "
          "same permutation of m on A's, C's and D's rows, of k on A's columns and B's rows, of n on B's, C's and D's "
          "columns), which no instruction can observe: the layout claims' notes say why.",
      .anchor = "mma-layout-",
      .figures = {},
      .figures_of = {}};
  FigureBuilder b{.out = out};
  for (auto const& v : specs.variants)
    // mma.sp's: not drawn (its A is the suite's matrix of non-zero values, its metadata a hypothesis)
    if (const MmaSpec* spec = v.semantics_as<MmaSpec>(); spec && !spec->sparse.chunk)
      for (auto const& inst : expand(v)) b.add_form(inst, *spec);
  return out;
}

}  // namespace ptxcts

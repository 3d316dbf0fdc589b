#include "report/mma_layout_svg.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <tuple>
#include <utility>

#include "report/figures/svg_parts.hpp"
#include "report/pages/html_document.hpp"
#include "spec/instance.hpp"

namespace ptxcts {

using namespace svg_parts;

namespace {

// The spec's layout of an operand whose section and figure are `source`: its readings, if any. (The
// layouts of one operand name distinct figures.)
std::vector<MmaReadingNote> readings_of(const MmaSpec& spec, const MmaOperand& o, const std::string& source) {
  const MmaOperand& owner = o.layout_of.empty() ? o : spec.c;
  std::vector<MmaReadingNote> out;
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

std::string letter_span(char letter, int a, int b) {
  return a == b ? fmt::format("{}{}", letter, a) : fmt::format("{}{}–{}", letter, a, b);
}

}  // namespace

MmaLayoutFigures mma_layout_figures(const SpecSet& specs) {
  MmaLayoutFigures out;
  std::map<std::pair<std::vector<int>, std::string>, std::size_t> by_key;  // places, readings
  for (auto const& v : specs.variants) {
    if (!v.semantics_as<MmaSpec>()) continue;
    const MmaSpec& spec = *v.semantics_as<MmaSpec>();
    for (auto const& inst : expand(v)) {
      const std::string form = inst.mnemonic();
      if (out.figures_of.contains(form)) continue;
      MmaLayouts x;
      try {
        x = compute_mma_layouts(inst);
      } catch (const std::exception&) {
        continue;  // check-specs names it; a page draws what can be drawn
      }
      std::vector<MmaFigureOf> refs;
      auto add = [&](const char* operand, const char* role, char letter, const MmaOperandLayout& o,
                     const MmaOperand& so, const std::string& listed) {
        std::vector<MmaReadingNote> readings = readings_of(spec, so, o.source);
        std::string read;
        for (auto const& r : readings) read += r.line + " = " + r.reading + "\n";
        auto [it, fresh] = by_key.emplace(std::pair{shape_key(role, x.computations, o), read}, out.figures.size());
        if (fresh)
          out.figures.push_back({.operand = role,
                                 .letter = letter,
                                 .computations = x.computations,
                                 .layout = o,
                                 .sources = {},
                                 .forms = {},
                                 .readings = readings});
        MmaLayoutFigure& f = out.figures[it->second];
        if (std::find(f.sources.begin(), f.sources.end(), o.source) == f.sources.end()) f.sources.push_back(o.source);
        f.forms.push_back(listed);
        refs.push_back({.operand = operand, .figure = it->second});
      };
      add("A", "A", 'a', x.a, spec.a, form);
      add("B", "B", 'b', x.b, spec.b, form);
      if (same_places(x.c, x.d)) {
        add("C/D", "C/D", 'c', x.c, spec.c, form);
      } else {  // m8n8k4 .f16 with .ctype .f16 and .dtype .f32: each has its type's layout
        add("C", "C/D", 'c', x.c, spec.c, form + " (C)");
        add("D", "C/D", 'c', x.d, spec.d, form + " (D)");
      }
      out.figures_of.emplace(form, std::move(refs));
    }
  }
  return out;
}

namespace {

// A box per run of one register's elements that lie next to each other in one row (across) or
// one column (down), in the register's order.
struct MmaRun {
  int lane, reg, first, last;
  int across = 1, down = 1;  // cells
  std::string lane_text, el_text;
};
using MmaRuns = std::vector<std::vector<MmaRun>>;  // per (lane, register)

MmaRuns mma_runs(const MmaOperandLayout& L, char letter) {
  MmaRuns runs_of;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int r = 0; r < L.registers; ++r) {
      std::vector<MmaRun> runs;
      for (int e = r * L.per_register; e < (r + 1) * L.per_register; ++e) {
        if (!runs.empty()) {
          MmaRun& run = runs.back();
          const ElementPos &prev = L.of(lane, e - 1), &next = L.of(lane, e);
          const bool same = prev.matrix == next.matrix;
          if (same && run.down == 1 && next.row == prev.row && next.col == prev.col + 1) {
            run.last = e, ++run.across;
            continue;
          }
          if (same && run.across == 1 && next.col == prev.col && next.row == prev.row + 1) {
            run.last = e, ++run.down;
            continue;
          }
        }
        runs.push_back({.lane = lane, .reg = r, .first = e, .last = e, .lane_text = "", .el_text = ""});
      }
      for (auto& run : runs) {
        run.lane_text = fmt::format("T{}", lane);
        run.el_text = letter_span(letter, run.first, run.last);
      }
      runs_of.push_back(std::move(runs));
    }
  return runs_of;
}

// Where the figure's matrices and cells go.
struct MmaGrid {
  static constexpr int kHead = 52, kGap = 28, kMin = 3, kWide = 1000;
  int left = 0;                            // the row axis, and numbers up to 255
  int cell_w = 0, cell_h = 0;              // a cell
  bool one_line = true;                    // each box's label on one line
  int col_step = 1, row_step = 1;          // every column (row) numbered, or every 2nd, 4th, ...
  int mw = 0, mh = 0;                      // a matrix
  int per_line = 1, across = 1, down = 1;  // matrices side by side; the figure's columns and lines of them

  std::pair<int, int> origin(int m) const { return {(m % per_line) * (mw + kGap), (m / per_line) * (mh + kGap)}; }
};

// The cells' size: each box wide enough for its label, on one line ("T5 a0–1") where the matrix
// stays under kWide px, else on two; b1 and 4-bit matrices get narrow cells and long boxes.
void size_mma_cells(MmaGrid& g, const MmaOperandLayout& L, const MmaRuns& runs_of) {
  auto cell = [&](bool one_line) {
    int w = MmaGrid::kMin, h = MmaGrid::kMin;
    for (auto const& runs : runs_of)
      for (auto const& run : runs) {
        const int tw = one_line ? text_width(run.lane_text + " " + run.el_text)
                                : std::max(text_width(run.lane_text), text_width(run.el_text));
        w = std::max(w, (tw + 6 + run.across - 1) / run.across);
        h = std::max(h, ((one_line ? 20 : 34) + run.down - 1) / run.down);
      }
    return std::pair{w, h};
  };
  std::tie(g.cell_w, g.cell_h) = cell(true);
  g.one_line = L.cols * g.cell_w <= MmaGrid::kWide;
  if (!g.one_line) std::tie(g.cell_w, g.cell_h) = cell(false);
  if (L.rows * 14 <= 480) g.cell_h = std::max(g.cell_h, 14);  // a short matrix: room for every row's number
}

MmaGrid mma_grid(const MmaOperandLayout& L, const MmaRuns& runs_of, int matrices) {
  MmaGrid g;
  g.left = std::max(34, 19 + text_width(num(L.rows - 1)));
  size_mma_cells(g, L, runs_of);
  // Every column and row numbered where there is room, else every 2nd, 4th, ... .
  auto step = [](int size, int need) {
    int s = 1;
    while (s * size < need) s *= 2;
    return s;
  };
  g.col_step = step(g.cell_w, text_width(num(L.cols - 1)) + 8), g.row_step = step(g.cell_h, 14);
  g.mw = g.left + L.cols * g.cell_w, g.mh = MmaGrid::kHead + L.rows * g.cell_h;
  // As many matrices side by side as fit in kWide px, the lines evened out (four: 2 and 2, not 3 and 1).
  const int fit = std::clamp((MmaGrid::kWide + MmaGrid::kGap) / (g.mw + MmaGrid::kGap), 1, matrices);
  g.per_line = (matrices + (matrices + fit - 1) / fit - 1) / ((matrices + fit - 1) / fit);
  g.across = std::min(matrices, g.per_line), g.down = (matrices + g.per_line - 1) / g.per_line;
  return g;
}

// Each matrix's title, its column numbers across the top and its row numbers down the left.
void draw_mma_axes(pugi::xml_node s, const MmaLayoutFigure& f, const MmaGrid& grid) {
  const MmaOperandLayout& L = f.layout;
  const int matrices = f.computations, kW = grid.cell_w, kH = grid.cell_h, kHead = MmaGrid::kHead;
  const char* dims = f.operand == "A" ? "m x k" : f.operand == "B" ? "k x n" : "m x n";
  for (int m = 0; m < matrices; ++m) {
    auto [x0, y0] = grid.origin(m);
    pugi::xml_node g = group(s, x0, y0);
    label(g, 0, 13,
          matrices > 1 ? fmt::format("{} of computation {}: {}x{}", f.operand, m + 1, L.rows, L.cols)
                       : fmt::format("{}: {}x{} ({})", f.operand, L.rows, L.cols, dims),
          "start");
    label(g, grid.left + L.cols * kW / 2, 30, "col", "ax");
    pugi::xml_node cols = group(g, grid.left + kW / 2, 47);
    for (int c = 0; c < L.cols; c += grid.col_step) label(cols, c * kW, 0, num(c));
    el(g, "text", {{"class", "ax"}, {"transform", fmt::format("translate(12,{})rotate(-90)", kHead + L.rows * kH / 2)}},
       "row");
    pugi::xml_node rows = group(g, grid.left - 5, kHead + kH / 2 + 4, "end");
    for (int r = 0; r < L.rows; r += grid.row_step) label(rows, 0, r * kH, num(r));
  }
}

// A box per run, labelled with its lane and elements, in a <g> per (lane, register).
void draw_mma_boxes(pugi::xml_node s, const MmaOperandLayout& L, const MmaRuns& runs_of, const MmaGrid& grid,
                    Fills& fills) {
  for (auto const& runs : runs_of) {
    pugi::xml_node g = lr_group(s, runs.front().lane, runs.front().reg);
    for (auto const& run : runs) {
      const ElementPos& a = L.of(run.lane, run.first);
      auto [x0, y0] = grid.origin(a.matrix);
      const int x = x0 + grid.left + a.col * grid.cell_w, y = y0 + MmaGrid::kHead + a.row * grid.cell_h;
      const int w = run.across * grid.cell_w, h = run.down * grid.cell_h;
      fills.add(fill(run.reg), x, y, w, h);
      if (grid.one_line) {
        label(g, x + w / 2, y + h / 2 + 4, run.lane_text + " " + run.el_text);
      } else {
        label(g, x + w / 2, y + h / 2 - 3, run.lane_text);
        label(g, x + w / 2, y + h / 2 + 11, run.el_text);
      }
    }
  }
}

// What a box and its label mean, with lane 0's first box as the example.
std::string mma_key(const MmaLayoutFigure& f, const MmaRun& first) {
  const MmaOperandLayout& L = f.layout;
  const std::string example =
      first.last > first.first
          ? fmt::format("{}: {}{} {} {}{}", first.el_text, f.letter, first.first, first.last > first.first + 1 ? "to" : "and",
                        f.letter, first.last)
          : fmt::format("{0}0, {0}1, ...", f.letter);
  std::string key =
      L.per_register > 1
          ? fmt::format("A box: the elements one lane (T5: lane 5) holds in one register, named as the manual names "
                        "them ({}, low first, left to right or top to bottom); {}i is in the lane's register i / {}. "
                        "Colors tell registers apart.",
                        example, f.letter, L.per_register)
          : fmt::format("A box: the element one lane (T5: lane 5) holds, named as the manual names it ({0}3: its "
                        "element 3, in its register 3). Colors tell registers apart.",
                        f.letter);
  if (f.operand == "C/D")
    key += " The accumulators, as the manual draws them: c3 is C's c3 and D's d3 (where a form is marked (C) or (D), "
           "only that operand of it).";
  if (f.computations > 1)
    key += fmt::format(" The warp computes {} products at once, each with its own matrices, held by {} lanes.",
                       f.computations, kWarpLanes / f.computations);
  return key;
}

// Where the figure comes from, its forms, and each reading it rests on beside the printed formula.
void mma_caption(pugi::xml_node figure, const MmaLayoutFigure& f) {
  pugi::xml_node cap = el(figure, "figcaption");
  text(cap, fmt::format("{}. Computed from the manual's formulas (specs/mma.yaml), lane by lane. {}: {}.",
                        fmt::join(f.sources, "; "), f.forms.size() == 1 ? "Form" : fmt::format("{} forms", f.forms.size()),
                        fmt::join(f.forms, ", ")));
  for (auto const& r : f.readings) {
    pugi::xml_node d = el(cap, "div", {{"class", "reading"}});
    el(d, "p", {}, fmt::format("A reading, not the printed text: the manual prints {} =", r.line));
    el(d, "pre", {}, r.manual);
    el(d, "p", {}, fmt::format("which cannot be right; this figure draws {} =", r.line));
    el(d, "pre", {}, r.reading);
    el(d, "p", {}, "Why: " + r.why);
  }
}

}  // namespace

void draw_mma_layout(pugi::xml_node figure, const MmaLayoutFigure& f) {
  const MmaOperandLayout& L = f.layout;
  const MmaRuns runs_of = mma_runs(L, f.letter);
  const MmaGrid grid = mma_grid(L, runs_of, f.computations);
  pugi::xml_node s = svg(figure, "lay spec mma", grid.across * grid.mw + (grid.across - 1) * MmaGrid::kGap,
                         grid.down * grid.mh + (grid.down - 1) * MmaGrid::kGap);
  pugi::xml_node background = s.append_child("g");
  Fills fills;
  draw_mma_axes(s, f, grid);
  draw_mma_boxes(s, L, runs_of, grid, fills);
  fills.draw(background);
  el(figure, "p", {{"class", "key"}}, mma_key(f, runs_of.front().front()));
  mma_caption(figure, f);
}

}  // namespace ptxcts

#include "report/layout_svg.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "report/figures/svg_parts.hpp"
#include "report/pages/html_document.hpp"
#include "kinds/kinds.hpp"

namespace ptxcts {

using namespace svg_parts;

const ObservedSlot* ObservedLayout::find(int lane, int reg, int part) const {
  for (auto const& s : slots)
    if (s.lane == lane && s.reg == reg && s.part == part) return &s;
  return nullptr;
}

namespace {

// A small cursor over the observed_layout text: each reader consumes what it matched.
struct Cursor {
  std::string_view s;
  bool eat(std::string_view w) {
    if (!s.starts_with(w)) return false;
    s.remove_prefix(w.size());
    return true;
  }
  std::optional<int> number() {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 0) return std::nullopt;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
    return v;
  }
};

std::optional<ObservedSlot> parse_slot(Cursor& c, int lane) {
  ObservedSlot slot{.lane = lane};
  auto reg = c.eat("r") ? c.number() : std::nullopt;
  if (!reg) return std::nullopt;
  slot.reg = *reg;
  if (c.eat(".lo")) slot.part = 0;
  else if (c.eat(".hi")) slot.part = 1;
  else if (c.eat(".")) {
    auto part = c.number();
    if (!part) return std::nullopt;
    slot.part = *part;
  }
  if (!c.eat("=")) return std::nullopt;
  if (c.eat("?")) return slot;
  if (!c.eat("(")) return std::nullopt;
  auto row = c.number();
  if (!row || !c.eat(",")) return std::nullopt;
  auto col = c.number();
  if (!col || !c.eat(")")) return std::nullopt;
  slot.known = true;
  slot.row = *row;
  slot.col = *col;
  return slot;
}

// A run of a register's elements that lie next to each other in one row (across) or one column (down)
// of the matrix, in the register's order, is drawn as one box with one label.
enum class Dir { One, Across, Down };
template <class P>  // an ElementPos or an ObservedSlot: its row and col
Dir extends(const P& prev, const P& next, Dir dir) {
  if (next.row == prev.row && next.col == prev.col + 1 && dir != Dir::Down) return Dir::Across;
  if (next.col == prev.col && next.row == prev.row + 1 && dir != Dir::Across) return Dir::Down;
  return Dir::One;
}

std::string span(int a, int b) { return a == b ? num(a) : fmt::format("{}–{}", a, b); }

}  // namespace

std::optional<ObservedLayout> parse_observed_layout(std::string_view text) {
  ObservedLayout L;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    Cursor c{text.substr(0, nl)};
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    auto lane = c.eat("lane ") ? c.number() : std::nullopt;
    if (!lane || !c.eat(":")) return std::nullopt;
    while (c.eat(" ")) {
      auto slot = parse_slot(c, *lane);
      if (!slot) return std::nullopt;
      L.slots.push_back(*slot);
      L.registers = std::max(L.registers, slot->reg + 1);
      L.parts = std::max(L.parts, slot->part + 1);
    }
    if (!c.s.empty()) return std::nullopt;
    L.lanes = std::max(L.lanes, *lane + 1);
  }
  if (L.slots.empty()) return std::nullopt;
  return L;
}

namespace {

// A box per run of one register's elements that lie next to each other in a row or a column,
// labelled with the lane (T) and register (r) that hold them.
struct RegisterRun {
  int lane, reg, first, last;
  Dir dir;
  std::string lane_text, reg_text;
};
using RegisterRuns = std::vector<std::vector<RegisterRun>>;  // per (lane, register), in order

RegisterRuns register_runs(const Layout& L) {
  RegisterRuns runs_of;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int r = 0; r < L.registers; ++r) {
      std::vector<RegisterRun> runs;
      for (int i = 0; i < L.elements_per_register; ++i) {
        if (!runs.empty()) {
          const ElementPos &prev = L.at(lane, r, i - 1), &next = L.at(lane, r, i);
          Dir d = prev.matrix == next.matrix ? extends(prev, next, runs.back().dir) : Dir::One;
          if (d != Dir::One) {
            runs.back().last = i;
            runs.back().dir = d;
            continue;
          }
        }
        runs.push_back({.lane = lane,
                        .reg = r,
                        .first = i,
                        .last = i,
                        .dir = Dir::One,
                        .lane_text = fmt::format("T{}", lane),
                        .reg_text = ""});
      }
      // The register, and which of its elements when a box does not hold them all.
      for (auto& run : runs)
        run.reg_text = runs.size() == 1 ? fmt::format("r{}", r) : fmt::format("r{}.{}", r, span(run.first, run.last));
      runs_of.push_back(std::move(runs));
    }
  return runs_of;
}

// Where the matrices and cells go: a column as wide as the widest line of a label; rows taller
// where a box of one row needs two lines; two matrices side by side where they are narrow.
struct RegisterGrid {
  static constexpr int kLeft = 34, kHead = 52, kGap = 28;
  int kW = 44, kH = 24, mw = 0, mh = 0, per_line = 1, across = 1, down = 1;
  int width(const RegisterRun& run) const { return run.dir == Dir::Across ? (run.last - run.first + 1) * kW : kW; }
  bool one_line(const RegisterRun& run) const {
    return text_width(run.lane_text + " " + run.reg_text) + 6 <= width(run);
  }
  std::pair<int, int> origin(int m) const { return {(m % per_line) * (mw + kGap), (m / per_line) * (mh + kGap)}; }
};

RegisterGrid register_grid(const Layout& L, const RegisterRuns& runs_of) {
  RegisterGrid g;
  for (auto const& runs : runs_of)
    for (auto const& run : runs)
      g.kW = std::max({g.kW, text_width(run.lane_text) + 6, text_width(run.reg_text) + 6});
  bool all_one_line = true;
  for (auto const& runs : runs_of)
    for (auto const& run : runs) all_one_line = all_one_line && (g.one_line(run) || run.dir == Dir::Down);
  g.kH = all_one_line ? 24 : 34;
  g.mw = RegisterGrid::kLeft + L.cols * g.kW, g.mh = RegisterGrid::kHead + L.rows * g.kH;
  g.per_line = L.cols > 8 ? 1 : 2;
  g.across = std::min(L.matrices, g.per_line), g.down = (L.matrices + g.per_line - 1) / g.per_line;
  return g;
}

// Each matrix with its row indices down the left and column indices across the top.
void draw_register_axes(pugi::xml_node s, const Layout& L, const RegisterGrid& grid) {
  constexpr int kLeft = RegisterGrid::kLeft, kHead = RegisterGrid::kHead;
  const int kW = grid.kW, kH = grid.kH;
  for (int m = 0; m < L.matrices; ++m) {
    auto [x0, y0] = grid.origin(m);
    pugi::xml_node g = group(s, x0, y0);
    label(g, 0, 13, fmt::format("matrix {} ({}x{}, {}-bit elements)", m, L.rows, L.cols, L.element_bits), "start");
    label(g, kLeft + L.cols * kW / 2, 30, "col", "ax");
    pugi::xml_node cols = group(g, kLeft + kW / 2, 47);
    for (int c = 0; c < L.cols; ++c) label(cols, c * kW, 0, num(c));
    el(g, "text", {{"class", "ax"}, {"transform", fmt::format("translate(12,{})rotate(-90)", kHead + L.rows * kH / 2)}},
       "row");
    pugi::xml_node rows = group(g, kLeft - 5, kHead + kH / 2 + 4, "end");
    for (int r = 0; r < L.rows; ++r) label(rows, 0, r * kH, num(r));
  }
}

// A box per run, labelled with its lane and register, in a <g> per (lane, register).
void draw_register_boxes(pugi::xml_node s, const Layout& L, const RegisterRuns& runs_of, const RegisterGrid& grid,
                         Fills& fills) {
  for (auto const& runs : runs_of) {
    pugi::xml_node g = lr_group(s, runs.front().lane, runs.front().reg);
    for (auto const& run : runs) {
      const ElementPos& a = L.at(run.lane, run.reg, run.first);
      auto [x0, y0] = grid.origin(a.matrix);
      const int x = x0 + RegisterGrid::kLeft + a.col * grid.kW, y = y0 + RegisterGrid::kHead + a.row * grid.kH;
      const int w = grid.width(run), h = run.dir == Dir::Down ? (run.last - run.first + 1) * grid.kH : grid.kH;
      fills.add(fill(run.reg), x, y, w, h);
      if (grid.one_line(run)) {
        label(g, x + w / 2, y + h / 2 + 4, run.lane_text + " " + run.reg_text);
      } else {
        label(g, x + w / 2, y + h / 2 - 3, run.lane_text);
        label(g, x + w / 2, y + h / 2 + 11, run.reg_text);
      }
    }
  }
}

}  // namespace

void draw_spec_layout(pugi::xml_node parent, const Layout& L) {
  const RegisterRuns runs_of = register_runs(L);
  const RegisterGrid grid = register_grid(L, runs_of);
  pugi::xml_node s = svg(parent, "lay spec", grid.across * grid.mw + (grid.across - 1) * RegisterGrid::kGap,
                         grid.down * grid.mh + (grid.down - 1) * RegisterGrid::kGap);
  pugi::xml_node background = s.append_child("g");
  Fills fills;
  draw_register_axes(s, L, grid);
  draw_register_boxes(s, L, runs_of, grid, fills);
  fills.draw(background);
  el(parent, "p", {{"class", "key"}},
     L.elements_per_register > 1
         ? "A box: the elements one lane (T) holds in one register (r), the register's element 0 first (left to "
           "right, or top to bottom)."
         : "A box: the element one lane (T) holds in one register (r).");
}

namespace {

using SlotKey = std::tuple<int, int, int>;  // lane, register, part

std::string element(const ObservedSlot& s) { return s.known ? fmt::format("{},{}", s.row, s.col) : "?"; }

// Elements that more than one slot holds. Outlined only where some are and some are not: where the
// fragment holds every element twice (or none twice), an outline on every cell (or none) says nothing.
struct Repeats {
  std::map<std::pair<int, int>, int> holders;  // element (row, col) -> slots that hold it
  std::size_t repeated = 0;                    // elements held more than once
  int most = 0, least = std::numeric_limits<int>::max();
  bool marked = false;
};

Repeats count_repeats(const ObservedLayout& now) {
  Repeats r;
  for (auto const& slot : now.slots)
    if (slot.known) ++r.holders[{slot.row, slot.col}];
  for (auto const& [_, n] : r.holders) {
    r.repeated += n > 1;
    r.most = std::max(r.most, n);
    r.least = std::min(r.least, n);
  }
  r.marked = r.repeated > 0 && r.repeated < r.holders.size();
  return r;
}

// A box per run of a register's parts that hold neighbouring elements; a marked part (a repeat, a
// change) or an unknown one has a box of its own.
struct Box {
  int first = 0, last = 0;  // parts
  Dir dir = Dir::One;
  const ObservedSlot *a = nullptr, *b = nullptr;  // its first and last slot
  bool repeat = false, changed = false;
  const ObservedSlot* was = nullptr;  // in a diff, the earlier report's slot (nullptr: it is new)
  bool plain() const { return !repeat && !changed && a->known; }
};
struct Cell {
  int lane, reg;
  std::vector<Box> boxes;
  int rank() const {  // 0 plain, 1 with a repeat, 2 with a change
    int k = 0;
    for (auto const& b : boxes) k = std::max(k, b.changed ? 2 : b.repeat ? 1 : 0);
    return k;
  }
};
struct ObservedCells {
  std::vector<Cell> cells;   // by lane, then register
  bool one_box_each = true;  // every cell one plain box
  int changed = 0;           // boxes whose element changed (in a diff)
};

// One cell's boxes: its slots in the order of their parts, neighbouring plain ones in one box.
Cell observed_cell(std::pair<int, int> lr, std::vector<const ObservedSlot*>& slots, const Repeats& repeats,
                   const std::map<SlotKey, const ObservedSlot*>* old, int& changed) {
  std::stable_sort(slots.begin(), slots.end(), [](auto* x, auto* y) { return x->part < y->part; });
  Cell c{.lane = lr.first, .reg = lr.second, .boxes = {}};
  for (const ObservedSlot* slot : slots) {
    Box box{.first = slot->part, .last = slot->part, .dir = Dir::One, .a = slot, .b = slot};
    box.repeat = repeats.marked && slot->known && repeats.holders.at({slot->row, slot->col}) > 1;
    if (old) {
      auto it = old->find({slot->lane, slot->reg, slot->part});
      box.was = it == old->end() ? nullptr : it->second;
      box.changed = !box.was || element(*box.was) != element(*slot);
    }
    if (box.plain() && !c.boxes.empty() && c.boxes.back().plain() && slot->part == c.boxes.back().last + 1) {
      Box& prev = c.boxes.back();
      if (Dir d = extends(*prev.b, *slot, prev.dir); d != Dir::One) {
        prev.last = slot->part;
        prev.b = slot;
        prev.dir = d;
        continue;
      }
    }
    changed += box.changed;
    c.boxes.push_back(box);
  }
  return c;
}

ObservedCells observed_cells(const ObservedLayout& now, const ObservedLayout* before, const Repeats& repeats) {
  std::map<SlotKey, const ObservedSlot*> old;
  if (before)
    for (auto const& s : before->slots) old[{s.lane, s.reg, s.part}] = &s;
  std::map<std::pair<int, int>, std::vector<const ObservedSlot*>> by_lane_reg;
  for (auto const& slot : now.slots) by_lane_reg[{slot.lane, slot.reg}].push_back(&slot);
  ObservedCells out;
  for (auto& [lr, slots] : by_lane_reg) {
    Cell c = observed_cell(lr, slots, repeats, before ? &old : nullptr, out.changed);
    out.one_box_each = out.one_box_each && c.boxes.size() == 1 && c.boxes[0].plain();
    out.cells.push_back(std::move(c));
  }
  return out;
}

std::string box_text(const Box& b) {
  if (b.dir == Dir::Across) return fmt::format("{},{}", b.a->row, span(b.a->col, b.b->col));
  if (b.dir == Dir::Down) return fmt::format("{},{}", span(b.a->row, b.b->row), b.a->col);
  return element(*b.a);
}

// Columns: a register each, as wide as its widest label where every register is one box, else a
// part each, 44 px ("15,15" and, in a diff, what it held before). A lane's row: 20 px, 36 where a
// part changed (two lines: what it holds, what it held).
struct ObservedGrid {
  static constexpr int kPart = 44, kLeft = 44, kTop = 38;
  static constexpr int kBase = 14;  // a row's text baseline, from its top
  std::vector<int> row_h, row_y;    // each lane's height and top (row_y.back(): the bottom)
  int part_w = kPart, col_w = kPart;
};

ObservedGrid observed_grid(const ObservedLayout& now, const ObservedCells& oc) {
  ObservedGrid g{.row_h = std::vector<int>(static_cast<std::size_t>(now.lanes), 20),
                 .row_y = std::vector<int>(static_cast<std::size_t>(now.lanes) + 1, ObservedGrid::kTop),
                 .part_w = ObservedGrid::kPart,
                 .col_w = ObservedGrid::kPart * now.parts};
  for (auto const& c : oc.cells)
    if (c.rank() == 2) g.row_h[static_cast<std::size_t>(c.lane)] = 36;
  for (std::size_t l = 0; l < g.row_h.size(); ++l) g.row_y[l + 1] = g.row_y[l] + g.row_h[l];
  if (oc.one_box_each) {
    g.part_w = 0, g.col_w = ObservedGrid::kPart;
    for (auto const& c : oc.cells) g.col_w = std::max(g.col_w, text_width(box_text(c.boxes[0])) + 10);
  }
  return g;
}

// Axes: registers across the top, lanes down the side.
void draw_observed_axes(pugi::xml_node s, const ObservedLayout& now, const ObservedGrid& grid) {
  constexpr int kLeft = ObservedGrid::kLeft;
  label(s, kLeft + now.registers * grid.col_w / 2, 13, "register", "ax");
  label(s, kLeft - 6, 31, "lane", "ax end");
  pugi::xml_node regs = group(s, kLeft + grid.col_w / 2, 31);
  for (int r = 0; r < now.registers; ++r) label(regs, r * grid.col_w, 0, fmt::format("r{}", r));
  pugi::xml_node lanes = group(s, kLeft - 6, ObservedGrid::kTop + ObservedGrid::kBase, "end");
  for (int lane = 0; lane < now.lanes; ++lane)
    label(lanes, 0, grid.row_y[static_cast<std::size_t>(lane)] - ObservedGrid::kTop, num(lane));
}

// One cell's boxes in its lane's row: a plain one as a fill, a marked one outlined; a title says
// what each marked box holds (and held).
void draw_observed_cell(pugi::xml_node row, const Cell& c, const ObservedGrid& grid, bool one_box_each,
                        const Repeats& repeats, Fills& fills) {
  const int top = grid.row_y[static_cast<std::size_t>(c.lane)], h = grid.row_h[static_cast<std::size_t>(c.lane)];
  pugi::xml_node g = lr_group(row, c.lane, c.reg);
  std::string title;
  for (auto const& b : c.boxes) {
    const int x = ObservedGrid::kLeft + c.reg * grid.col_w + b.first * grid.part_w;
    const int w = one_box_each ? grid.col_w : (b.last - b.first + 1) * grid.part_w;
    const std::string what = box_text(b);
    if (b.plain()) fills.add(fill(b.a->row), x, top, w, h);
    else
      rect(g, x, -ObservedGrid::kBase, w, h, b.changed ? "changed" : !b.a->known ? "unk" : fill(b.a->row) + " repeat");
    if (b.changed) {
      const std::string was = b.was ? element(*b.was) : "new";
      label(g, x + w / 2, 0, what, "now");
      label(g, x + w / 2, 15, was, b.was ? "was" : "");
      title += fmt::format("{}part {} = ({}), was {}", title.empty() ? "" : "; ", b.first, what,
                           b.was ? "(" + was + ")" : "absent");
    } else {
      label(g, x + w / 2, 0, what);
      if (b.repeat)
        title += fmt::format("{}part {} = ({}), held {} times", title.empty() ? "" : "; ", b.first, what,
                             repeats.holders.at({b.a->row, b.a->col}));
    }
  }
  if (!title.empty()) el(g, "title", {}, fmt::format("lane {}, register {}: {}", c.lane, c.reg, title));
}

// What the marks mean, under the figure.
std::vector<std::string> observed_key(const ObservedLayout& now, const Repeats& repeats, bool diff, int changed) {
  std::vector<std::string> key;
  if (now.parts > 1)
    key.push_back("A cell: the elements (row,col) a register holds, its low part first; 0,8–9 is row 0, columns 8 "
                  "and 9.");
  if (repeats.marked)
    key.push_back(
        fmt::format("Red outline: a part holding one of the {} elements (of {}) that more than one "
                    "register holds.",
                    repeats.repeated, repeats.holders.size()));
  else if (repeats.repeated > 0)
    key.push_back(repeats.least == repeats.most
                      ? fmt::format("Every element is held by {} registers, so none is outlined.", repeats.most)
                      : fmt::format("Every element is held by {} to {} registers, so none is outlined.", repeats.least,
                                    repeats.most));
  if (diff)
    key.push_back(changed ? fmt::format("Purple: the {} register part{} whose element changed; under each, struck "
                                        "through, what it held before.",
                                        changed, changed == 1 ? "" : "s")
                          : std::string("No register part changed."));
  return key;
}

}  // namespace

void draw_observed_layout(pugi::xml_node parent, const ObservedLayout& now, const ObservedLayout* before) {
  const Repeats repeats = count_repeats(now);
  const ObservedCells oc = observed_cells(now, before, repeats);
  const ObservedGrid grid = observed_grid(now, oc);
  pugi::xml_node s = svg(parent, before ? "lay obs diff" : "lay obs",
                         ObservedGrid::kLeft + now.registers * grid.col_w + 2, grid.row_y.back() + 2);
  pugi::xml_node background = s.append_child("g");
  Fills fills;
  draw_observed_axes(s, now, grid);
  // Plain cells first, then those with a repeat, then the changed ones: a marked box's outline is drawn
  // over its neighbours', never under them.
  for (int rank = 0; rank < 3; ++rank) {
    pugi::xml_node row;
    int row_lane = -1;
    for (auto const& c : oc.cells) {
      if (c.rank() != rank) continue;
      if (c.lane != row_lane)
        row = group(s, 0, grid.row_y[static_cast<std::size_t>(c.lane)] + ObservedGrid::kBase), row_lane = c.lane;
      draw_observed_cell(row, c, grid, oc.one_box_each, repeats, fills);
    }
  }
  fills.draw(background);
  const std::vector<std::string> key = observed_key(now, repeats, before != nullptr, oc.changed);
  if (!key.empty()) el(parent, "p", {{"class", "key"}}, fmt::format("{}", fmt::join(key, " ")));
}

SpecLayouts spec_layouts(const SpecSet& specs) { return {.kinds = kind_figures(specs)}; }

}  // namespace ptxcts

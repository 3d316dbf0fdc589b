#include "kinds/mma/mma_layout.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

namespace ptxcts {
namespace {

std::string resolve(const Instance& inst, const AxisOrFixed& s) { return s.axis.empty() ? s.fixed : inst.option(s.axis).text; }

// The laneid-dependent names of the block (groupID, threadID_in_group), bound for one lane.
Bindings lane_bindings(const Instance& inst, const MmaSpec& spec, int lane) {
  Bindings b = inst.bindings();
  b.set("laneid", lane);
  for (auto const& [name, f] : spec.let) b.set(name, f.eval(b));
  return b;
}

const MmaLayout& layout_of(const Instance& inst, const MmaSpec& spec, const MmaOperand& o) {
  const MmaOperand& owner = o.layout_of.empty() ? o : spec.c;
  // d with c's layouts chooses among them by its own type where c's are chosen by c's type
  const std::string& by = owner.layout_by;
  if (by.empty()) return owner.layouts.at("");
  const std::string value = &o != &owner && by == spec.c.element.axis && !o.element.axis.empty()
                                ? inst.option(o.element.axis).text
                                : inst.option(by).text;
  auto it = owner.layouts.find(value);
  if (it == owner.layouts.end())
    throw LayoutError(fmt::format("{}: no layout of operand {} for '{}'", inst.id(), &o == &spec.d ? "d" : "c", value));
  return it->second;
}

std::string element_name(const std::string& op, int e) { return fmt::format("{}{}", op, e); }

// Every (computation, row, col) of the operand's matrices exactly once over the warp.
void check_places_each_once(const Instance& inst, const MmaOperandLayout& o, int computations) {
  std::map<std::tuple<int, int, int>, std::pair<int, int>> seen;  // place -> (lane, element)
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < o.elements(); ++e) {
      const ElementPos& p = o.of(lane, e);
      if (p.matrix < 0 || p.matrix >= computations || p.row < 0 || p.row >= o.rows || p.col < 0 || p.col >= o.cols)
        throw LayoutError(fmt::format(
            "{}: the layout of {} ({}) puts lane {} element {} at row {}, col {}, outside the {}x{} matrix", inst.id(),
            o.name, o.source, lane, element_name(o.name, e), p.row, p.col, o.rows, o.cols));
      auto [it, fresh] = seen.emplace(std::tuple{p.matrix, p.row, p.col}, std::pair{lane, e});
      if (!fresh)
        throw LayoutError(fmt::format("{}: the layout of {} ({}) puts lane {} element {} and lane {} element {} at the "
                                      "same place: row {}, col {}{}",
                                      inst.id(), o.name, o.source, it->second.first,
                                      element_name(o.name, it->second.second), lane, element_name(o.name, e), p.row,
                                      p.col, computations > 1 ? fmt::format(" of computation {}", p.matrix + 1) : ""));
    }
  if (seen.size() != static_cast<std::size_t>(computations * o.rows * o.cols))
    throw LayoutError(fmt::format("{}: the layout of {} ({}) gives {} of the {} elements of its {}x{} matri{}",
                                  inst.id(), o.name, o.source, seen.size(), computations * o.rows * o.cols, o.rows,
                                  o.cols, computations > 1 ? "ces" : "x"));
}

MmaOperandLayout operand_layout(const Instance& inst, const MmaSpec& spec, const MmaOperand& o, const char* name,
                                int rows, int cols) {
  MmaOperandLayout out;
  out.name = name;
  out.format = find_element_format(resolve(inst, o.element));
  out.registers = static_cast<int>(o.registers.eval(inst.bindings()));
  out.wide = out.format->bits == 64;
  out.container_bits = o.container_bits ? o.container_bits : out.format->bits;
  out.shift = o.container_shift.empty() ? 0 : static_cast<int>(o.container_shift.eval(inst.bindings()));
  out.per_register = (out.wide ? 64 : 32) / out.container_bits;
  out.rows = rows;
  out.cols = cols;
  const MmaLayout& layout = layout_of(inst, spec, o);
  out.source = layout.source;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    Bindings b = lane_bindings(inst, spec, lane);
    const int computation = spec.computation.empty() ? 0 : static_cast<int>(spec.computation.eval(b));
    for (int e = 0; e < out.elements(); ++e) {
      b.set("i", e);
      out.at.push_back({.matrix = computation,
                        .row = static_cast<int>(layout.row.formula.eval(b)),
                        .col = static_cast<int>(layout.col.formula.eval(b))});
    }
  }
  return out;
}

}  // namespace

MmaLayouts compute_mma_layouts(const Instance& inst) {
  const MmaSpec& spec = *inst.variant().semantics_as<MmaSpec>();
  MmaLayouts x;
  x.m = spec.m;
  x.n = spec.n;
  x.k = spec.k;
  x.computations = spec.computations;
  // mma.sp: A's operand holds the non-zero half of each row (its matrix m x k/2)
  x.a = operand_layout(inst, spec, spec.a, "a", spec.m, spec.sparse.chunk ? spec.k / 2 : spec.k);
  x.b = operand_layout(inst, spec, spec.b, "b", spec.k, spec.n);
  x.c = operand_layout(inst, spec, spec.c, "c", spec.m, spec.n);
  x.d = operand_layout(inst, spec, spec.d, "d", spec.m, spec.n);
  for (const MmaOperandLayout* o : {&x.a, &x.b, &x.c, &x.d}) check_places_each_once(inst, *o, x.computations);
  return x;
}

}  // namespace ptxcts

#include "spec/layout.hpp"

#include <fmt/format.h>

namespace ptxcts {
namespace {

// The layout's sizes: registers, elements, matrices; every register element of the warp in whole matrices.
Layout layout_shape(const Instance& inst) {
  const Variant& v = inst.variant();
  Layout L;
  L.registers = inst.registers();
  L.elements_per_register = v.elements_per_register();
  L.rows = v.rows;
  L.cols = v.cols;
  L.element_bits = v.element_bits;
  L.memory_bits = v.memory_element_bits();
  L.widen_signed = v.widen_signed;
  L.row_bytes = v.row_bytes();
  if (L.registers < 1 || L.registers > 16)
    throw LayoutError(fmt::format("{}: 'registers' gives {}, expected 1 to 16", inst.id(), L.registers));
  const int elements = kWarpLanes * L.registers * L.elements_per_register;
  if (elements % (v.rows * v.cols) != 0)
    throw LayoutError(fmt::format("{}: {} register elements per warp do not fill whole {}x{} matrices", inst.id(),
                                  elements, v.rows, v.cols));
  L.matrices = elements / (v.rows * v.cols);
  L.active.assign(kWarpLanes, false);
  L.lane_row.assign(kWarpLanes, {});
  return L;
}

// Which lane supplies which row address: each row of each matrix by exactly one active lane.
void address_rows(const Instance& inst, Layout& L, Bindings& b) {
  const Variant& v = inst.variant();
  L.row_lane.assign(static_cast<std::size_t>(L.matrices * v.rows), -1);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    b.set("lane", lane);
    if (!v.address_lanes.active.eval(b)) continue;
    int m = static_cast<int>(v.address_lanes.matrix.eval(b));
    int row = static_cast<int>(v.address_lanes.row.eval(b));
    if (m < 0 || m >= L.matrices || row < 0 || row >= v.rows)
      throw LayoutError(fmt::format("{}: lane {} supplies row {} of matrix {}, outside {} matrices of {} rows",
                                    inst.id(), lane, row, m, L.matrices, v.rows));
    int& owner = L.row_lane[static_cast<std::size_t>(m * v.rows + row)];
    if (owner >= 0)
      throw LayoutError(fmt::format("{}: lanes {} and {} both supply row {} of matrix {}", inst.id(), owner, lane, row, m));
    owner = lane;
    L.active[static_cast<std::size_t>(lane)] = true;
    L.lane_row[static_cast<std::size_t>(lane)] = {.matrix = m, .row = row, .col = 0};
  }
  for (int k = 0; k < L.matrices * v.rows; ++k)
    if (L.row_lane[static_cast<std::size_t>(k)] < 0)
      throw LayoutError(fmt::format("{}: no lane supplies row {} of matrix {}", inst.id(), k % v.rows, k / v.rows));
}

// Where one (lane, register, element) sits by `f`, inside the matrices.
ElementPos position_of(const Instance& inst, const Layout& L, const FragmentLayout& f, const Bindings& b,
                       const char* which, int lane, int r, int i) {
  const Variant& v = inst.variant();
  ElementPos p{.matrix = static_cast<int>(f.matrix.eval(b)),
               .row = static_cast<int>(f.row.eval(b)),
               .col = static_cast<int>(f.col.eval(b))};
  if (p.matrix < 0 || p.matrix >= L.matrices || p.row < 0 || p.row >= v.rows || p.col < 0 || p.col >= v.cols)
    throw LayoutError(
        fmt::format("{}: {}lane {} register {} element {} maps to matrix {} row {} col {}, outside {} matrices of {}x{}",
                    inst.id(), which, lane, r, i, p.matrix, p.row, p.col, L.matrices, v.rows, v.cols));
  return p;
}

// Every (lane, register, element) of a fragment layout, each matrix element exactly once.
std::vector<ElementPos> fragment_positions(const Instance& inst, const Layout& L, Bindings& b,
                                           const FragmentLayout& f, const char* which) {
  const Variant& v = inst.variant();
  const int elements = kWarpLanes * L.registers * L.elements_per_register;
  const int per_lane = L.registers * L.elements_per_register;
  std::vector<int> seen(static_cast<std::size_t>(elements), -1);
  std::vector<ElementPos> out(static_cast<std::size_t>(elements));
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    b.set("lane", lane);
    for (int r = 0; r < L.registers; ++r) {
      b.set("r", r);
      for (int i = 0; i < L.elements_per_register; ++i) {
        b.set("i", i);
        const ElementPos p = position_of(inst, L, f, b, which, lane, r, i);
        const int key = (p.matrix * v.rows + p.row) * v.cols + p.col;
        const int flat = (lane * L.registers + r) * L.elements_per_register + i;
        if (const int other = seen[static_cast<std::size_t>(key)]; other >= 0)
          throw LayoutError(fmt::format(
              "{}: {}lane {} register {} element {} and lane {} register {} element {} both map to "
              "matrix {} row {} col {}",
              inst.id(), which, other / per_lane, (other % per_lane) / L.elements_per_register,
              other % L.elements_per_register, lane, r, i, p.matrix, p.row, p.col));
        seen[static_cast<std::size_t>(key)] = flat;
        out[static_cast<std::size_t>(flat)] = p;
      }
    }
  }
  return out;
}

}  // namespace

Layout compute_layout(const Instance& inst) {
  const Variant& v = inst.variant();
  if (!v.has_layout) throw LayoutError(fmt::format("{}: the spec gives no layout for this form", inst.id()));
  Layout L = layout_shape(inst);
  Bindings b = inst.bindings();
  if (!v.addressed) {  // a move: the source's layout and the result's, both in source coordinates
    L.source = fragment_positions(inst, L, b, v.fragment, "source: ");
    L.element = fragment_positions(inst, L, b, v.fragments.at("result"), "result: ");
    return L;
  }
  address_rows(inst, L, b);
  L.element = fragment_positions(inst, L, b, inst.layout(), "");
  return L;
}

}  // namespace ptxcts

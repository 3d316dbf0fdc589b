#include "spec/spec_wmma.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "spec/element_format.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

// A layout: a qualifier whose values are .row and .col, or one of them.
AxisOrFixed read_layout_source(const YamlReader& r, const Variant& v) {
  std::string text = r.str();
  if (const QualifierAxis* a = find_axis(v, text)) {
    for (auto const& o : a->options)
      if (o.text != ".row" && o.text != ".col")
        throw SpecError(
            o.where, fmt::format("value '{}' of qualifier '{}' is not a layout; expected .row or .col", o.text, text));
    return {.axis = text, .fixed = ""};
  }
  if (text != ".row" && text != ".col")
    r.fail(fmt::format("expected a qualifier of '{}', .row or .col but found '{}'", v.name, text));
  return {.axis = "", .fixed = text};
}

}  // namespace

void read_wmma_semantics(YamlReader r, Variant& v, const std::set<std::string>& bound) {
  if (v.operation != Operation::WmmaMma) {
    r.expect_map({"matrix", "rows", "cols", "element", "layout"});
    WmmaMatrix m;
    m.matrix = r.at("matrix").str();
    const bool load = v.operation == Operation::WmmaLoad;
    if (load ? (m.matrix != "a" && m.matrix != "b" && m.matrix != "c") : m.matrix != "d")
      r.at("matrix").fail(fmt::format("expected matrix {} but found '{}'",
                                      load ? "a, b or c (wmma.load)" : "d (wmma.store)", m.matrix));
    m.rows = read_formula(r.at("rows"), bound, "rows");
    m.cols = read_formula(r.at("cols"), bound, "cols");
    m.element = read_element(r.at("element"), v);
    m.layout = read_layout_source(r.at("layout"), v);
    v.wmma_matrix = std::move(m);
    return;
  }
  r.expect_map({"a", "b", "c", "d", "saturate", "rounding", "product"});
  WmmaMma mma;
  auto operand = [&](const char* name, bool with_layout) {
    YamlReader o = r.at(name);
    if (with_layout) o.expect_map({"element", "layout", "registers"});
    else o.expect_map({"element", "registers"});
    WmmaOperand out;
    out.element = read_element(o.at("element"), v);
    if (with_layout) out.layout = read_layout_source(o.at("layout"), v);
    out.registers = read_formula(o.at("registers"), bound, fmt::format("the registers of operand {}", name));
    return out;
  };
  mma.a = operand("a", true);
  mma.b = operand("b", true);
  mma.c = operand("c", false);
  mma.d = operand("d", false);
  if (r.has("saturate")) mma.saturate = read_axis_name(r.at("saturate"), v, {"", ".satfinite"});
  if (r.has("rounding")) mma.rounding = read_axis_name(r.at("rounding"), v, {"", ".rn", ".rz", ".rm", ".rp"});
  mma.product.fixed = "multiply";
  if (r.has("product")) {
    mma.product.fixed.clear();
    mma.product.axis = read_axis_name(r.at("product"), v, {".xor.popc", ".and.popc"});
  }
  v.wmma_mma = std::move(mma);
}

}  // namespace ptxcts

#include "kinds/wmma/wmma_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

#include "kinds/wmma/wmma_axes.hpp"
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

// wmma.load / wmma.store's block.
std::shared_ptr<const WmmaMatrix> read_wmma_matrix(YamlReader r, const Variant& v, const std::set<std::string>& bound) {
  r.expect_map({"matrix", "rows", "cols", "element", "layout"});
  auto m = std::make_shared<WmmaMatrix>();
  m->matrix = r.at("matrix").str();
  const bool load = v.operation == kWmmaLoad;
  if (load ? (m->matrix != "a" && m->matrix != "b" && m->matrix != "c") : m->matrix != "d")
    r.at("matrix").fail(
        fmt::format("expected matrix {} but found '{}'", load ? "a, b or c (wmma.load)" : "d (wmma.store)", m->matrix));
  m->rows = read_formula(r.at("rows"), bound, "rows");
  m->cols = read_formula(r.at("cols"), bound, "cols");
  m->element = read_element(r.at("element"), v);
  m->layout = read_layout_source(r.at("layout"), v);
  return m;
}

// wmma.mma's block.
std::shared_ptr<const WmmaMma> read_wmma_mma(YamlReader r, const Variant& v, const std::set<std::string>& bound) {
  r.expect_map({"a", "b", "c", "d", "saturate", "rounding", "product"});
  auto mma = std::make_shared<WmmaMma>();
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
  mma->a = operand("a", true);
  mma->b = operand("b", true);
  mma->c = operand("c", false);
  mma->d = operand("d", false);
  if (r.has("saturate")) mma->saturate = read_axis_name(r.at("saturate"), v, {"", ".satfinite"});
  if (r.has("rounding")) mma->rounding = read_axis_name(r.at("rounding"), v, {"", ".rn", ".rz", ".rm", ".rp"});
  mma->product.fixed = "multiply";
  if (r.has("product")) {
    mma->product.fixed.clear();
    mma->product.axis = read_axis_name(r.at("product"), v, {".xor.popc", ".and.popc"});
  }
  return mma;
}

// The variant's semantics: its 'wmma' block, not a fragment layout.
std::shared_ptr<const VariantSemantics> read_wmma_semantics(const YamlReader& r, const Variant& v,
                                                            const std::set<std::string>& bound) {
  for (const char* k : {"matrix", "row_alignment", "address_lanes", "fragment", "fragments"})
    if (r.has(k))
      r.at(k).fail(
          fmt::format("a wmma variant has no '{}': its fragments' register layout is unspecified; give 'wmma'", k));
  if (v.operation == kWmmaMmaOperation) return read_wmma_mma(r.at("wmma"), v, bound);
  return read_wmma_matrix(r.at("wmma"), v, bound);
}

// A wmma variant has the qualifiers the wmma planner pairs kernels by (wmma_axes.hpp): without
// one, its kernels would be paired with the wrong forms, or with none.
void check_wmma_paired_axes(const Variant& v, const YamlReader& r) {
  const std::vector<const char*> names = wmma_paired_axes(v.operation);
  for (const char* name : names)
    if (!find_axis(v, name))
      r.at("qualifiers")
          .fail(fmt::format(
              "variant '{}' has no qualifier '{}'; expected a {} variant to have the qualifiers the wmma planner "
              "pairs kernels by: {}",
              v.name, name, v.operation, fmt::join(names, ", ")));
}

// A wmma load or store whose layout is a qualifier takes it from the qualifier the planner pairs
// .row and .col forms by (wmma_axes.hpp). That the 'wmma' block's layout names a qualifier of the
// variant, or .row or .col, is checked as it is read.
void check_wmma_layout_axis(const Variant& v, const YamlReader& r) {
  const WmmaMatrix* m = v.semantics_as<WmmaMatrix>();
  if (!m || m->layout.axis.empty() || m->layout.axis == kWmmaLayoutAxis) return;
  r.at("wmma").at("layout").fail(
      fmt::format("variant '{}' takes its layout from qualifier '{}'; expected qualifier '{}', the one the wmma "
                  "planner pairs .row and .col forms by (or a fixed .row or .col)",
                  v.name, m->layout.axis, kWmmaLayoutAxis));
}

// The planner's contract, after the generic checks.
void check_wmma_variant(const Variant& v, const YamlReader& r) {
  check_wmma_paired_axes(v, r);
  check_wmma_layout_axis(v, r);
}

}  // namespace

const Formula* WmmaMma::operand_registers(std::string_view operand) const {
  const WmmaOperand& o = operand == "d" ? d : operand == "a" ? a : operand == "b" ? b : c;
  return &o.registers;
}

std::vector<KindOperation> wmma_operations() {
  std::vector<KindOperation> out;
  for (const char* name : {kWmmaLoad, kWmmaStore, kWmmaMmaOperation}) {
    const bool mma = name == std::string(kWmmaMmaOperation);
    out.push_back({.name = name,
                   .addressed = !mma,
                   .multiplies = mma,
                   .stride = !mma,
                   .block = "wmma",
                   .read = read_wmma_semantics,
                   .check = check_wmma_variant});
  }
  return out;
}

}  // namespace ptxcts

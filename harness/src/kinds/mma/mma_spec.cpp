#include "kinds/mma/mma_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

// Where line `line`, column `column` of a block scalar's text is in the file (a block scalar's
// text starts on the line after its key).
SourceLocation in_block(const YamlReader& r, int line, std::size_t column) {
  SourceLocation at = r.where();
  // yaml-cpp tags a block scalar (like a quoted one) "!", and marks it at its '|' on the key's line;
  // only a block scalar holds a line break here (a plain scalar's are folded).
  const bool block = r.node().Tag() == "!" && r.str().find('\n') != std::string::npos;
  if (block) {
    at.line += line + 1;
    at.column = at.column + static_cast<int>(column);
  } else {
    at = r.where_in_scalar(column);
  }
  return at;
}

}  // namespace

ManualFormula read_manual(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what) {
  ManualFormula f;
  try {
    f = ManualFormula::parse(r.str());
  } catch (const ManualFormulaError& e) {
    throw SpecError(in_block(r, e.line, e.column), fmt::format("{}: {}", what, e.what()));
  }
  for (auto const& v : f.variables())
    if (!allowed.count(v))
      r.fail(fmt::format("{} uses unknown variable '{}'; expected one of: {}", what, v, fmt::join(allowed, ", ")));
  return f;
}

namespace {

// row or col: the manual's text, or {manual, reading, why} where the printed text cannot be right.
MmaFormula read_mma_formula(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what) {
  MmaFormula f;
  f.where = r.where();
  if (!r.node().IsMap()) {
    f.manual = r.str();
    f.formula = read_manual(r, allowed, what);
    return f;
  }
  YamlReader m = r;
  m.expect_map({"manual", "reading", "why"});
  f.manual = m.at("manual").str();
  f.reading = m.at("reading").str();
  f.why = m.at("why").str();
  if (f.why.empty()) m.at("why").fail("a reading needs 'why': what is wrong with the printed text, on what evidence");
  f.formula = read_manual(m.at("reading"), allowed, what + " (reading)");
  return f;
}

// A layout: source, row and col (an entry of 'layouts', or the operand's own keys).
MmaLayout read_mma_layout(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what,
                          bool own_map) {
  YamlReader l = r;
  if (own_map) l.expect_map({"source", "row", "col"});
  return {.source = l.at("source").str(),
          .row = read_mma_formula(l.at("row"), allowed, what + " row"),
          .col = read_mma_formula(l.at("col"), allowed, what + " col"),
          .where = r.where()};
}

MmaOperand read_operand(const YamlReader& block, const char* name, const Variant& v, const std::set<std::string>& bound,
                        const std::set<std::string>& layout_vars) {
  YamlReader o = block.at(name);
  o.expect_map({"element", "registers", "container_bits", "container_shift", "source", "row", "col", "layout_by",
                "layouts", "layout_of"});
  MmaOperand out;
  out.element = read_element(o.at("element"), v);
  out.registers = read_formula(o.at("registers"), bound, fmt::format("the registers of operand {}", name));
  if (o.has("container_bits")) out.container_bits = static_cast<int>(o.at("container_bits").integer(8, 8));
  if (o.has("container_shift"))
    out.container_shift = read_formula(o.at("container_shift"), bound, fmt::format("operand {}'s container_shift", name));
  const std::string what = fmt::format("{}'s operand {}", v.name, name);
  if (o.has("layout_of")) {
    out.layout_of = o.at("layout_of").str();
    if (std::string(name) != "d" || out.layout_of != "c")
      o.at("layout_of").fail("expected 'layout_of: c' on operand d only (the manual's accumulators C or D)");
    for (const char* k : {"source", "row", "col", "layout_by", "layouts"})
      if (o.has(k)) o.at(k).fail(fmt::format("operand d takes c's layouts ('layout_of'), so no '{}'", k));
    return out;
  }
  if (o.has("layout_by")) {
    for (const char* k : {"source", "row", "col"})
      if (o.has(k)) o.at(k).fail(fmt::format("a layout chosen by a qualifier ('layout_by') goes in 'layouts', not '{}'", k));
    out.layout_by = o.at("layout_by").str();
    const QualifierAxis* axis = find_axis(v, out.layout_by);
    if (!axis) o.at("layout_by").fail(fmt::format("expected a qualifier of '{}' but found '{}'", v.name, out.layout_by));
    for (auto& [k, layout] : o.at("layouts").entries("'layouts'")) {
      const std::string value = k.str();
      if (std::none_of(axis->options.begin(), axis->options.end(), [&](auto const& opt) { return opt.text == value; }))
        k.fail(fmt::format("'{}' is not a value of qualifier '{}'", value, out.layout_by));
      out.layouts[value] = read_mma_layout(layout, layout_vars, fmt::format("{} ({})", what, value), true);
    }
    for (auto const& opt : axis->options)
      if (!out.layouts.count(opt.text))
        o.at("layouts").fail(fmt::format("no layout for value '{}' of qualifier '{}'", opt.text, out.layout_by));
    return out;
  }
  if (o.has("layouts")) o.at("layouts").fail("'layouts' needs 'layout_by' (the qualifier that chooses one)");
  out.layouts[""] = read_mma_layout(o, layout_vars, what, false);
  return out;
}

// mma.sp's 'sparse' block: granularity, the selector and its documented values, the qualifier that
// asks for ordered metadata. The selector's values must cover the four lanes of a group with the
// lanes one value names (9.7.14.6.1: one thread, a thread pair, or all four contribute), each of
// them holding 32 bits of metadata: 16 for each of its group's two rows, or 32 of one row
// ('lane_fields', kinds/mma/mma_sparse.hpp).
MmaSparse read_sparse(YamlReader s, const Variant& v, const std::set<std::string>& bound, int k) {
  s.expect_map({"chunk", "selector", "selectors", "ordered", "lane_fields", "source", "hypothesis"});
  MmaSparse out;
  out.chunk = static_cast<int>(s.at("chunk").integer(2, 8));
  if (out.chunk != 2 && out.chunk != 4 && out.chunk != 8)
    s.at("chunk").fail(fmt::format("expected a chunk of 2 (1:2), 4 (2:4) or 8 (4:8) elements but found {}", out.chunk));
  out.selector = s.at("selector").str();
  if (!bound.count(out.selector))
    s.at("selector").fail(fmt::format("expected a variable a qualifier of '{}' sets (the selector's value)", v.name));
  out.selectors = static_cast<int>(s.at("selectors").integer(1, 4));
  const int threads = k / out.chunk / 4;  // 16 bits of a row per contributing lane: 4 fields
  if (threads < 1 || threads * out.selectors != 4 || k % (out.chunk * 4) != 0)
    s.at("selectors").fail(fmt::format("{} selector values with k = {} in chunks of {} do not share a group's four "
                                       "lanes ({} fields of 4 bits a row, 4 a lane)",
                                       out.selectors, k, out.chunk, k / out.chunk));
  std::set<std::int64_t> values;  // the selector values the variant's qualifiers give
  for (auto const& axis : v.axes)
    for (auto const& o : axis.options)
      for (auto const& [name, value] : o.set)
        if (name == out.selector) values.insert(value);
  if (values.size() != static_cast<std::size_t>(out.selectors) || *values.begin() != 0 ||
      *values.rbegin() != out.selectors - 1)
    s.at("selectors").fail(fmt::format("expected the qualifiers to give each selector value 0 to {} once (each "
                                       "documented value), but they give {}",
                                       out.selectors - 1, fmt::join(values, ", ")));
  out.ordered = read_axis_name(s.at("ordered"), v, {".sp", ".sp::ordered_metadata"});
  const std::string fields = s.at("lane_fields").str();
  if (fields != "two-rows" && fields != "one-row")
    s.at("lane_fields").fail(fmt::format(
        "expected two-rows (4 fields of each of a group's two rows a lane) or one-row (8 fields of one row a "
        "lane) but found '{}'",
        fields));
  out.one_row = fields == "one-row";
  out.source = s.at("source").str();
  out.hypothesis = s.at("hypothesis").str();
  return out;
}

// The 'mma' block.
std::shared_ptr<const MmaSpec> read_mma_spec_block(YamlReader r, const Variant& v, const std::set<std::string>& bound) {
  r.expect_map({"shape", "let", "computations", "a", "b", "c", "d", "saturate", "rounding", "product", "unchecked",
                "sparse"});
  auto block = std::make_shared<MmaSpec>();
  MmaSpec& mma = *block;
  YamlReader shape = r.at("shape");
  shape.expect_map({"m", "n", "k"});
  mma.m = static_cast<int>(shape.at("m").integer(1, 64));
  mma.n = static_cast<int>(shape.at("n").integer(1, 64));
  mma.k = static_cast<int>(shape.at("k").integer(1, 256));
  std::set<std::string> layout_vars = bound;
  layout_vars.insert({"laneid", "i"});
  if (r.has("let"))
    for (auto& [k, f] : r.at("let").entries("'let'")) {
      const std::string name = read_identifier(k, "a name the formulas use");
      mma.let.emplace_back(name, read_manual(f, layout_vars, fmt::format("'{}' of {}", name, v.name)));
      layout_vars.insert(name);
    }
  if (r.has("computations")) {
    YamlReader c = r.at("computations");
    c.expect_map({"count", "of_lane", "source"});
    mma.computations = static_cast<int>(c.at("count").integer(1, 8));
    mma.computation = read_manual(c.at("of_lane"), {"laneid"}, "the computation a lane takes part in");
    mma.computations_source = c.at("source").str();
  }
  mma.a = read_operand(r, "a", v, bound, layout_vars);
  mma.b = read_operand(r, "b", v, bound, layout_vars);
  mma.c = read_operand(r, "c", v, bound, layout_vars);
  mma.d = read_operand(r, "d", v, bound, layout_vars);
  for (const char* name : {"a", "b", "c"})
    if (!(name == std::string("a") ? mma.a : name == std::string("b") ? mma.b : mma.c).layout_of.empty())
      r.at(name).fail("only operand d may take another operand's layouts");
  if (r.has("saturate")) mma.saturate = read_axis_name(r.at("saturate"), v, {"", ".satfinite"});
  if (r.has("rounding")) mma.rounding = read_axis_name(r.at("rounding"), v, {"", ".rn", ".rz", ".rm", ".rp"});
  if (r.has("unchecked")) {
    mma.why_unchecked = r.at("unchecked").str();
    if (mma.why_unchecked.empty()) r.at("unchecked").fail("expected why no result of the form can be checked");
  }
  mma.product.fixed = "multiply";
  if (r.has("product")) {
    mma.product.fixed.clear();
    mma.product.axis = read_axis_name(r.at("product"), v, {".xor.popc", ".and.popc"});
  }
  if (r.has("sparse")) mma.sparse = read_sparse(r.at("sparse"), v, bound, mma.k);
  return block;
}

// The variant's semantics: its 'mma' block (none: the variant is given by syntax and requirements
// only), its fragments lane by lane, not a fragment layout.
std::shared_ptr<const VariantSemantics> read_mma_semantics(const YamlReader& r, const Variant& v,
                                                           const std::set<std::string>& bound) {
  for (const char* k : {"matrix", "row_alignment", "address_lanes", "fragment", "fragments"})
    if (r.has(k)) r.at(k).fail(fmt::format("an mma variant has no '{}': its fragments are given in 'mma'", k));
  if (!r.has("mma")) return nullptr;
  return read_mma_spec_block(r.at("mma"), v, bound);
}

}  // namespace

const Formula* MmaSpec::operand_registers(std::string_view operand) const {
  const MmaOperand& o = operand == "d" ? d : operand == "a" ? a : operand == "b" ? b : c;
  return &o.registers;
}

std::vector<KindOperation> mma_operations() {
  return {{.name = kMmaOperation,
           .addressed = false,
           .multiplies = true,
           .stride = false,
           .metadata = true,
           .block = "mma",
           .read = read_mma_semantics,
           .check = {}}};
}

}  // namespace ptxcts

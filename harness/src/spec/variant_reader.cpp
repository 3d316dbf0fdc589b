#include "spec/variant_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "spec/kind_blocks.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"
#include "spec/spec_limits.hpp"
#include "spec/variant_checks.hpp"

namespace ptxcts {
namespace {

const std::set<std::string> kFragmentBuiltins = {"lane", "r", "i"};
const std::set<std::string> kAddressBuiltins = {"lane"};

FragmentLayout read_layout(YamlReader r, const std::set<std::string>& vars, const std::string& what) {
  r.expect_map({"matrix", "row", "col"});
  return {.matrix = read_formula(r.at("matrix"), vars, what + " matrix"),
          .row = read_formula(r.at("row"), vars, what + " row"),
          .col = read_formula(r.at("col"), vars, what + " col")};
}

// 'name': starts with its family's name and a dot.
std::string read_variant_name(const YamlReader& r, const std::string& family) {
  std::string name = read_identifier(r.at("name"), "a variant name");
  if (name.rfind(family + ".", 0) != 0)
    r.at("name").fail(fmt::format("variant name '{}' must start with its family '{}.'", name, family));
  return name;
}

// One value of a qualifier.
QualifierOption read_option(YamlReader r, const TargetCatalog& targets) {
  r.expect_map({"text", "set", "space", "fragment", "requires"});
  QualifierOption o;
  o.where = r.where();
  o.text = r.at("text").str();
  if (o.text == ", {stride}") {  // wmma: the optional stride operand, written as a qualifier value
  } else if (is_metadata_operand(o.text)) {  // mma.sp: the metadata operand and the selector
  } else if (!o.text.empty()) {
    bool ok = o.text[0] == '.' && o.text.size() > 1;
    for (char c : o.text) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == ':' || c == '_');
    if (!ok)
      r.at("text").fail(fmt::format(
          "expected a qualifier like '.x1' (a dot, then letters, digits, '_' or '::') or \"\" but found '{}'", o.text));
  }
  if (r.has("set"))
    for (auto& [k, v] : r.at("set").entries("'set' of a qualifier value")) {
      std::string name = read_identifier(k, "a variable name");
      if (kFragmentBuiltins.count(name)) k.fail(fmt::format("'{}' is a built-in variable and cannot be set", name));
      o.set.emplace_back(name, v.integer(0, 1024));
    }
  if (r.has("space")) {
    o.space = r.at("space").str();
    if (o.space != "generic" && o.space != "shared" && o.space != "global")
      r.at("space").fail(fmt::format("unknown state space '{}'; expected generic, shared or global", o.space));
  }
  if (r.has("fragment")) o.fragment = read_identifier(r.at("fragment"), "a fragment layout name");
  if (r.has("requires")) {
    o.requires_ = read_requirement(r.at("requires"), targets, false);
    if (!o.requires_.ptx && !o.requires_.targets)
      r.at("requires").fail("a qualifier value's 'requires' needs 'ptx' or 'targets'");
  }
  return o;
}

// 'qualifiers': each axis and its values, in the order written ({} for none).
std::vector<QualifierAxis> read_qualifiers(const YamlReader& r, const TargetCatalog& targets) {
  std::vector<QualifierAxis> axes;
  if (r.node().IsMap() && r.node().size() == 0) return axes;
  for (auto& [k, opts] : r.entries("'qualifiers'")) {
    QualifierAxis axis;
    axis.name = read_identifier(k, "a qualifier name");
    if (axis.name == "regs" || axis.name == "addr" || axis.name == "dst" || axis.name == "src" ||
        axis.name == "address_width" || axis.name == "a" || axis.name == "b" || axis.name == "c" || axis.name == "d")
      k.fail(fmt::format("'{}' is reserved and cannot name a qualifier", axis.name));
    for (auto const& item : opts.items(fmt::format("values of qualifier '{}'", axis.name)))
      axis.options.push_back(read_option(item, targets));
    if (axis.options.empty()) opts.fail(fmt::format("qualifier '{}' needs at least one value", axis.name));
    axes.push_back(std::move(axis));
  }
  return axes;
}

// The variables that the qualifiers' values set: what formulas may use.
std::set<std::string> bound_variables(const Variant& v) {
  std::set<std::string> bound;
  for (auto const& a : v.axes)
    for (auto const& o : a.options)
      for (auto const& [n, val] : o.set) bound.insert(n);
  return bound;
}

// 'address_widths': 32 and/or 64; none for an operation without an address (a move, a multiply).
std::vector<int> read_address_widths(const YamlReader& r, const Variant& v) {
  if (!v.addressed && r.has("address_widths"))
    r.at("address_widths")
        .fail(fmt::format("{} has no address: drop 'address_widths'",
                          v.multiplies() ? fmt::format("a {} variant", v.operation) : "a move"));
  std::vector<int> widths;
  if (!v.addressed) return widths;
  for (auto const& w : r.at("address_widths").items("'address_widths'")) {
    int width = static_cast<int>(w.integer(32, 64));
    if (width != 32 && width != 64) w.fail(fmt::format("expected an address width of 32 or 64 but found {}", width));
    if (std::count(widths.begin(), widths.end(), width)) w.fail(fmt::format("duplicate address width {}", width));
    widths.push_back(width);
  }
  if (widths.empty()) r.at("address_widths").fail("expected at least one address width");
  return widths;
}

// 'exclude': the combinations of qualifier values (and address widths) that are no instruction.
// That each names a qualifier and a value of it is checked by variant_checks.
std::vector<Exclusion> read_exclusions(const YamlReader& r) {
  std::vector<Exclusion> out;
  if (!r.has("exclude")) return out;
  for (auto item : r.at("exclude").items("'exclude'")) {
    item.expect_map({"when", "reason"});
    Exclusion e;
    e.reason = item.at("reason").str();
    if (item.at("when").node().IsMap() && item.at("when").node().size() == 0)
      item.at("when").fail("an exclusion needs at least one condition in 'when'");
    for (auto& [k, val] : item.at("when").entries("'when' of an exclusion")) {
      std::string axis = k.str();
      std::string text = val.str();
      if (axis == "address_width" && text != "32" && text != "64")
        val.fail(fmt::format("expected address_width 32 or 64 but found '{}'", text));
      e.when[axis] = text;
    }
    out.push_back(std::move(e));
  }
  return out;
}

// The layout's 'matrix': rows, columns and element width; a load's widening and row padding.
void read_layout_matrix(YamlReader m, Variant& v) {
  m.expect_map({"rows", "cols", "element_bits", "memory_bits", "widen", "row_bytes"});
  v.rows = static_cast<int>(m.at("rows").integer(1, 64));
  v.cols = static_cast<int>(m.at("cols").integer(1, 64));
  v.element_bits = static_cast<int>(m.at("element_bits").integer(1, 32));
  if (32 % v.element_bits != 0 || v.element_bits < 8)
    m.at("element_bits")
        .fail(fmt::format(
            "expected element_bits of 8, 16 or 32 (a whole number of bytes dividing a 32-bit register) but found {}",
            v.element_bits));
  if (m.has("memory_bits")) {
    if (v.operation != "load") m.at("memory_bits").fail("'memory_bits' (a widening load) is only for loads");
    v.memory_bits = static_cast<int>(m.at("memory_bits").integer(1, 32));
    if (v.memory_bits >= v.element_bits || (8 % v.memory_bits != 0 && v.memory_bits != 6))
      m.at("memory_bits")
          .fail(fmt::format("expected memory_bits of 1, 2, 4 or 6, narrower than element_bits {}, but found {}",
                            v.element_bits, v.memory_bits));
    if (!m.has("widen")) m.fail("a widening load ('memory_bits') needs 'widen: sign' or 'widen: zero'");
    const std::string w = m.at("widen").str();
    if (w != "sign" && w != "zero") m.at("widen").fail(fmt::format("expected 'sign' or 'zero' but found '{}'", w));
    v.widen_signed = w == "sign";
  } else if (m.has("widen")) {
    m.at("widen").fail("'widen' needs 'memory_bits' (the element's width in memory)");
  }
  if (m.has("row_bytes")) {  // padding after the elements (ldmatrix .b8x16.b6x16_p32)
    if (v.operation != "load") m.at("row_bytes").fail("'row_bytes' (a row padded past its elements) is only for loads");
    v.padded_row_bytes = static_cast<int>(m.at("row_bytes").integer(1, 4096));
    if (v.padded_row_bytes <= v.element_row_bytes())
      m.at("row_bytes")
          .fail(fmt::format("expected row_bytes above the {} bytes of a row's elements but found {}",
                            v.element_row_bytes(), v.padded_row_bytes));
  }
  if (v.row_bytes() % 4 != 0)
    m.fail(fmt::format("a row of {} bytes is not a whole number of 32-bit words", v.row_bytes()));
}

// The layout's addresses (not a move's): the rows' alignment and which lanes give which row's address.
void read_layout_addresses(const YamlReader& r, Variant& v, const std::set<std::string>& bound) {
  std::set<std::string> addr_vars = bound;
  addr_vars.insert(kAddressBuiltins.begin(), kAddressBuiltins.end());
  v.row_alignment = static_cast<int>(r.at("row_alignment").integer(1, 4096));
  if ((v.row_alignment & (v.row_alignment - 1)) != 0)
    r.at("row_alignment").fail(fmt::format("expected a power of two but found {}", v.row_alignment));
  YamlReader al = r.at("address_lanes");
  al.expect_map({"active", "matrix", "row"});
  v.address_lanes = {.active = read_formula(al.at("active"), addr_vars, "address_lanes active"),
                     .matrix = read_formula(al.at("matrix"), addr_vars, "address_lanes matrix"),
                     .row = read_formula(al.at("row"), addr_vars, "address_lanes row")};
}

// The layout keys of a load, store or move: all of them, or none (a form specified by syntax and
// requirements only). A move has no addresses: its layout is the source fragment and the 'result'
// fragment.
void read_fragment_layout(const YamlReader& r, Variant& v, const std::set<std::string>& bound) {
  const bool move = !v.addressed;
  const std::vector<const char*> layout_keys =
      move ? std::vector<const char*>{"matrix", "fragment", "fragments"}
           : std::vector<const char*>{"matrix", "row_alignment", "address_lanes", "fragment"};
  const std::string key_list = move ? "matrix, fragment, fragments" : "matrix, row_alignment, address_lanes, fragment";
  int present = 0;
  for (const char* k : layout_keys) present += r.has(k);
  if (present != 0 && present != static_cast<int>(layout_keys.size()))
    for (const char* k : layout_keys)
      if (!r.has(k))
        r.fail(fmt::format("variant '{}' gives part of a layout; it also needs '{}' (or none of {})", v.name, k,
                           key_list));
  if (move && (r.has("row_alignment") || r.has("address_lanes")))
    r.fail(fmt::format("variant '{}' is a move: it has no addresses, so no row_alignment or address_lanes", v.name));
  if (!present && r.has("fragments"))
    r.at("fragments").fail("'fragments' needs the rest of a layout (" + key_list + ")");
  v.has_layout = present == static_cast<int>(layout_keys.size());
  if (!v.has_layout) return;
  read_layout_matrix(r.at("matrix"), v);
  std::set<std::string> frag_vars = bound;
  frag_vars.insert(kFragmentBuiltins.begin(), kFragmentBuiltins.end());
  if (!move) read_layout_addresses(r, v, bound);
  v.fragment = read_layout(r.at("fragment"), frag_vars, "fragment");
  if (r.has("fragments"))
    for (auto& [k, layout] : r.at("fragments").entries("'fragments'")) {
      std::string name = read_identifier(k, "a fragment layout name");
      v.fragments[name] = read_layout(layout, frag_vars, "fragment '" + name + "'");
    }
  if (move && !v.fragments.count("result"))
    r.at("fragments").fail("a move needs the layout of its destination as fragments: {result: ...}");
}

// The keys of the variants' semantics blocks of the kinds' own, each once, in the kinds' order.
std::vector<std::string> semantics_blocks() {
  std::vector<std::string> out;
  for (auto const& op : kind_operations())
    if (!op.block.empty() && std::find(out.begin(), out.end(), op.block) == out.end()) out.push_back(op.block);
  return out;
}

// A block of another operation's: "'B' belongs to O1, O2 and O3 variants only".
void refuse_foreign_blocks(const YamlReader& r, const KindOperation& op) {
  for (auto const& block : semantics_blocks()) {
    if (block == op.block || !r.has(block.c_str())) continue;
    std::vector<std::string> owners;
    for (auto const& o : kind_operations())
      if (o.block == block) owners.push_back(o.name);
    const std::string list =
        owners.size() == 1 ? owners.front()
                           : fmt::format("{} and {}", fmt::join(owners.begin(), owners.end() - 1, ", "), owners.back());
    r.at(block.c_str()).fail(fmt::format("'{}' belongs to {} variants only{}", block, list,
                                 owners.size() == 1 ? fmt::format(" (operation: {})", list) : ""));
  }
}

// The semantics: a block of the operation's kind (read in the kind's room), else a fragment layout.
void read_semantics(const YamlReader& r, Variant& v, const KindOperation& op, const std::set<std::string>& bound) {
  refuse_foreign_blocks(r, op);
  if (op.block.empty()) return read_fragment_layout(r, v, bound);
  v.semantics = op.read(r, v, bound);
}

}  // namespace

bool is_metadata_operand(const std::string& text) {
  return text.size() == 8 && text.starts_with(", {e}, ") && text[7] >= '0' && text[7] <= '3';
}

// 'operation': one of the kinds' (spec/kind_blocks.hpp).
const KindOperation& read_operation(const YamlReader& r) {
  const std::string name = r.str();
  if (const KindOperation* op = find_kind_operation(name)) return *op;
  std::vector<std::string> known;
  for (auto const& op : kind_operations()) known.push_back(op.name);
  r.fail(fmt::format("unknown operation '{}'; expected {}", name,
                     known.size() < 2
                         ? fmt::format("{}", fmt::join(known, ""))
                         : fmt::format("{} or {}", fmt::join(known.begin(), known.end() - 1, ", "), known.back())));
}

Variant read_variant(YamlReader r, const std::string& family, const TargetCatalog& targets) {
  std::vector<std::string> keys = {"name",           "operation", "syntax",   "requires",  "qualifiers",
                                   "address_widths", "exclude",   "matrix",   "registers", "row_alignment",
                                   "address_lanes",  "fragment",  "fragments", "operands"};
  for (auto& block : semantics_blocks()) keys.push_back(std::move(block));
  r.expect_map(keys);
  Variant v;
  v.family = family;
  v.where = r.where();
  v.name = read_variant_name(r, family);
  const KindOperation& op = read_operation(r.at("operation"));
  v.operation = op.name;
  v.addressed = op.addressed;
  v.multiplies_operands = op.multiplies;
  v.requires_ = read_requirement(r.at("requires"), targets, true);
  v.axes = read_qualifiers(r.at("qualifiers"), targets);
  v.syntax = r.at("syntax").str();
  if (r.has("operands")) {
    if (!v.multiplies()) r.at("operands").fail("only an operation with operands d, a, b and c takes more 'operands'");
    std::set<std::string> reserved = {"d", "a", "b", "c"};
    for (auto const& a : v.axes) reserved.insert(a.name);
    v.operands = read_extra_operands(r.at("operands"), reserved);
  }
  v.address_widths = read_address_widths(r, v);
  check_variant_forms(v, r.at("qualifiers"));  // before anything multiplies them
  v.exclusions = read_exclusions(r);
  const std::set<std::string> bound = bound_variables(v);
  v.registers = read_formula(r.at("registers"), bound, "registers");
  read_semantics(r, v, op, bound);
  check_variant(v, r);
  if (op.check) op.check(v, r);
  return v;
}

}  // namespace ptxcts

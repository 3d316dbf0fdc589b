#include "judge/type_shape_product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <regex>
#include <tuple>

#include "judge/mnemonic_units.hpp"
#include "kinds/kinds.hpp"

namespace ptxcts {
namespace {

// ".m<d>n<d>" or ".m<d>n<d>k<d>" (by hand: std::regex is slow, and this runs for every unit of every form).
bool shape_token(const std::string& t) {
  std::size_t at = 0;
  auto digits = [&] {
    const std::size_t from = at;
    while (at < t.size() && std::isdigit(static_cast<unsigned char>(t[at]))) ++at;
    return at > from;
  };
  if (t.rfind(".m", 0) != 0) return false;
  at = 2;
  if (!digits() || at >= t.size() || t[at++] != 'n' || !digits()) return false;
  if (at == t.size()) return true;
  return t[at++] == 'k' && digits() && at == t.size();
}

struct Mnk {
  int m = 0, n = 0, k = 0;
};
Mnk mnk_of(const std::string& t) {
  static const std::regex shape(R"(\.m(\d+)n(\d+)(k(\d+))?)");
  std::smatch g;
  if (!std::regex_match(t, g, shape)) return {};
  return {.m = std::stoi(g[1]), .n = std::stoi(g[2]), .k = g[4].matched ? std::stoi(g[4]) : 0};
}

// Bits of an element type (.e2m1 4, .e3m2 6, .b8x16 8, ...); 0 for a token that is none.
int element_bits(const std::string& t) {
  static const std::map<std::string, int> named = {{".tf32", 32}, {".bf16", 16}, {".e4m3", 8}, {".e5m2", 8},
                                                   {".e3m2", 6},  {".e2m3", 6},  {".e2m1", 4}};
  if (auto n = named.find(t); n != named.end()) return n->second;
  static const std::regex plain(R"(\.[bsuf](\d+)(x\d+)?(_p\d+)?)");
  std::smatch g;
  return std::regex_match(t, g, plain) ? std::stoi(g[1]) : 0;
}

// Whether the form's kind multiplies matrices or feeds a multiply (InstructionKind::multiplies_matrices).
bool multiplies(const ClassifiedCombination& rep) {
  return rep.instance && kind_of(rep.instance->variant()).multiplies_matrices();
}

// The element types of the instructions of one kind (matrix multiply, or data movement): every
// value of a type or format position, and the types fixed in a multiply's syntax.
std::set<std::string> element_types(bool multiply,
                                    const std::vector<const ClassifiedCombination*>& reps) {
  std::set<std::string> out;
  for (auto const& rep : reps) {
    if (multiplies(*rep) != multiply) continue;
    for (auto const& p : rep->combo.block->positions)
      if (p.name.find("type") != std::string::npos || p.name.find("fmt") != std::string::npos)
        for (auto const& v : p.values)
          if (!v.text.empty()) out.insert(v.text);
    for (auto const& u : mnemonic_units(rep->combo).units)
      if (!u.position && multiply && element_bits(u.text) && !shape_token(u.text)) out.insert(u.text);
  }
  if (!multiply)  // .type values no syntax spells
    for (const char* t : {".b32", ".b64", ".b4", ".b6", ".u8", ".s8", ".f16"}) out.insert(t);
  return out;
}

// Which vector operand each type qualifier of a form types, in order: one type (wmma.load/store,
// ldmatrix, stmatrix): regs; two (wmma.mma .dtype.ctype): d, c; four: d, a, b, c.
std::vector<std::string> slot_operands(std::size_t types, bool multiply) {
  if (!multiply) return std::vector<std::string>(types, "regs");
  if (types == 2) return {"d", "c"};
  if (types == 4) return {"d", "a", "b", "c"};
  return std::vector<std::string>(types, "");
}

// The registers of each operand that the fragment's size gives: elements x bits / 1024 (32 lanes
// of 32-bit registers; .f64 ones hold an element each).
OperandShape fragment_shape(const OperandShape& base, const std::string& instruction, const Mnk& s,
                            const std::map<std::string, std::string>& type_of_operand) {
  OperandShape sh = base;
  for (auto& [operand, n] : sh.registers) {
    auto t = type_of_operand.find(operand);
    if (t == type_of_operand.end()) continue;
    std::string matrix = operand;
    if (operand == "regs") matrix = instruction.substr(instruction.size() - 1);  // wmma.load.a -> a
    const int elements = matrix == "a" ? s.m * s.k : matrix == "b" ? s.k * s.n : s.m * s.n;
    const bool f64 = t->second == ".f64";
    const int bits = element_bits(t->second);
    n = std::max(1, f64 ? elements / 32 : (elements * bits + 1023) / 1024);
    sh.types[operand] = f64 ? ".f64" : (base.types.count(operand) && base.types.at(operand) == ".f64" ? ".b32"
                                                                                                       : base.types.at(operand));
  }
  return sh;
}

// A form's type qualifiers: where its shape is among its units, which units are element types, and
// which operand each types (slot_operands).
struct TypedUnits {
  MnemonicUnits units;
  std::size_t shape_at = 0;  // units.units.size(): no shape
  std::vector<std::size_t> slots;
  std::vector<std::string> operands;
};
TypedUnits typed_units(const Combination& c, const std::set<std::string>& types, bool multiply) {
  TypedUnits t{.units = mnemonic_units(c), .shape_at = 0, .slots = {}, .operands = {}};
  t.shape_at = t.units.units.size();
  for (std::size_t k = 0; k < t.units.units.size(); ++k) {
    if (shape_token(t.units.units[k].text)) t.shape_at = k;
    else if (types.count(t.units.units[k].text)) t.slots.push_back(k);
  }
  t.operands = slot_operands(t.slots.size(), multiply);
  return t;
}

// Whether a claim's selection (its `where`) takes the instance.
bool selects(const RegisterClaim& rc, const Instance& inst) {
  for (auto const& [axis, vals] : rc.select)
    if (std::find(vals.begin(), vals.end(), inst.option(axis).text) == vals.end()) return false;
  return true;
}

// A row of the asked type at another shape (its register type; its count is that shape's), by
// instruction, operand and element type.
using RowsByType = std::map<std::tuple<std::string, std::string, std::string>, const FragmentRow*>;

// The registers a question of the product is asked with besides the documented form's: each typed
// operand's row at the asked shape (count and register type), else a row of its type at another
// shape (register type; count by the fragment's size), else the fragment's size in the
// representative's register type; `how` says which the asked operand took.
struct RowedShape {
  OperandShape shape;
  std::string how;
};
RowedShape rowed_shape(const OperandShape& documented, const std::string& ins, const std::string& shape,
                       const std::map<std::string, std::string>& typed, const std::string& asked,
                       const FragmentRows& rows, const RowsByType& by_type) {
  RowedShape out{.shape = fragment_shape(documented, ins, mnk_of(shape), typed), .how = ""};
  for (auto const& [operand, type] : typed) {
    if (!out.shape.registers.count(operand)) continue;
    auto exact = rows.find({ins, operand, shape, type});
    auto other = by_type.find({ins, operand, type});
    if (exact != rows.end()) {
      out.shape.registers[operand] = exact->second.registers;
      out.shape.types[operand] = exact->second.register_type;
    } else if (other != by_type.end()) {
      out.shape.types[operand] = other->second->register_type;
    }
    if (operand != asked) continue;
    out.how = exact != rows.end()
                  ? fmt::format("{{{}}} as its row {} states ({} {} registers)", operand, exact->second.claim,
                                exact->second.registers, exact->second.register_type)
              : other != by_type.end()
                  ? fmt::format("{{{}}} in the register type of row {} ({}, at another shape), registers by the "
                                "fragment's size",
                                operand, other->second->claim, other->second->register_type)
                  : fmt::format("{} {{{}}} as {}: registers by the fragment's size, the representative's register type",
                                kNoFragmentRow, operand, type);
  }
  if (out.how.empty()) out.how = "registers by the fragment's size";
  return out;
}

}  // namespace

FragmentRows fragment_rows(const std::vector<RegisterClaim>& claims,
                           const std::vector<const ClassifiedCombination*>& forms) {
  FragmentRows out;
  const std::map<bool, std::set<std::string>> types = {{true, element_types(true, forms)},
                                                        {false, element_types(false, forms)}};
  for (auto const* f : forms) {
    if (!f->instance || f->doc != DocClass::Valid) continue;
    const bool multiply = multiplies(*f);
    const TypedUnits t = typed_units(f->combo, types.at(multiply), multiply);
    if (t.shape_at == t.units.units.size()) continue;
    for (auto const& rc : claims) {
      if (rc.register_type.empty() || rc.variant != f->instance->variant().name || !selects(rc, *f->instance)) continue;
      for (std::size_t i = 0; i < t.slots.size(); ++i)
        if (t.operands[i] == rc.operand)
          out.emplace(FragmentRowKey{product_instruction(f->combo.text), rc.operand, t.units.units[t.shape_at].text,
                                     t.units.units[t.slots[i]].text},
                      FragmentRow{.claim = rc.id, .registers = rc.registers, .register_type = rc.register_type});
    }
  }
  return out;
}

std::string product_instruction(const std::string& text) {
  const std::size_t sync = text.find(".sync");
  return text.substr(0, sync == std::string::npos ? text.find(' ') : sync);
}

std::vector<TypeShapeQuestion> type_shape_product(const std::vector<const ClassifiedCombination*>& reps,
                                                  const GrammarPools& pools, const std::set<std::string>& asked,
                                                  const FragmentRows& rows) {
  std::vector<TypeShapeQuestion> out;
  RowsByType by_type;
  for (auto const& [k, row] : rows) by_type.emplace(std::tuple{std::get<0>(k), std::get<1>(k), std::get<3>(k)}, &row);
  std::set<std::string> seen = asked;
  std::map<bool, std::set<std::string>> types = {{true, element_types(true, reps)},
                                                  {false, element_types(false, reps)}};
  // Per instruction, per shape, the representative written in that shape (the first), else the first.
  std::map<std::string, std::map<std::string, std::size_t>> base;
  std::map<std::string, std::size_t> first;
  for (std::size_t r = 0; r < reps.size(); ++r) {
    const std::string ins = product_instruction(reps[r]->combo.text);
    first.emplace(ins, r);
    for (auto const& u : mnemonic_units(reps[r]->combo).units)
      if (shape_token(u.text)) base[ins].emplace(u.text, r);
  }
  for (auto const& [ins, r0] : first) {
    const bool multiply = multiplies(*reps[r0]);
    for (auto const& shape : pools.shapes) {
      if ((mnk_of(shape).k != 0) != multiply) continue;  // a multiply's shapes have a k, the others none
      auto b = base[ins].find(shape);
      const std::size_t r = b == base[ins].end() ? r0 : b->second;
      const ClassifiedCombination& rep = *reps[r];
      const TypedUnits tu = typed_units(rep.combo, types[multiply], multiply);
      const MnemonicUnits& units = tu.units;
      const std::vector<std::size_t>& slots = tu.slots;
      const std::size_t shape_at = tu.shape_at;
      if (shape_at == units.units.size()) continue;
      const std::vector<std::string>& operands = tu.operands;
      const OperandShape documented = documented_shape(rep.combo);
      for (std::size_t j = 0; j < slots.size(); ++j)
        for (auto const& t : types[multiply]) {
          std::vector<MnemonicUnit> u = units.units;
          u[shape_at].text = shape;
          u[slots[j]].text = t;
          const std::string text = join_units(units, u);
          if (!seen.insert(text).second) continue;
          std::map<std::string, std::string> typed;
          for (std::size_t i = 0; i < slots.size(); ++i) typed[operands[i]] = u[slots[i]].text;
          const std::string what = fmt::format("{} {} as {}", shape, operands[j].empty() ? "type" : "{" + operands[j] + "}", t);
          out.push_back({.of = r, .m = {.kind = "type-shape", .detail = what + ", the documented form's registers",
                                        .text = text, .shape = documented, .expected = DocClass::Undocumented,
                                        .words = "", .source = ""}});
          if (!multiply) continue;  // data movement: no fragment table, the documented registers only
          RowedShape sized = rowed_shape(documented, ins, shape, typed, operands[j], rows, by_type);
          if (sized.shape.registers != documented.registers || sized.shape.types != documented.types)
            out.push_back({.of = r, .m = {.kind = "type-shape", .detail = what + ", " + sized.how, .text = text,
                                          .shape = std::move(sized.shape), .expected = DocClass::Undocumented,
                                          .words = "", .source = ""}});
        }
    }
  }
  return out;
}

}  // namespace ptxcts

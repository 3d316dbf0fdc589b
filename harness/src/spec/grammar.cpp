#include "spec/grammar.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

std::string fill(const GrammarBlock& b, const std::vector<std::size_t>& choice) {
  return fill_syntax(b.syntax, [&](const std::string& name) -> const std::string* {
    for (std::size_t k = 0; k < b.positions.size(); ++k)
      if (b.positions[k].name == name) return &b.positions[k].values[choice[k]].text;
    return nullptr;
  });
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool when_matches(const GrammarRule& r, const Combination& c) {
  for (auto const& [pos, vals] : r.when)
    if (!contains(vals, c.value(pos))) return false;
  return true;
}

}  // namespace

const std::string& Combination::value(const std::string& position) const {
  static const std::string none;
  for (std::size_t k = 0; k < block->positions.size(); ++k)
    if (block->positions[k].name == position) return block->positions[k].values[choice[k]].text;
  return none;
}

bool Combination::has(const std::string& position) const {
  for (auto const& p : block->positions)
    if (p.name == position) return true;
  return false;
}

Bindings Combination::bindings() const {
  Bindings b;
  for (std::size_t k = 0; k < block->positions.size(); ++k)
    for (auto const& [n, v] : block->positions[k].values[choice[k]].set) b.set(n, v);
  return b;
}

int Combination::registers(const std::string& operand) const {
  auto f = block->registers.find(operand);
  if (f == block->registers.end()) return 1;
  try {
    return static_cast<int>(f->second.eval(bindings()));
  } catch (const FormulaEvalError& e) {
    throw SpecError(block->registers_where,
                    fmt::format("block '{}': the registers of {{{}}} cannot be computed for '{}': {}; expected every "
                                "variable it uses set by a position's value",
                                block->id, operand, text, e.what()));
  }
}

std::string Combination::label() const { return block->id + ": " + text; }

std::vector<Combination> enumerate(const GrammarBlock& b) {
  std::vector<Combination> out;
  out.reserve(b.product());
  std::vector<std::size_t> choice(b.positions.size(), 0);
  for (;;) {
    out.push_back({.block = &b, .choice = choice, .text = fill(b, choice)});
    std::size_t k = b.positions.size();
    while (k > 0) {
      --k;
      if (++choice[k] < b.positions[k].values.size()) break;
      choice[k] = 0;
      if (k == 0) return out;
    }
    if (b.positions.empty()) return out;
  }
}

bool rule_applies(const GrammarRule& r, const GrammarBlock& b) {
  if (!r.blocks.empty() && !contains(r.blocks, b.id)) return false;
  auto has = [&](const std::string& pos) {
    return std::any_of(b.positions.begin(), b.positions.end(), [&](auto const& p) { return p.name == pos; });
  };
  for (auto const& [pos, v] : r.when)
    if (!has(pos)) return false;
  for (auto const& [pos, v] : r.only)
    if (!has(pos)) return false;
  return true;
}

bool rule_forbids(const GrammarRule& r, const Combination& c) {
  if (!rule_applies(r, *c.block) || !when_matches(r, c)) return false;
  if (r.forbid) return true;
  for (auto const& [pos, vals] : r.only)
    if (!contains(vals, c.value(pos))) return true;
  return false;
}

const char* to_string(DocClass c) {
  switch (c) {
    case DocClass::Valid: return "documented-valid";
    case DocClass::Invalid: return "documented-invalid";
    case DocClass::Undocumented: return "undocumented";
    case DocClass::Unencoded: return "documented-no-variant";
  }
  return "undocumented";
}

int instance_registers(const Instance& inst, const std::string& operand) {
  const Variant& v = inst.variant();
  if (operand == "regs" || !v.multiplies()) return inst.registers();
  for (auto const& o : v.operands)  // an operand beyond d, a, b and c: the count it gives itself
    if (o.name == operand) return o.elements;
  // an operation that multiplies: the count its kind's semantics block gives the operand
  const Formula* registers = v.semantics ? v.semantics->operand_registers(operand) : nullptr;
  return registers ? static_cast<int>(registers->eval(inst.bindings())) : inst.registers();
}

std::vector<ClassifiedCombination> classify_grammar(const SpecSet& specs,
                                                    const std::map<std::string, const Instance*>& by_text,
                                                    std::optional<PtxVersion> at) {
  std::vector<ClassifiedCombination> out;
  for (auto const& b : specs.grammar) {
    std::vector<const GrammarRule*> rules;
    for (auto const& r : specs.rules)
      if (r.family == b.family && rule_applies(r, b) && (!at || r.ptx.holds_at(*at))) rules.push_back(&r);
    for (auto& c : enumerate(b)) {
      ClassifiedCombination cc{.combo = std::move(c), .doc = DocClass::Undocumented, .instance = nullptr,
                               .forbidden_by = {}};
      for (auto const* r : rules)
        if (rule_forbids(*r, cc.combo)) cc.forbidden_by.push_back(r);
      if (auto i = by_text.find(cc.combo.text); i != by_text.end()) cc.instance = i->second;
      // Only a rule of the block's own document takes a combination out of what that document
      // spells; another document's rule is that document's claim (a disagreement, judged apart).
      const bool own_rule_forbids = std::any_of(cc.forbidden_by.begin(), cc.forbidden_by.end(), [&](auto const* r) {
        return r->cite.document == b.cite.document;
      });
      cc.doc = own_rule_forbids ? DocClass::Invalid : cc.instance ? DocClass::Valid : DocClass::Unencoded;
      out.push_back(std::move(cc));
    }
  }
  return out;
}

namespace {

// Two 'only' rules that leave a position no value for a combination contradict each other.
void check_only_rules_agree(const SpecSet& specs, const ClassifiedCombination& cc) {
  const GrammarBlock& b = *cc.combo.block;
  std::map<std::string, std::pair<const GrammarRule*, std::set<std::string>>> allowed;
  for (auto const& r : specs.rules) {
    if (r.family != b.family || r.only.empty() || !rule_applies(r, b) || !when_matches(r, cc.combo)) continue;
    for (auto const& [pos, vals] : r.only) {
      std::set<std::string> mine(vals.begin(), vals.end());
      auto [at, fresh] = allowed.emplace(pos, std::pair{&r, mine});
      if (fresh || !r.ptx.overlaps(at->second.first->ptx)) continue;  // rules of versions apart never meet
      std::set<std::string> both;
      for (auto const& v : mine)
        if (at->second.second.count(v)) both.insert(v);
      if (both.empty())
        throw SpecError(r.where, fmt::format("rules '{}' and '{}' (at {}) contradict each other: for '{}' one "
                                             "allows only {} and the other only {} for position '{}'",
                                             r.id, at->second.first->id, at->second.first->where.str(), cc.combo.text,
                                             fmt::join(mine, ", "), fmt::join(at->second.second, ", "), pos));
      at->second.second = both;
    }
  }
}

// Every register claim names a variant, one of its operands, and qualifier values it has.
void check_register_claims(const SpecSet& specs) {
  for (auto const& c : specs.register_claims) {
    const Variant* v = specs.find_variant(c.variant);
    if (!v) throw SpecError(c.where, fmt::format("register claim '{}' names unknown variant '{}'", c.id, c.variant));
    if ((c.operand == "regs") != !v->multiplies())
      throw SpecError(c.where, fmt::format("register claim '{}': variant '{}' has no operand '{}'; expected {}", c.id,
                                           c.variant, c.operand, v->multiplies() ? "d, a, b or c" : "regs"));
    for (auto const& [axis_name, vals] : c.select) {
      const std::string axis = axis_name;  // (clang: a lambda may not capture a structured binding)
      auto a = std::find_if(v->axes.begin(), v->axes.end(), [&](auto const& x) { return x.name == axis; });
      if (a == v->axes.end())
        throw SpecError(c.where, fmt::format("register claim '{}': variant '{}' has no qualifier '{}'", c.id,
                                             c.variant, axis));
      for (auto const& val : vals)
        if (std::none_of(a->options.begin(), a->options.end(), [&](auto const& o) { return o.text == val; }))
          throw SpecError(c.where, fmt::format("register claim '{}': qualifier '{}' of '{}' has no value '{}'", c.id,
                                               axis, c.variant, val));
    }
  }
}

}  // namespace

void check_grammar(const SpecSet& specs) {
  std::vector<Instance> instances;
  for (auto const& v : specs.variants)
    for (auto& i : expand(v)) instances.push_back(std::move(i));
  for (auto const& cc : classify_grammar(specs, instances_by_text(instances))) {
    const GrammarBlock& b = *cc.combo.block;
    // Another document's rule may disagree (a finding); the document's own rule must not forbid the
    // form at a version the variant documents it at (from its minimum on).
    auto own_conflict = [&](const GrammarRule* r) {
      return r->cite.document == b.cite.document && r->ptx.holds_from(cc.instance->min_ptx());
    };
    if (cc.instance && std::any_of(cc.forbidden_by.begin(), cc.forbidden_by.end(), own_conflict)) {
      const GrammarRule& r = **std::find_if(cc.forbidden_by.begin(), cc.forbidden_by.end(), own_conflict);
      throw SpecError(r.where, fmt::format("rule '{}' forbids '{}', which variant '{}' documents (at {}); expected the "
                                           "rule and the variant to agree",
                                           r.id, cc.combo.text, cc.instance->variant().name,
                                           cc.instance->variant().where.str()));
    }
    check_only_rules_agree(specs, cc);
    if (cc.instance)
      for (auto const& [operand, f] : b.registers) {
        const int documented = instance_registers(*cc.instance, operand), block = cc.combo.registers(operand);
        if (documented != block)
          throw SpecError(b.registers_where,
                          fmt::format("block '{}' gives {{{}}} {} registers in '{}', but variant '{}' gives {}; "
                                      "expected the same count",
                                      b.id, operand, block, cc.combo.text, cc.instance->variant().name, documented));
      }
  }
  check_register_claims(specs);
}

}  // namespace ptxcts

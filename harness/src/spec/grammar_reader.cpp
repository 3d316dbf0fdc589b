#include "spec/grammar_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"
#include "spec/spec_limits.hpp"

namespace ptxcts {
namespace {

// Operand placeholders a syntax may hold besides its positions ({stride} inside a position's value).
const std::set<std::string> kOperands = {"regs", "addr", "dst", "src", "d", "a", "b", "c", "stride"};
// Operands written as a brace vector of registers, whose count `registers` gives.
const std::set<std::string> kVectorOperands = {"regs", "d", "a", "b", "c"};
// Operands that are one register each.
const std::set<std::string> kSingleOperands = {"dst", "src"};

}  // namespace

// `paraphrase: <why>`: the statement's words are not a verbatim quote of the text it cites, or cannot
// be checked against the reference text; test_quoted_words checks every other quote verbatim.
void check_paraphrase(const YamlReader& r) {
  if (r.has("paraphrase") && r.at("paraphrase").str().empty())
    r.at("paraphrase").fail("expected why the words are not checked verbatim ('paraphrase: <why>'), not an empty text");
}

// The document (an id of specs/documents.yaml; check_documents checks it) and the source.
Citation read_citation(const YamlReader& r) {
  return {.document = read_identifier(r.at("document"), "a document (an id of documents.yaml)"),
          .source = r.at("source").str(),
          .document_at = r.at("document").where()};
}

namespace {

// What every statement read here starts with: where it is, its family, its id, its words, its source.
template <class Statement>
void read_head(const YamlReader& item, Statement& out, const std::string& family, const char* id_key,
               const std::string& what) {
  out.where = item.where();
  out.family = family;
  out.id = read_identifier(item.at(id_key), what);
  out.text = item.at("text").str();
  out.cite = read_citation(item);
  check_paraphrase(item);
}

GrammarValue read_value(const YamlReader& r) {
  GrammarValue v;
  if (!r.node().IsMap()) {
    v.text = r.str();
    return v;
  }
  YamlReader m = r;
  m.expect_map({"text", "set"});
  v.text = m.at("text").str();
  if (m.has("set"))
    for (auto& [k, val] : m.at("set").entries("'set' of a grammar value"))
      v.set.emplace_back(read_identifier(k, "a variable name"), val.integer(0, 1 << 20));
  return v;
}

std::map<std::string, std::vector<std::string>> read_selection(const YamlReader& r, const std::string& what) {
  std::map<std::string, std::vector<std::string>> out;
  for (auto& [k, vals] : r.entries(what)) {
    std::vector<YamlReader> items;
    if (vals.node().IsSequence()) items = vals.items("values");
    else items.push_back(vals);
    if (items.empty()) vals.fail(fmt::format("{} lists no value for '{}'; expected a list of values", what, k.str()));
    for (auto const& v : items) out[k.str()].push_back(v.str());
  }
  return out;
}

// One position of a block: its name (not an operand's) and its values, each once.
GrammarPosition read_position(const YamlReader& k, const YamlReader& vals) {
  GrammarPosition p{.name = read_identifier(k, "a position name"), .values = {}};
  // {stride} is both: a position whose value may be ", {stride}", the operand.
  if (kOperands.count(p.name) && p.name != "stride")
    k.fail(fmt::format("'{}' names an operand, not a position", p.name));
  std::set<std::string> seen;
  for (auto const& item : vals.items("the values of a position")) {
    GrammarValue v = read_value(item);
    if (!seen.insert(v.text).second)
      item.fail(fmt::format("value '{}' is listed twice for position '{}'", v.text, p.name));
    p.values.push_back(std::move(v));
  }
  if (p.values.empty())
    vals.fail(
        fmt::format("position '{}' has no values, so the block's product is empty; expected at least one", p.name));
  return p;
}

// How many registers each vector operand of the syntax (`vectors`) has: a formula of the variables
// the positions' values set, one per operand (a plain formula where the syntax has only one).
void read_block_registers(const YamlReader& r, const std::set<std::string>& vectors, GrammarBlock& b) {
  std::set<std::string> vars;
  for (auto const& p : b.positions)
    for (auto const& v : p.values)
      for (auto const& [n, x] : v.set) vars.insert(n);
  if (r.has("registers")) {
    YamlReader regs = r.at("registers");
    b.registers_where = regs.where();
    if (regs.node().IsMap()) {
      for (auto& [k, f] : regs.entries("'registers' of a grammar block")) {
        if (!vectors.count(k.str()))
          k.fail(fmt::format("'{}' is not a vector operand of the syntax; expected one of: {}", k.str(),
                             fmt::join(vectors, ", ")));
        b.registers[k.str()] = read_formula(f, vars, "the registers of " + k.str());
      }
    } else if (vectors.size() == 1) {
      b.registers[*vectors.begin()] = read_formula(regs, vars, "the registers");
    } else {
      regs.fail(fmt::format("the syntax has the vector operands {}; expected a map giving each one's registers",
                            fmt::join(vectors, ", ")));
    }
  }
  for (auto const& v : vectors)
    if (!b.registers.count(v))
      r.fail(fmt::format("the block does not say how many registers {{{}}} has; expected 'registers'", v));
}

// The register type of each register operand of the syntax (`reg_operands`): one for all, or a map.
void read_register_types(const YamlReader& r, const std::set<std::string>& reg_operands, GrammarBlock& b) {
  YamlReader types = r.at("register_type");
  if (types.node().IsMap()) {
    for (auto& [k, t] : types.entries("'register_type' of a grammar block")) {
      if (!reg_operands.count(k.str()))
        k.fail(fmt::format("'{}' is not a register operand of the syntax; expected one of: {}", k.str(),
                           fmt::join(reg_operands, ", ")));
      b.types[k.str()] = t.str();
    }
    for (auto const& o : reg_operands)
      if (!b.types.count(o)) types.fail(fmt::format("no register type for operand '{}'", o));
  } else {
    for (auto const& o : reg_operands) b.types[o] = types.str();
  }
  for (auto const& [o, t] : b.types)
    if (t.size() < 2 || t[0] != '.') types.fail(fmt::format("expected a register type such as .b32 but found '{}'", t));
}

GrammarBlock read_block(YamlReader r, const std::string& family) {
  r.expect_map(
      {"block", "document", "source", "manual", "syntax", "positions", "operands", "registers", "register_type",
       "paraphrase"});
  check_paraphrase(r);
  GrammarBlock b;
  b.where = r.where();
  b.family = family;
  b.id = read_identifier(r.at("block"), "a block id");
  b.cite = read_citation(r);
  b.manual = r.at("manual").str();
  b.syntax = r.at("syntax").str();
  std::set<std::string> known = kOperands;
  YamlReader positions = r.at("positions");
  for (auto& [k, vals] : positions.entries("'positions' of a grammar block")) {
    b.positions.push_back(read_position(k, vals));
    known.insert(b.positions.back().name);
  }
  if (r.has("operands")) b.operands = read_extra_operands(r.at("operands"), known);
  for (auto const& o : b.operands) known.insert(o.name);
  const std::map<std::string, int> used =
      read_placeholders(r.at("syntax"), b.syntax, "the block's syntax", known, "a position or an operand");
  for (auto const& o : b.operands)
    if (!used.count(o.name)) throw SpecError(o.where, fmt::format("operand '{}' does not appear in the syntax", o.name));
  for (auto const& p : b.positions)
    if (!used.count(p.name))
      positions.fail(fmt::format("position '{}' does not appear in the syntax '{}'", p.name, b.syntax));
  // Positions in the order the syntax has them (enumeration and mutations follow it).
  std::sort(b.positions.begin(), b.positions.end(), [&](auto const& x, auto const& y) {
    return b.syntax.find("{" + x.name + "}") < b.syntax.find("{" + y.name + "}");
  });
  if (b.product() > kMaxGrammarProduct)
    positions.fail(fmt::format("the block spells {} combinations, over the limit of {}; expected it split as the "
                               "document splits its syntax",
                               b.product(), kMaxGrammarProduct));
  std::set<std::string> vectors;
  for (auto const& [name, n] : used)
    if (kVectorOperands.count(name)) vectors.insert(name);
  read_block_registers(r, vectors, b);
  std::set<std::string> reg_operands = vectors;
  for (auto const& [name, n] : used)
    if (kSingleOperands.count(name)) reg_operands.insert(name);
  read_register_types(r, reg_operands, b);
  // The operands beyond the operation's own carry their count and type ('operands').
  for (auto const& o : b.operands) {
    if (!o.single()) b.registers[o.name] = Formula::parse(std::to_string(o.elements));
    b.types[o.name] = o.type;
  }
  return b;
}

// Every position and value a rule names must be spelled by a block it can apply to.
void check_rule_names(const YamlReader& r, const GrammarRule& rule, const std::vector<GrammarBlock>& blocks,
                      const char* part, const std::map<std::string, std::vector<std::string>>& sel) {
  for (auto const& [pos, vals] : sel) {
    std::set<std::string> spelled;
    bool has = false;
    for (auto const& b : blocks) {
      if (!rule.blocks.empty() && std::find(rule.blocks.begin(), rule.blocks.end(), b.id) == rule.blocks.end())
        continue;
      for (auto const& p : b.positions)
        if (p.name == pos) {
          has = true;
          for (auto const& v : p.values) spelled.insert(v.text);
        }
    }
    YamlReader at = r.at(part);
    if (!has) at.fail(fmt::format("rule '{}' names position '{}', which no block it applies to has", rule.id, pos));
    for (auto const& v : vals)
      if (!spelled.count(v))
        at.fail(fmt::format("rule '{}' names value '{}' of position '{}', which no block spells; expected one of: {}",
                            rule.id, v, pos, fmt::join(spelled, ", ")));
  }
}

}  // namespace

std::size_t GrammarBlock::product() const {
  std::size_t n = 1;
  for (auto const& p : positions) n = saturating_product(n, p.values.size());  // 64 positions of 2 must not wrap to 0
  return n;
}

std::vector<GrammarBlock> read_grammar(const YamlReader& list, const std::string& family) {
  std::vector<GrammarBlock> out;
  for (auto const& item : list.items("'grammar'")) {
    GrammarBlock b = read_block(item, family);
    for (auto const& prev : out)
      if (prev.id == b.id)
        item.at("block").fail(fmt::format("duplicate block '{}' (first defined at {})", b.id, prev.where.str()));
    out.push_back(std::move(b));
  }
  return out;
}

// `ptx_isa: {from: "M.N", below: "M.N", source: "..."}`: the versions a rule holds at.
PtxRange read_ptx_range(YamlReader r, const TargetCatalog& targets) {
  r.expect_map({"from", "below", "source"});
  PtxRange out{.from = std::nullopt, .below = std::nullopt, .source = "", .where = r.where()};
  if (r.has("from")) out.from = read_ptx(r.at("from"), &targets);
  if (r.has("below")) out.below = read_ptx(r.at("below"), &targets);
  if (!out.bounded()) r.fail("expected 'from' or 'below' (the PTX ISA versions the rule holds at)");
  if (out.from && out.below && !(*out.from < *out.below))
    r.at("below").fail(fmt::format("expected a version above 'from' ({}), the first the rule holds at, but found {}",
                                   out.from->str(), out.below->str()));
  out.source = r.at("source").str();
  if (out.source.empty())
    r.at("source").fail("expected where the documents change the rule at that version, not an empty text");
  return out;
}

std::vector<GrammarRule> read_rules(const YamlReader& list, const std::string& family,
                                    const std::vector<GrammarBlock>& blocks, const TargetCatalog& targets) {
  std::vector<GrammarRule> out;
  for (auto item : list.items("'rules'")) {
    item.expect_map({"rule", "text", "source", "document", "other_section", "when", "only", "forbid", "blocks",
                     "paraphrase", "ptx_isa"});
    GrammarRule rule;
    read_head(item, rule, family, "rule", "a rule id");
    if (item.has("other_section")) rule.other_section = item.at("other_section").str();
    if (item.has("blocks"))
      for (auto const& b : item.at("blocks").items("'blocks' of a rule")) {
        std::string id = b.str();
        if (std::none_of(blocks.begin(), blocks.end(), [&](auto const& x) { return x.id == id; }))
          b.fail(fmt::format("rule '{}' names block '{}', which this family does not define", rule.id, id));
        rule.blocks.push_back(id);
      }
    if (item.has("ptx_isa")) rule.ptx = read_ptx_range(item.at("ptx_isa"), targets);
    if (item.has("when")) rule.when = read_selection(item.at("when"), "'when' of a rule");
    if (item.has("only")) rule.only = read_selection(item.at("only"), "'only' of a rule");
    if (item.has("forbid")) {
      rule.forbid = item.at("forbid").boolean();
      if (!rule.forbid) item.at("forbid").fail("expected 'forbid: true' (or no 'forbid')");
    }
    if (rule.forbid == !rule.only.empty())
      item.fail(fmt::format("rule '{}' must say either 'only' (the values allowed) or 'forbid: true'", rule.id));
    if (rule.forbid && rule.when.empty())
      item.fail(fmt::format("rule '{}' forbids every combination; expected 'when' saying which", rule.id));
    check_rule_names(item, rule, blocks, "when", rule.when);
    if (!rule.only.empty()) check_rule_names(item, rule, blocks, "only", rule.only);
    for (auto const& prev : out)
      if (prev.id == rule.id)
        item.at("rule").fail(fmt::format("duplicate rule '{}' (first defined at {})", rule.id, prev.where.str()));
    out.push_back(std::move(rule));
  }
  return out;
}

ExampleLines split_example(const std::string& text) {
  ExampleLines out;
  std::string pending;  // an instruction the document wraps over several lines
  int pending_line = 0;
  std::size_t pos = 0;
  for (int line_no = 1; pos < text.size(); ++line_no) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (auto c = line.find("//"); c != std::string::npos) line.erase(c);
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty()) continue;
    if (pending.empty() && line[0] == '.') {
      out.declarations.push_back(line);
      continue;
    }
    if (pending.empty()) pending_line = line_no;
    pending += (pending.empty() ? "" : " ") + line;
    std::size_t semi = pending.find(';');
    if (semi == std::string::npos) continue;
    if (semi + 1 != pending.size())
      throw std::invalid_argument(fmt::format(
          "line {} ('{}') is not one instruction; expected one instruction ending in ';' per line", pending_line,
          pending));
    out.instructions.push_back(pending);
    pending.clear();
  }
  if (!pending.empty())
    throw std::invalid_argument(
        fmt::format("line {} ('{}') does not end in ';'; expected each instruction to end in ';'", pending_line, pending));
  return out;
}

std::vector<DocExample> read_examples(const YamlReader& list, const std::string& family) {
  std::vector<DocExample> out;
  for (auto item : list.items("'examples'")) {
    item.expect_map({"example", "document", "source", "comment", "text", "operands", "declare", "paraphrase"});
    check_paraphrase(item);
    DocExample e;
    e.where = item.where();
    e.family = family;
    e.id = read_identifier(item.at("example"), "an example id");
    e.cite = read_citation(item);
    if (item.has("comment")) e.comment = item.at("comment").str();
    e.text = item.at("text").str();
    if (item.has("operands"))
      for (auto& [k, v] : item.at("operands").entries("'operands' of an example")) {
        if (e.text.find(k.str()) == std::string::npos)
          k.fail(fmt::format("operand '{}' does not appear in the example's text", k.str()));
        e.operands.emplace_back(k.str(), v.str());
      }
    // Longest first, so that %10 is not read as %1 followed by 0.
    std::sort(e.operands.begin(), e.operands.end(),
              [](auto const& x, auto const& y) { return x.first.size() > y.first.size(); });
    if (item.has("declare"))
      for (auto const& d : item.at("declare").items("'declare' of an example")) e.declare.push_back(d.str());
    std::string text = e.text;
    for (auto const& [from, to] : e.operands)
      for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    ExampleLines lines;
    try {
      lines = split_example(text);
    } catch (const std::invalid_argument& ex) { item.at("text").fail(ex.what()); }
    for (auto const& ins : lines.instructions)
      if (ins.rfind(family, 0) == 0 || ins.rfind("@", 0) == 0) e.instructions.push_back(ins);
    if (e.instructions.empty())
      item.at("text").fail(fmt::format("the example has no {} instruction; expected at least one line starting with '{}'",
                                       family, family));
    for (auto const& d : e.declare) e.body += d + "\n";
    e.body += text;
    if (!e.body.empty() && e.body.back() != '\n') e.body += '\n';
    for (auto const& prev : out)
      if (prev.id == e.id)
        item.at("example").fail(fmt::format("duplicate example '{}' (first defined at {})", e.id, prev.where.str()));
    out.push_back(std::move(e));
  }
  return out;
}

namespace {
// A register claim's `register_type`: one of the register types the fragment tables name, and
// named by the row's own words ("... two .f16x2 registers ...").
std::string read_register_type(const YamlReader& r, const std::string& text) {
  static const std::set<std::string> kFragmentTypes = {".b32", ".s32", ".f32", ".f16x2", ".f64"};
  const std::string t = r.str();
  if (!kFragmentTypes.count(t))
    r.fail(fmt::format("unknown register type '{}'; expected one of {}", t, fmt::join(kFragmentTypes, ", ")));
  if (text.find(t + " register") == std::string::npos)
    r.fail(fmt::format("the claim's text does not name '{} register(s)'; expected the type its words state", t));
  return t;
}
}  // namespace

std::vector<RegisterClaim> read_register_claims(const YamlReader& list, const std::string& family) {
  std::vector<RegisterClaim> out;
  for (auto item : list.items("'register_claims'")) {
    item.expect_map(
        {"claim", "text", "source", "document", "variant", "where", "operand", "registers", "register_type", "paraphrase"});
    RegisterClaim c;
    read_head(item, c, family, "claim", "a claim id");
    c.variant = item.at("variant").str();
    c.operand = item.at("operand").str();
    if (!kVectorOperands.count(c.operand))
      item.at("operand").fail(fmt::format("unknown operand '{}'; expected regs, d, a, b or c", c.operand));
    if (item.has("where")) c.select = read_selection(item.at("where"), "'where' of a register claim");
    c.registers = static_cast<int>(item.at("registers").integer(0, 64));
    if (item.has("register_type")) c.register_type = read_register_type(item.at("register_type"), c.text);
    for (auto const& prev : out)
      if (prev.id == c.id)
        item.at("claim").fail(fmt::format("duplicate claim '{}' (first defined at {})", c.id, prev.where.str()));
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<RegisterMinimum> read_register_minimums(const YamlReader& list, const std::string& family,
                                                    const std::vector<Variant>& variants) {
  std::vector<RegisterMinimum> out;
  for (auto item : list.items("'register_minimums'")) {
    item.expect_map({"minimum", "text", "source", "document", "variants", "registers", "paraphrase"});
    RegisterMinimum m;
    read_head(item, m, family, "minimum", "a statement id");
    for (auto const& v : item.at("variants").items("'variants'")) {
      const std::string name = v.str();
      if (std::none_of(variants.begin(), variants.end(), [&](const Variant& x) { return x.name == name; }))
        v.fail(fmt::format("unknown variant '{}'; expected a variant of this family", name));
      m.variants.push_back(name);
    }
    if (m.variants.empty()) item.at("variants").fail("expected at least one variant");
    m.registers = static_cast<int>(item.at("registers").integer(2, 255));
    for (auto const& prev : out)
      if (prev.id == m.id)
        item.at("minimum").fail(fmt::format("duplicate minimum '{}' (first defined at {})", m.id, prev.where.str()));
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<VersionSpelling> read_version_spellings(const YamlReader& list, const std::string& family,
                                                    const std::vector<GrammarBlock>& blocks,
                                                    const std::vector<Variant>& variants,
                                                    const TargetCatalog& targets) {
  std::vector<VersionSpelling> out;
  for (auto item : list.items("'version_spellings'")) {
    item.expect_map({"spelling", "text", "source", "document", "qualifier", "mnemonics", "from", "paraphrase"});
    VersionSpelling v;
    read_head(item, v, family, "spelling", "a spelling id");
    v.qualifier = item.at("qualifier").str();
    if (v.qualifier.size() < 2 || v.qualifier[0] != '.')
      item.at("qualifier").fail(fmt::format("'{}' is not a qualifier; expected one such as .aligned", v.qualifier));
    auto writes = [&](const std::string& syntax) {
      return syntax.find(v.qualifier + ".") != std::string::npos || syntax.find(v.qualifier + "{") != std::string::npos;
    };
    const bool spelled =
        std::any_of(blocks.begin(), blocks.end(), [&](const GrammarBlock& b) { return writes(b.syntax); }) ||
        std::any_of(variants.begin(), variants.end(),
                    [&](const Variant& x) { return x.family == family && writes(x.syntax); });
    if (!spelled)
      item.at("qualifier").fail(fmt::format(
          "no syntax of family '{}' writes {}; expected a qualifier its syntax blocks or variants spell", family,
          v.qualifier));
    for (auto const& m : item.at("mnemonics").items("'mnemonics' of a version spelling")) {
      if (m.str().rfind(family + ".", 0) != 0 && m.str() != family)
        m.fail(fmt::format("'{}' is not a mnemonic of family '{}'", m.str(), family));
      v.mnemonics.push_back(m.str());
    }
    v.from = read_ptx(item.at("from"), &targets);
    for (auto const& prev : out)
      if (prev.id == v.id)
        item.at("spelling").fail(fmt::format("duplicate spelling '{}' (first defined at {})", v.id, prev.where.str()));
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace ptxcts

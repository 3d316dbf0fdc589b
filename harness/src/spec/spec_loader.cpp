#include "spec/spec_loader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <cctype>
#include <regex>
#include <set>

#include "util/file_text.hpp"
#include "spec/instance.hpp"
#include "spec/layout.hpp"
#include "spec/layout_check.hpp"
#include "spec/spec_fields.hpp"
#include "spec/spec_wmma.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {
namespace {

const std::set<std::string> kFragmentBuiltins = {"lane", "r", "i"};
const std::set<std::string> kAddressBuiltins = {"lane"};

PtxVersion read_ptx(const YamlReader& r, const TargetCatalog* targets) {
  std::string s = r.str();
  auto v = PtxVersion::parse(s);
  if (!v) r.fail(fmt::format("expected a PTX ISA version like \"7.8\" but found '{}'", s));
  if (targets && std::find(targets->ptx_versions.begin(), targets->ptx_versions.end(), *v) == targets->ptx_versions.end())
    r.fail(fmt::format("PTX ISA version {} is not in targets.yaml's ptx_isa_versions", s));
  return *v;
}

TargetSetItem read_target_item(const YamlReader& r, const std::string& s, const TargetCatalog& targets) {
  TargetSetItem item;
  const std::string at_least = ">= sm_";
  if (s.rfind(at_least, 0) == 0) {
    std::string num = s.substr(at_least.size());
    bool digits = !num.empty() && num.size() <= 3 && std::all_of(num.begin(), num.end(), ::isdigit);
    if (!digits) r.fail(fmt::format("expected '>= sm_XY' with XY a number but found '{}'", s));
    item.kind = TargetSetItem::Kind::AtLeast;
    item.arch = std::stoi(num);
    bool known = std::any_of(targets.targets.begin(), targets.targets.end(), [&](auto const& t) { return t.arch == item.arch; });
    if (!known) r.fail(fmt::format("unknown target 'sm_{}' in '{}'; expected an architecture from targets.yaml", num, s));
    return item;
  }
  item.name = s;
  item.kind = TargetSetItem::Kind::Exact;
  if (!s.empty() && s.back() == '+') {
    item.name = s.substr(0, s.size() - 1);
    item.kind = TargetSetItem::Kind::FamilyFrom;
  }
  const TargetInfo* t = targets.find(item.name);
  if (!t) r.fail(fmt::format("unknown target '{}'; expected '>= sm_XY', a target name from targets.yaml, or 'sm_XYf+'", s));
  if (item.kind == TargetSetItem::Kind::FamilyFrom && (t->suffix != "f" || t->family == 0))
    r.fail(fmt::format("'{}': only a family-specific target (sm_XYf, with a family in targets.yaml) can start a family", s));
  item.arch = t->arch;
  return item;
}

// A target set: one item as a string, or a list of items (their union).
TargetSet read_target_set(const YamlReader& r, const TargetCatalog& targets) {
  TargetSet set;
  std::vector<std::string> texts;
  if (r.node().IsSequence()) {
    for (auto const& item : r.items("a list of targets")) {
      texts.push_back(item.str());
      set.items.push_back(read_target_item(item, texts.back(), targets));
    }
    if (set.items.empty()) r.fail("expected at least one target in the list");
  } else {
    texts.push_back(r.str());
    set.items.push_back(read_target_item(r, texts.back(), targets));
  }
  set.text = fmt::format("{}", fmt::join(texts, ", "));
  return set;
}

Requirement read_requirement(YamlReader r, const TargetCatalog& targets, bool need_all) {
  r.expect_map({"ptx", "targets", "source"});
  Requirement req;
  if (need_all || r.has("ptx")) req.ptx = read_ptx(r.at("ptx"), &targets);
  if (need_all || r.has("targets")) req.targets = read_target_set(r.at("targets"), targets);
  req.source = r.at("source").str();
  return req;
}


FragmentLayout read_layout(YamlReader r, const std::set<std::string>& vars, const std::string& what) {
  r.expect_map({"matrix", "row", "col"});
  return {.matrix = read_formula(r.at("matrix"), vars, what + " matrix"),
          .row = read_formula(r.at("row"), vars, what + " row"),
          .col = read_formula(r.at("col"), vars, what + " col")};
}

// The placeholders of a syntax or a form's text, counted. Braces must pair up around a name in
// `known`: a stray one would reach ptxas, and the audit would blame ptxas for it.
std::map<std::string, int> read_placeholders(const YamlReader& r, const std::string& text, const std::string& what,
                                             const std::set<std::string>& known, const std::string& expected) {
  std::map<std::string, int> used;
  for (std::size_t p = 0; p < text.size(); ++p) {
    if (text[p] == '}')
      throw SpecError(r.where_in_scalar(p), fmt::format("'}}' without its '{{' in {}; expected placeholders written {{name}}", what));
    if (text[p] != '{') continue;
    std::size_t close = text.find_first_of("{}", p + 1);
    if (close == std::string::npos || text[close] == '{')
      throw SpecError(r.where_in_scalar(p), fmt::format("unclosed '{{' in {}; expected '}}' after the placeholder's name", what));
    std::string name = text.substr(p + 1, close - p - 1);
    if (!known.count(name))
      throw SpecError(r.where_in_scalar(p + 1), fmt::format("unknown placeholder '{{{}}}' in {}; expected {}", name, what, expected));
    ++used[name];
    p = close;
  }
  return used;
}

QualifierOption read_option(YamlReader r, const TargetCatalog& targets) {
  r.expect_map({"text", "set", "space", "fragment", "requires"});
  QualifierOption o;
  o.where = r.where();
  o.text = r.at("text").str();
  if (o.text == ", {stride}") {  // wmma: the optional stride operand, written as a qualifier value
  } else if (!o.text.empty()) {
    bool ok = o.text[0] == '.' && o.text.size() > 1;
    for (char c : o.text) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == ':' || c == '_');
    if (!ok) r.at("text").fail(fmt::format("expected a qualifier like '.x1' (a dot, then letters, digits, '_' or '::') or \"\" but found '{}'", o.text));
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
    if (!o.requires_.ptx && !o.requires_.targets) r.at("requires").fail("a qualifier value's 'requires' needs 'ptx' or 'targets'");
  }
  return o;
}

Variant read_variant(YamlReader r, const std::string& family, const TargetCatalog& targets) {
  r.expect_map({"name", "operation", "syntax", "requires", "qualifiers", "address_widths", "exclude", "matrix",
                "registers", "row_alignment", "address_lanes", "fragment", "fragments", "wmma"});
  Variant v;
  v.family = family;
  v.where = r.where();
  v.name = read_identifier(r.at("name"), "a variant name");
  if (v.name.rfind(family + ".", 0) != 0)
    r.at("name").fail(fmt::format("variant name '{}' must start with its family '{}.'", v.name, family));
  std::string op = r.at("operation").str();
  if (op == "load") v.operation = Operation::Load;
  else if (op == "store") v.operation = Operation::Store;
  else if (op == "move") v.operation = Operation::Move;
  else if (op == "wmma-load") v.operation = Operation::WmmaLoad;
  else if (op == "wmma-store") v.operation = Operation::WmmaStore;
  else if (op == "wmma-mma") v.operation = Operation::WmmaMma;
  else r.at("operation").fail(fmt::format("unknown operation '{}'; expected load, store, move, wmma-load, wmma-store or wmma-mma", op));
  const bool mma = v.operation == Operation::WmmaMma;
  const bool addressless = v.operation == Operation::Move || mma;
  v.requires_ = read_requirement(r.at("requires"), targets, true);

  std::set<std::string> bound;
  std::map<std::string, std::string> setter;  // variable, state space or fragment -> the qualifier that decides it
  auto decide = [&](const std::string& what, const std::string& axis, const YamlReader& at) {
    auto [it, fresh] = setter.emplace(what, axis);
    if (!fresh && it->second != axis)
      at.fail(fmt::format("{} is decided by qualifier '{}' and by qualifier '{}'; only one qualifier may decide it", what, it->second, axis));
  };
  auto qualifier_entries = r.at("qualifiers").node().IsMap() && r.at("qualifiers").node().size() == 0
                               ? std::vector<std::pair<YamlReader, YamlReader>>{}
                               : r.at("qualifiers").entries("'qualifiers'");
  for (auto& [k, opts] : qualifier_entries) {
    QualifierAxis axis;
    axis.name = read_identifier(k, "a qualifier name");
    if (axis.name == "regs" || axis.name == "addr" || axis.name == "dst" || axis.name == "src" || axis.name == "address_width" ||
        axis.name == "a" || axis.name == "b" || axis.name == "c" || axis.name == "d")
      k.fail(fmt::format("'{}' is reserved and cannot name a qualifier", axis.name));
    std::set<std::string> texts;
    std::optional<std::set<std::string>> axis_vars;
    for (auto const& item : opts.items(fmt::format("values of qualifier '{}'", axis.name))) {
      QualifierOption o = read_option(item, targets);
      if (o.text == ", {stride}" && v.operation != Operation::WmmaLoad && v.operation != Operation::WmmaStore)  // only wmma's emitter fills it
        item.at("text").fail("the stride operand \", {stride}\" belongs to wmma-load and wmma-store variants only; expected a qualifier like '.x1' or \"\"");
      for (auto const& [n, val] : o.set) decide(fmt::format("variable '{}'", n), k.str(), item);
      if (!o.space.empty()) decide("the state space", k.str(), item);
      if (!o.fragment.empty()) decide("the fragment layout", k.str(), item);
      if (!texts.insert(o.text).second) item.fail(fmt::format("duplicate value '{}' of qualifier '{}'", o.text, axis.name));
      std::set<std::string> vars;
      for (auto const& [n, val] : o.set) vars.insert(n);
      if (axis_vars && *axis_vars != vars)
        item.fail(fmt::format("every value of qualifier '{}' must set the same variables ({}) but this one sets ({})",
                              axis.name, fmt::join(*axis_vars, ", "), fmt::join(vars, ", ")));
      axis_vars = vars;
      bound.insert(vars.begin(), vars.end());
      axis.options.push_back(std::move(o));
    }
    if (axis.options.empty()) opts.fail(fmt::format("qualifier '{}' needs at least one value", axis.name));
    v.axes.push_back(std::move(axis));
  }

  // The syntax must name every qualifier once, plus {regs} and {addr}, and nothing else.
  YamlReader syn = r.at("syntax");
  v.syntax = syn.str();
  std::set<std::string> known = v.operation == Operation::Move ? std::set<std::string>{"dst", "src"}
                                : mma                           ? std::set<std::string>{"d", "a", "b", "c"}
                                                                : std::set<std::string>{"regs", "addr"};
  for (auto const& a : v.axes) known.insert(a.name);
  std::map<std::string, int> used =
      read_placeholders(syn, v.syntax, "syntax", known,
                        fmt::format("a qualifier name, {}", v.operation == Operation::Move ? "{dst} or {src}" : mma ? "{d}, {a}, {b} or {c}" : "{regs} or {addr}"));
  for (auto const& a : v.axes)
    if (used[a.name] != 1) syn.fail(fmt::format("syntax must use {{{}}} exactly once", a.name));
  // The instruction's name becomes kernel and file names: nothing that could climb out of a directory.
  {
    std::string name = v.syntax.substr(0, v.syntax.find(' '));
    for (std::size_t p = 0; p < name.size(); ++p) {
      if (name[p] == '{') { p = name.find('}', p); if (p == std::string::npos) break; continue; }
      char c = name[p];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':'))
        throw SpecError(syn.where_in_scalar(p), fmt::format("the instruction name in the syntax may hold only letters, digits, '.', '_' and ':' but has '{}'", c));
    }
  }
  if (v.operation == Operation::Move && (used["dst"] != 1 || used["src"] != 1)) syn.fail("syntax must use {dst} and {src} exactly once each");
  if (mma && (used["d"] != 1 || used["a"] != 1 || used["b"] != 1 || used["c"] != 1)) syn.fail("syntax must use {d}, {a}, {b} and {c} exactly once each");
  if (!addressless && (used["regs"] != 1 || used["addr"] != 1)) syn.fail("syntax must use {regs} and {addr} exactly once each");

  if (addressless && r.has("address_widths")) r.at("address_widths").fail(fmt::format("{} has no address: drop 'address_widths'", mma ? "wmma.mma" : "a move"));
  if (!addressless)
  for (auto const& w : r.at("address_widths").items("'address_widths'")) {
    int width = static_cast<int>(w.integer(32, 64));
    if (width != 32 && width != 64) w.fail(fmt::format("expected an address width of 32 or 64 but found {}", width));
    if (std::count(v.address_widths.begin(), v.address_widths.end(), width)) w.fail(fmt::format("duplicate address width {}", width));
    v.address_widths.push_back(width);
  }
  if (!addressless && v.address_widths.empty()) r.at("address_widths").fail("expected at least one address width");

  if (r.has("exclude"))
    for (auto item : r.at("exclude").items("'exclude'")) {
      item.expect_map({"when", "reason"});
      Exclusion e;
      e.reason = item.at("reason").str();
      if (item.at("when").node().IsMap() && item.at("when").node().size() == 0)
        item.at("when").fail("an exclusion needs at least one condition in 'when'");
      for (auto& [k, val] : item.at("when").entries("'when' of an exclusion")) {
        std::string axis = k.str();
        std::string text = val.str();
        if (axis == "address_width") {
          if (text != "32" && text != "64") val.fail(fmt::format("expected address_width 32 or 64 but found '{}'", text));
        } else {
          auto a = std::find_if(v.axes.begin(), v.axes.end(), [&](auto const& x) { return x.name == axis; });
          if (a == v.axes.end()) k.fail(fmt::format("unknown qualifier '{}' in exclusion", axis));
          if (std::none_of(a->options.begin(), a->options.end(), [&](auto const& o) { return o.text == text; }))
            val.fail(fmt::format("unknown value '{}' of qualifier '{}'", text, axis));
        }
        e.when[axis] = text;
      }
      v.exclusions.push_back(std::move(e));
    }

  v.registers = read_formula(r.at("registers"), bound, "registers");
  if (v.is_wmma()) {  // WMMA semantics: the 'wmma' block instead of a fragment layout
    for (const char* k : {"matrix", "row_alignment", "address_lanes", "fragment", "fragments"})
      if (r.has(k)) r.at(k).fail(fmt::format("a wmma variant has no '{}': its fragments' register layout is unspecified; give 'wmma'", k));
    read_wmma_semantics(r.at("wmma"), v, bound);
    return v;
  }
  if (r.has("wmma")) r.at("wmma").fail("'wmma' belongs to wmma-load, wmma-store and wmma-mma variants only");

  // The layout keys come together, or not at all (a form specified by syntax and requirements only).
  // A move has no addresses: its layout is the source fragment and the 'result' fragment.
  const bool move = v.operation == Operation::Move;
  const std::vector<const char*> layout_keys = move ? std::vector<const char*>{"matrix", "fragment", "fragments"}
                                                    : std::vector<const char*>{"matrix", "row_alignment", "address_lanes", "fragment"};
  const std::string key_list = move ? "matrix, fragment, fragments" : "matrix, row_alignment, address_lanes, fragment";
  int present = 0;
  for (const char* k : layout_keys) present += r.has(k);
  if (present != 0 && present != static_cast<int>(layout_keys.size()))
    for (const char* k : layout_keys)
      if (!r.has(k)) r.fail(fmt::format("variant '{}' gives part of a layout; it also needs '{}' (or none of {})", v.name, k, key_list));
  if (move && (r.has("row_alignment") || r.has("address_lanes")))
    r.fail(fmt::format("variant '{}' is a move: it has no addresses, so no row_alignment or address_lanes", v.name));
  if (!present && r.has("fragments")) r.at("fragments").fail("'fragments' needs the rest of a layout (" + key_list + ")");
  v.has_layout = present == static_cast<int>(layout_keys.size());
  if (v.has_layout) {
    YamlReader m = r.at("matrix");
    m.expect_map({"rows", "cols", "element_bits"});
    v.rows = static_cast<int>(m.at("rows").integer(1, 64));
    v.cols = static_cast<int>(m.at("cols").integer(1, 64));
    v.element_bits = static_cast<int>(m.at("element_bits").integer(1, 32));
    if (32 % v.element_bits != 0 || v.element_bits < 8)
      m.at("element_bits").fail(fmt::format("expected element_bits of 8, 16 or 32 (a whole number of bytes dividing a 32-bit register) but found {}", v.element_bits));
    if (v.row_bytes() % 4 != 0) m.fail(fmt::format("a row of {} bytes is not a whole number of 32-bit words", v.row_bytes()));
    std::set<std::string> addr_vars = bound, frag_vars = bound;
    addr_vars.insert(kAddressBuiltins.begin(), kAddressBuiltins.end());
    frag_vars.insert(kFragmentBuiltins.begin(), kFragmentBuiltins.end());
    if (!move) {
      v.row_alignment = static_cast<int>(r.at("row_alignment").integer(1, 4096));
      if ((v.row_alignment & (v.row_alignment - 1)) != 0)
        r.at("row_alignment").fail(fmt::format("expected a power of two but found {}", v.row_alignment));
      YamlReader al = r.at("address_lanes");
      al.expect_map({"active", "matrix", "row"});
      v.address_lanes = {read_formula(al.at("active"), addr_vars, "address_lanes active"),
                         read_formula(al.at("matrix"), addr_vars, "address_lanes matrix"),
                         read_formula(al.at("row"), addr_vars, "address_lanes row")};
    }
    v.fragment = read_layout(r.at("fragment"), frag_vars, "fragment");
    if (r.has("fragments"))
      for (auto& [k, layout] : r.at("fragments").entries("'fragments'")) {
        std::string name = read_identifier(k, "a fragment layout name");
        v.fragments[name] = read_layout(layout, frag_vars, "fragment '" + name + "'");
      }
    if (move && !v.fragments.count("result"))
      r.at("fragments").fail("a move needs the layout of its destination as fragments: {result: ...}");
  }
  for (auto const& a : v.axes)
    for (auto const& o : a.options)
      if (!o.fragment.empty() && v.has_layout && !v.fragments.count(o.fragment))
        throw SpecError(o.where, fmt::format("value '{}' of qualifier '{}' selects fragment layout '{}', which 'fragments' does not define", o.text, a.name, o.fragment));
  return v;
}

// A fault case breaks a documented rule on purpose; the wmma cases at the edge of a rule
// (MinimalAlignment*) keep it, and are isolated only in case a GPU wants more.
bool breaks_a_rule(Fault f) { return f != Fault::None && f != Fault::MinimalAlignmentAddress && f != Fault::MinimalAlignmentStride; }

Claim read_claim(YamlReader r, const std::string& family, const CaseSet& cases) {
  r.expect_map({"id", "text", "source", "note", "check"});
  Claim c;
  c.family = family;
  c.where = r.where();
  c.id = read_identifier(r.at("id"), "a claim id");
  c.text = r.at("text").str();
  c.source = r.at("source").str();
  if (r.has("note")) c.note = r.at("note").str();
  YamlReader ck = r.at("check");
  std::string kind = ck.at("kind").str();
  if (kind == "cases") {
    ck.expect_map({"kind", "variant", "where", "cases", "expect", "controls"});
    c.check.kind = ClaimCheckKind::Cases;
    c.check.variant = ck.at("variant").str();
    if (ck.has("where"))
      for (auto& [k, vals] : ck.at("where").entries("'where' of a claim check")) {
        auto items = vals.items("qualifier values");
        if (items.empty()) vals.fail(fmt::format("claim '{}' selects no value of qualifier '{}'", c.id, k.str()));
        for (auto const& v : items) c.check.where[k.str()].push_back(v.str());
      }
    std::vector<YamlReader> case_items;
    if (ck.has("cases")) case_items = ck.at("cases").items("'cases' of a claim check");
    for (auto const& v : case_items) c.check.cases.push_back(v.str());
    Expect expect = Expect::Pass;
    try {
      expect = expect_from_string(ck.at("expect").str());
    } catch (const std::invalid_argument& e) {
      ck.at("expect").fail(e.what());
    }
    c.check.expect = expect;
    // What a claim predicts must fit its cases: a fault only where a case breaks a rule, and no
    // pass or fail where one does (a claim without 'cases' judges every case that is not a fault case).
    if (expect == Expect::Fault && case_items.empty())
      ck.at("expect").fail(fmt::format("claim '{}' expects a fault but names no cases, so it would judge only cases that are not fault "
                                       "cases; expected 'cases' naming fault cases",
                                       c.id));
    for (auto const& item : case_items) {
      const std::string name = item.str();
      auto cs = std::find_if(cases.cases.begin(), cases.cases.end(), [&](auto const& x) { return x.name == name; });
      if (cs == cases.cases.end()) continue;  // an unknown case: check_claim_refs says so
      if (expect == Expect::Fault && cs->fault == Fault::None)
        ck.at("expect").fail(fmt::format("claim '{}' expects a fault, but case '{}' is not a fault case (no 'fault:' in cases.yaml); "
                                         "expected only fault cases, or expect: pass, fail or observe",
                                         c.id, cs->name));
      if ((expect == Expect::Pass || expect == Expect::Fail) && breaks_a_rule(cs->fault))
        item.fail(fmt::format("claim '{}' expects '{}', but case '{}' is a fault case (it breaks a documented rule on purpose); "
                              "expected expect: fault or observe",
                              c.id, to_string(expect), cs->name));
    }
    if (ck.has("controls")) {
      if (expect != Expect::Fail && expect != Expect::Fault) ck.at("controls").fail("controls belong to claims that predict a failure or a fault (expect: fail or fault)");
      for (auto const& v : ck.at("controls").items("'controls' of a claim check")) {
        auto cs = std::find_if(cases.cases.begin(), cases.cases.end(), [&](auto const& x) { return x.name == v.str(); });
        if (cs != cases.cases.end() && cs->fault != Fault::None)
          v.fail(fmt::format("control case '{}' is a fault case; expected a case that keeps every documented rule", cs->name));
        c.check.controls.push_back(v.str());
      }
    } else if (expect == Expect::Fail || expect == Expect::Fault) {
      ck.at("expect").fail(fmt::format("a claim that predicts a {} needs 'controls': cases of the same kernels that must pass, so that a device that "
                                       "fails everything does not confirm it", expect == Expect::Fail ? "failure" : "fault"));
    }
  } else if (kind == "roundtrip") {
    ck.expect_map({"kind", "load", "store"});
    c.check.kind = ClaimCheckKind::Roundtrip;
    c.check.load = ck.at("load").str();
    c.check.store = ck.at("store").str();
  } else if (kind == "requirements") {
    ck.expect_map({"kind", "variant"});
    c.check.kind = ClaimCheckKind::Requirements;
    c.check.variant = ck.at("variant").str();
  } else {
    ck.at("kind").fail(fmt::format("unknown claim check kind '{}'; expected cases, roundtrip or requirements", kind));
  }
  return c;
}

AuditForm read_form(YamlReader r, const std::string& family, AuditForm::Kind kind, const SpecSet& specs) {
  const bool invalid = kind == AuditForm::Kind::Invalid;
  if (invalid) r.expect_map({"name", "text", "registers", "address_width", "target", "ptx", "diagnostic", "reason", "source"});
  else r.expect_map({"name", "text", "registers", "address_width", "target", "ptx", "source"});
  AuditForm f;
  f.kind = kind;
  f.family = family;
  f.where = r.where();
  f.name = read_identifier(r.at("name"), "a form name");
  f.text = r.at("text").str();
  bool regs = f.text.find("{regs}") != std::string::npos && f.text.find("{addr}") != std::string::npos;
  bool move = f.text.find("{dst}") != std::string::npos && f.text.find("{src}") != std::string::npos;
  bool mma = f.text.find("{d}") != std::string::npos && f.text.find("{c}") != std::string::npos;
  if (!regs && !move && !mma) r.at("text").fail("expected the instruction with {regs} and {addr} (or {dst} and {src}; or {d}, {a}, {b}, {c}) for its operands");
  const bool wmma = f.text.rfind("wmma.", 0) == 0;  // the emitter that assembles it fills these
  const std::set<std::string> known = wmma ? std::set<std::string>{"regs", "addr", "stride", "d", "a", "b", "c"}
                                           : std::set<std::string>{"regs", "addr", "dst", "src"};
  read_placeholders(r.at("text"), f.text, "the form's text", known,
                    wmma ? "{regs}, {addr}, {stride}, {d}, {a}, {b} or {c}" : "{regs}, {addr}, {dst} or {src}");
  if (mma) {  // wmma.mma: registers per operand
    for (auto& [k, n] : r.at("registers").entries("'registers' of a wmma.mma form (d, a, b, c)")) {
      std::string op = k.str();
      if (op != "d" && op != "a" && op != "b" && op != "c") k.fail(fmt::format("expected an operand d, a, b or c but found '{}'", op));
      f.operand_registers[op] = static_cast<int>(n.integer(1, 16));
    }
    for (const char* op : {"d", "a", "b", "c"})
      if (!f.operand_registers.count(op)) r.at("registers").fail(fmt::format("registers of operand '{}' missing", op));
  } else {
    f.registers = static_cast<int>(r.at("registers").integer(1, 16));
  }
  if (r.has("address_width")) {
    f.address_width = static_cast<int>(r.at("address_width").integer(32, 64));
    if (f.address_width != 32 && f.address_width != 64) r.at("address_width").fail(fmt::format("expected an address width of 32 or 64 but found {}", f.address_width));
  }
  f.target = r.at("target").str();
  if (!specs.targets.find(f.target)) r.at("target").fail(fmt::format("unknown target '{}'; expected a name from targets.yaml", f.target));
  if (r.has("ptx")) f.ptx = read_ptx(r.at("ptx"), &specs.targets);
  if (invalid) {
    f.diagnostic = r.at("diagnostic").str();
    if (!specs.find_diagnostic(f.diagnostic)) {
      std::vector<std::string> names;
      for (auto const& d : specs.diagnostics) names.push_back(d.name);
      r.at("diagnostic").fail(fmt::format("unknown diagnostic class '{}'; expected one of: {}", f.diagnostic, fmt::join(names, ", ")));
    }
    f.reason = r.at("reason").str();
  }
  f.source = r.at("source").str();
  return f;
}

std::vector<DiagnosticClass> read_diagnostics(YamlReader r) {
  r.expect_map({"classes"});
  std::vector<DiagnosticClass> out;
  for (auto item : r.at("classes").items("'classes'")) {
    item.expect_map({"name", "description", "patterns"});
    DiagnosticClass d;
    d.name = read_identifier(item.at("name"), "a diagnostic class name");
    for (auto const& prev : out)
      if (prev.name == d.name) item.at("name").fail(fmt::format("duplicate diagnostic class '{}'", d.name));
    d.description = item.at("description").str();
    for (auto const& p : item.at("patterns").items("'patterns'")) {
      std::string pattern = p.str();
      try {
        std::regex check(pattern);
      } catch (const std::regex_error& e) {
        p.fail(fmt::format("malformed regular expression '{}': {}", pattern, e.what()));
      }
      d.patterns.push_back(pattern);
    }
    if (d.patterns.empty()) item.at("patterns").fail("expected at least one pattern");
    out.push_back(std::move(d));
  }
  return out;
}

TargetCatalog read_targets(YamlReader r) {
  r.expect_map({"ptx_isa_versions", "toolkits", "targets"});
  TargetCatalog t;
  for (auto const& v : r.at("ptx_isa_versions").items("'ptx_isa_versions'")) {
    PtxVersion p = read_ptx(v, nullptr);
    if (!t.ptx_versions.empty() && !(t.ptx_versions.back() < p))
      v.fail(fmt::format("ptx_isa_versions must be in increasing order; {} comes after {}", p.str(), t.ptx_versions.back().str()));
    t.ptx_versions.push_back(p);
  }
  for (auto& [k, v] : r.at("toolkits").entries("'toolkits'")) {
    std::string release = k.str();
    static const std::regex cuda_release(R"(\d{1,2}\.\d{1,2})");
    if (!std::regex_match(release, cuda_release)) k.fail(fmt::format("expected a CUDA release like \"12.0\" but found '{}'", release));
    t.toolkits[release] = read_ptx(v, &t);
  }
  std::set<std::string> names;
  for (auto item : r.at("targets").items("'targets'")) {
    item.expect_map({"name", "arch", "ptx", "suffix", "family"});
    TargetInfo info;
    info.name = item.at("name").str();
    info.arch = static_cast<int>(item.at("arch").integer(10, 999));
    info.ptx = read_ptx(item.at("ptx"), &t);
    if (item.has("suffix")) {
      info.suffix = item.at("suffix").str();
      if (info.suffix != "" && info.suffix != "a" && info.suffix != "f")
        item.at("suffix").fail(fmt::format("unknown target suffix '{}'; expected \"\" (portable), a or f", info.suffix));
    }
    if (item.has("family")) info.family = static_cast<int>(item.at("family").integer(10, 999));
    std::string expected_name = fmt::format("sm_{}{}", info.arch, info.suffix);
    if (info.name != expected_name)
      item.at("name").fail(fmt::format("target name '{}' does not match arch {} and suffix '{}' (expected '{}')", info.name, info.arch, info.suffix, expected_name));
    if (!names.insert(info.name).second) item.fail(fmt::format("duplicate target '{}'", info.name));
    t.targets.push_back(info);
  }
  return t;
}

// cases.yaml 'mutants': the wrong devices, and what each may pass (with why).
void read_mutants(YamlReader r, CaseSet& s) {
  r.expect_map({"devices", "may_pass"});
  static const std::set<std::string> known{"echo", "zero", "shuffled", "off-by-one", "stale"};
  for (auto d : r.at("devices").items("'devices'")) {
    if (!known.count(d.str())) d.fail(fmt::format("unknown device '{}'; expected echo, zero, shuffled, off-by-one or stale", d.str()));
    s.mutants.push_back(d.str());
  }
  if (!r.has("may_pass")) return;
  for (auto item : r.at("may_pass").items("'may_pass'")) {
    item.expect_map({"mutant", "variants", "alone", "cases", "reason"});
    MutantException e;
    e.where = item.where();
    e.mutant = item.at("mutant").str();
    if (std::find(s.mutants.begin(), s.mutants.end(), e.mutant) == s.mutants.end())
      item.at("mutant").fail(fmt::format("'{}' is not one of the devices listed above", e.mutant));
    for (auto v : item.at("variants").items("'variants'")) e.variants.push_back(v.str());
    if (item.has("alone")) e.alone = item.at("alone").boolean();
    if (item.has("cases"))
      for (auto c : item.at("cases").items("'cases'")) e.cases.push_back(c.str());
    e.reason = item.at("reason").str();
    s.mutant_exceptions.push_back(std::move(e));
  }
}

CaseSet read_cases(YamlReader r) {
  r.expect_map({"warps", "tile_bytes", "regions", "cases", "wmma", "mutants"});
  CaseSet s;
  s.warps = static_cast<int>(r.at("warps").integer(1, 32));
  s.tile_bytes = static_cast<int>(r.at("tile_bytes").integer(256, 16384));
  s.regions = static_cast<int>(r.at("regions").integer(1, 4));
  if (s.tile_bytes % (16 * s.regions) != 0) r.at("tile_bytes").fail("tile_bytes must split into 16-byte aligned regions");
  if (s.warps * s.tile_bytes > 48 * 1024) r.fail("warps x tile_bytes must fit in 48 KiB of shared memory");
  std::set<std::string> names;
  for (auto item : r.at("cases").items("'cases'")) {
    item.expect_map({"name", "description", "data", "rows", "seed", "unused_lanes", "fault", "where"});
    CaseSpec c = read_case_basics(item, names);
    YamlReader rows = item.at("rows");
    c.where = rows.where();
    if (rows.node().IsMap()) {
      rows.expect_map({"pitch"});
      c.rows = RowPlacement::Pitch;
      c.pitch = static_cast<int>(rows.at("pitch").integer(16, 1024));
      if (c.pitch % 16 != 0) rows.at("pitch").fail(fmt::format("a pitch must keep rows 16-byte aligned; {} is not a multiple of 16", c.pitch));
    } else {
      std::string p = rows.str();
      if (p == "contiguous") c.rows = RowPlacement::Contiguous;
      else if (p == "scattered") c.rows = RowPlacement::Scattered;
      else rows.fail(fmt::format("unknown row placement '{}'; expected contiguous, scattered or {{pitch: N}}", p));
    }
    if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
    else if (c.data == DataKind::Random || c.rows == RowPlacement::Scattered)
      item.fail("random data and scattered rows need a 'seed', so that runs are repeatable");
    if (item.has("unused_lanes")) {
      std::string u = item.at("unused_lanes").str();
      if (u == "poison") c.poison_unused = true;
      else if (u != "repeat") item.at("unused_lanes").fail(fmt::format("unknown unused_lanes '{}'; expected poison or repeat", u));
    }
    if (item.has("fault")) {
      std::string f = item.at("fault").str();
      if (f == "misaligned") c.fault = Fault::Misaligned;
      else if (f == "outside-shared") c.fault = Fault::OutsideShared;
      else item.at("fault").fail(fmt::format("unknown fault '{}'; expected misaligned or outside-shared", f));
    }
    read_case_where(item, c);
    s.cases.push_back(c);
  }
  if (r.has("wmma")) read_wmma_cases(r.at("wmma"), s, names);
  if (r.has("mutants")) read_mutants(r.at("mutants"), s);
  return s;
}

// A wrong device's excuse names variants (a trailing '*' matches any ending) and cases that exist.
void check_mutant_exception_refs(const SpecSet& specs, const MutantException& e) {
  for (auto const& pat : e.variants) {
    const bool prefix = pat.ends_with("*");
    const std::string stem = prefix ? pat.substr(0, pat.size() - 1) : pat;
    if (std::none_of(specs.variants.begin(), specs.variants.end(),
                     [&](auto const& v) { return prefix ? v.name.starts_with(stem) : v.name == stem; }))
      throw SpecError(e.where, fmt::format("'{}' may pass variants '{}', which match no variant of the specs", e.mutant, pat));
  }
  for (auto const& name : e.cases)
    if (!specs.find_case(name)) throw SpecError(e.where, fmt::format("'{}' may pass unknown case '{}'", e.mutant, name));
}

void check_claim_refs(const SpecSet& specs, const Claim& c) {
  auto need_variant = [&](const std::string& name) -> const Variant& {
    const Variant* v = specs.find_variant(name);
    if (!v) throw SpecError(c.where, fmt::format("claim '{}' names unknown variant '{}'", c.id, name));
    return *v;
  };
  if (c.check.kind == ClaimCheckKind::Roundtrip) {
    const Variant& ld = need_variant(c.check.load);
    const Variant& st = need_variant(c.check.store);
    if (ld.operation != Operation::Load || st.operation != Operation::Store)
      throw SpecError(c.where, fmt::format("claim '{}': a round trip needs a load variant then a store variant", c.id));
    return;
  }
  const Variant& v = need_variant(c.check.variant);
  for (auto const& filter : c.check.where) {
    const std::string& axis = filter.first;
    const std::vector<std::string>& texts = filter.second;
    auto a = std::find_if(v.axes.begin(), v.axes.end(), [&](auto const& x) { return x.name == axis; });
    if (a == v.axes.end()) throw SpecError(c.where, fmt::format("claim '{}' filters on unknown qualifier '{}' of '{}'", c.id, axis, v.name));
    for (auto const& t : texts)
      if (std::none_of(a->options.begin(), a->options.end(), [&](auto const& o) { return o.text == t; }))
        throw SpecError(c.where, fmt::format("claim '{}' names unknown value '{}' of qualifier '{}'", c.id, t, axis));
  }
  for (auto const& name : c.check.cases)
    if (!specs.find_case(name)) throw SpecError(c.where, fmt::format("claim '{}' names unknown case '{}'", c.id, name));
  for (auto const& name : c.check.controls)
    if (!specs.find_case(name)) throw SpecError(c.where, fmt::format("claim '{}' names unknown control case '{}'", c.id, name));
}

// Each instruction form must come from one variant and one choice of its qualifier values: two
// would share a kernel name, results and claims. `seen`: every instance id so far, with its variant
// and that variant's syntax.
void check_distinct_instances(const Variant& v, const YamlReader& syntax, std::map<std::string, std::pair<std::string, SourceLocation>>& seen) {
  const std::vector<Instance> all = expand(v);
  std::map<std::string, const Instance*> mine;
  for (auto const& inst : all) {
    const std::string id = inst.id();
    if (auto [it, fresh] = mine.emplace(id, &inst); !fresh) {
      std::vector<std::string> first, second;  // the qualifier values that differ
      for (auto const& a : v.axes)
        if (it->second->option(a.name).text != inst.option(a.name).text) {
          first.push_back(fmt::format("{}: \"{}\"", a.name, it->second->option(a.name).text));
          second.push_back(fmt::format("{}: \"{}\"", a.name, inst.option(a.name).text));
        }
      syntax.fail(fmt::format("variant '{}' gives instance '{}' twice, with {{{}}} and with {{{}}}; expected each choice of qualifier "
                              "values to give a different instruction",
                              v.name, id, fmt::join(first, ", "), fmt::join(second, ", ")));
    }
    if (auto it = seen.find(id); it != seen.end())
      syntax.fail(fmt::format("instance '{}' of variant '{}' is also an instance of variant '{}' (syntax at {}); expected each "
                              "instruction form in one variant only",
                              id, v.name, it->second.first, it->second.second.str()));
  }
  for (auto const& [id, inst] : mine) seen.emplace(id, std::pair{v.name, syntax.where()});
}

// Every case must place every instance's rows inside one region of the tile.
void check_rows_fit(const Variant& v, const CaseSet& set) {
  const int region = set.tile_bytes / set.regions;
  const int stride = (v.row_bytes() + v.row_alignment - 1) / v.row_alignment * v.row_alignment;
  for (auto const& inst : expand(v)) {
    const Layout L = compute_layout(inst);
    const int rows = L.matrices * L.rows;
    for (auto const& c : set.cases) {
      if (c.wmma) continue;
      const int pitch = c.rows == RowPlacement::Pitch ? c.pitch : stride;
      if (c.rows == RowPlacement::Pitch && (pitch < v.row_bytes() || pitch % v.row_alignment != 0))
        throw SpecError(c.where, fmt::format("case '{}': a pitch of {} bytes cannot hold the {}-byte rows of {} aligned to {}", c.name, pitch,
                                             v.row_bytes(), inst.id(), v.row_alignment));
      const int need = c.rows == RowPlacement::Scattered ? rows * stride : (rows - 1) * pitch + v.row_bytes();
      if (need > region)
        throw SpecError(c.where, fmt::format("case '{}': the {} rows of {} need {} bytes; a region has {} (tile_bytes / regions)", c.name,
                                             rows, inst.id(), need, region));
    }
  }
}

}  // namespace

SpecSet load_specs(const std::vector<SpecFile>& files) {
  SpecSet specs;
  const SpecFile* targets = nullptr;
  const SpecFile* cases = nullptr;
  const SpecFile* diagnostics = nullptr;
  for (auto const& f : files) {
    std::string base = std::filesystem::path(f.path).filename().string();
    if (base == "targets.yaml") targets = &f;
    if (base == "cases.yaml") cases = &f;
    if (base == "diagnostics.yaml") diagnostics = &f;
  }
  if (!targets) throw SpecError({.file = "specs"}, "no targets.yaml among the spec files");
  if (!cases) throw SpecError({.file = "specs"}, "no cases.yaml among the spec files");
  specs.targets = read_targets(YamlReader(targets->path, parse_yaml(targets->path, targets->text), "targets.yaml"));
  specs.cases = read_cases(YamlReader(cases->path, parse_yaml(cases->path, cases->text), "cases.yaml"));
  if (diagnostics)  // optional: without it, no documented-invalid form can be declared
    specs.diagnostics = read_diagnostics(YamlReader(diagnostics->path, parse_yaml(diagnostics->path, diagnostics->text), "diagnostics.yaml"));

  std::map<std::string, SourceLocation> families;
  std::map<std::string, std::pair<std::string, SourceLocation>> instances;  // id -> variant, its syntax
  for (auto const& f : files) {
    if (&f == targets || &f == cases || &f == diagnostics) continue;
    YamlReader doc(f.path, parse_yaml(f.path, f.text), "a family spec");
    // 'definitions' holds YAML anchors that the rest of the file refers to; nothing reads it directly.
    doc.expect_map({"family", "definitions", "variants", "claims", "invalid", "spellings", "known_discrepancies"});
    std::string family = read_identifier(doc.at("family"), "a family name");
    if (auto it = families.find(family); it != families.end())
      doc.at("family").fail(fmt::format("family '{}' is already defined at {}", family, it->second.str()));
    families[family] = doc.at("family").where();
    specs.families.push_back(family);
    for (auto const& item : doc.at("variants").items("'variants'")) {
      Variant v = read_variant(item, family, specs.targets);
      if (const Variant* prev = specs.find_variant(v.name))
        item.at("name").fail(fmt::format("duplicate variant '{}' (first defined at {})", v.name, prev->where.str()));
      check_distinct_instances(v, item.at("syntax"), instances);
      specs.variants.push_back(std::move(v));
    }
    if (doc.has("claims"))
      for (auto const& item : doc.at("claims").items("'claims'")) {
        Claim c = read_claim(item, family, specs.cases);
        for (auto const& prev : specs.claims)
          if (prev.id == c.id) item.at("id").fail(fmt::format("duplicate claim '{}' (first defined at {})", c.id, prev.where.str()));
        specs.claims.push_back(std::move(c));
      }
    if (doc.has("known_discrepancies"))
      for (auto item : doc.at("known_discrepancies").items("'known_discrepancies'")) {
        item.expect_map({"variant", "target", "form", "observed", "source", "note"});
        KnownDiscrepancy k;
        k.where = item.where();
        if (item.has("form")) {
          k.form = item.at("form").str();
          if (item.has("variant") || item.has("target")) item.fail("a known discrepancy names a form, or a variant and a target, not both");
        } else {
          k.variant = item.at("variant").str();
          k.target = item.at("target").str();
          if (!specs.targets.find(k.target)) item.at("target").fail(fmt::format("unknown target '{}'; expected a name from targets.yaml", k.target));
        }
        std::string observed = item.at("observed").str();
        if (observed != "accepted" && observed != "rejected") item.at("observed").fail(fmt::format("expected accepted or rejected but found '{}'", observed));
        k.observed_accepted = observed == "accepted";
        k.source = item.at("source").str();
        if (item.has("note")) k.note = item.at("note").str();
        specs.known_discrepancies.push_back(std::move(k));
      }
    for (auto [key, kind] : {std::pair{"invalid", AuditForm::Kind::Invalid}, std::pair{"spellings", AuditForm::Kind::Spelling}})
      if (doc.has(key))
        for (auto const& item : doc.at(key).items(fmt::format("'{}'", key))) {
          AuditForm form = read_form(item, family, kind, specs);
          for (auto const& prev : specs.forms)
            if (prev.name == form.name) item.at("name").fail(fmt::format("duplicate form '{}' (first defined at {})", form.name, prev.where.str()));
          specs.forms.push_back(std::move(form));
        }
  }
  for (auto const& c : specs.claims) check_claim_refs(specs, c);
  for (auto const& e : specs.cases.mutant_exceptions) check_mutant_exception_refs(specs, e);
  for (auto const& k : specs.known_discrepancies) {
    if (!k.form.empty() && std::none_of(specs.forms.begin(), specs.forms.end(), [&](auto const& f) { return f.name == k.form; }))
      throw SpecError(k.where, fmt::format("known discrepancy names unknown form '{}'", k.form));
    if (k.form.empty() && !specs.find_variant(k.variant))
      throw SpecError(k.where, fmt::format("known discrepancy names unknown variant '{}'", k.variant));
  }
  // A case's 'where' must name qualifier values that some variant has.
  for (auto const& c : specs.cases.cases)
    for (auto const& [axis, texts] : c.only)
      for (auto const& t : texts) {
        bool known = false;
        for (auto const& v : specs.variants)
          for (auto const& a : v.axes)
            if (a.name == axis)
              for (auto const& o : a.options) known = known || o.text == t;
        if (!known) throw SpecError(c.where, fmt::format("case '{}' selects value '{}' of qualifier '{}', which no variant has", c.name, t, axis));
      }
  for (auto const& v : specs.variants)
    if (v.has_layout) check_layouts(v);
  for (auto const& v : specs.variants)
    if (v.has_layout && v.operation != Operation::Move) check_rows_fit(v, specs.cases);
  return specs;
}

SpecSet load_spec_dir(const std::filesystem::path& dir) {
  std::vector<SpecFile> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw SpecError({.file = dir.string()}, "expected a directory of spec files (*.yaml)");
  // Spec files end in ".yaml". Any other name with .yaml or .yml in it (stmatrix.yml,
  // LDMATRIX.YAML, ldmatrix.yaml.bak, an editor's backup) looks like a spec but would not be read:
  // refuse it rather than run without it.
  std::vector<std::filesystem::path> paths, misnamed;
  for (auto const& e : std::filesystem::directory_iterator(dir)) {
    std::string lower = e.path().filename().string();
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (e.path().extension() == ".yaml") paths.push_back(e.path());
    else if (lower.find(".yaml") != std::string::npos || lower.find(".yml") != std::string::npos) misnamed.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::sort(misnamed.begin(), misnamed.end());
  if (!misnamed.empty())
    throw SpecError({.file = misnamed.front().string()},
                    "this file would not be read: spec files end in '.yaml' (lower case, nothing after it); expected it renamed, "
                    "or moved out of the specs directory");
  for (auto const& p : paths) {
    std::optional<std::string> text;
    if (std::filesystem::is_regular_file(p, ec)) text = try_read_file_text(p);
    if (!text)  // a directory, a broken link (an editor's lock file), no permission
      throw SpecError({.file = p.string()}, "cannot read this file; expected every *.yaml in the specs directory to be a readable spec file");
    files.push_back({.path = p.string(), .text = std::move(*text)});
  }
  return load_specs(files);
}

}  // namespace ptxcts

#include "spec/spec_fields.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "spec/element_format.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {
namespace {

// ">= sm_XY" or "<= sm_XY": every target of that architecture or later (or earlier), any suffix.
TargetSetItem read_arch_bound(const YamlReader& r, const std::string& s, const TargetCatalog& targets) {
  const std::string op = s.substr(0, 2), num = s.substr(std::string(">= sm_").size());
  const bool digits = !num.empty() && num.size() <= 3 && std::all_of(num.begin(), num.end(), ::isdigit);
  if (!digits) r.fail(fmt::format("expected '{} sm_XY' with XY a number but found '{}'", op, s));
  TargetSetItem item{.kind = op == ">=" ? TargetSetItem::Kind::AtLeast : TargetSetItem::Kind::AtMost,
                     .arch = std::stoi(num),
                     .name = ""};
  if (std::none_of(targets.targets.begin(), targets.targets.end(), [&](auto const& t) { return t.arch == item.arch; }))
    r.fail(fmt::format("unknown target 'sm_{}' in '{}'; expected an architecture from targets.yaml", num, s));
  return item;
}

TargetSetItem read_target_item(const YamlReader& r, const std::string& s, const TargetCatalog& targets) {
  if (s.rfind(">= sm_", 0) == 0 || s.rfind("<= sm_", 0) == 0) return read_arch_bound(r, s, targets);
  TargetSetItem item;
  item.name = s;
  item.kind = TargetSetItem::Kind::Exact;
  if (!s.empty() && s.back() == '+') {
    item.name = s.substr(0, s.size() - 1);
    item.kind = TargetSetItem::Kind::FamilyFrom;
  }
  const TargetInfo* t = targets.find(item.name);
  if (!t)
    r.fail(fmt::format(
        "unknown target '{}'; expected '>= sm_XY', '<= sm_XY', a target name from targets.yaml, or 'sm_XYf+'", s));
  if (item.kind == TargetSetItem::Kind::FamilyFrom && (t->suffix != "f" || t->family == 0))
    r.fail(fmt::format("'{}': only a family-specific target (sm_XYf, with a family in targets.yaml) can start a family",
                       s));
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

}  // namespace

PtxVersion read_ptx(const YamlReader& r, const TargetCatalog* targets) {
  std::string s = r.str();
  auto v = PtxVersion::parse(s);
  if (!v) r.fail(fmt::format("expected a PTX ISA version like \"7.8\" but found '{}'", s));
  if (targets &&
      std::find(targets->ptx_versions.begin(), targets->ptx_versions.end(), *v) == targets->ptx_versions.end())
    r.fail(fmt::format("PTX ISA version {} is not in targets.yaml's ptx_isa_versions", s));
  return *v;
}

Requirement read_requirement(YamlReader r, const TargetCatalog& targets, bool need_all) {
  r.expect_map({"ptx", "targets", "source"});
  Requirement req;
  if (need_all || r.has("ptx")) req.ptx = read_ptx(r.at("ptx"), &targets);
  if (need_all || r.has("targets")) req.targets = read_target_set(r.at("targets"), targets);
  req.source = r.at("source").str();
  return req;
}

// The placeholders of a syntax or a form's text, counted. Braces must pair up around a name in
// `known`: a stray one would reach ptxas, and the audit would blame ptxas for it.
std::map<std::string, int> read_placeholders(const YamlReader& r, const std::string& text, const std::string& what,
                                             const std::set<std::string>& known, const std::string& expected) {
  std::map<std::string, int> used;
  for (std::size_t p = 0; p < text.size(); ++p) {
    if (text[p] == '}')
      throw SpecError(r.where_in_scalar(p),
                      fmt::format("'}}' without its '{{' in {}; expected placeholders written {{name}}", what));
    if (text[p] != '{') continue;
    std::size_t close = text.find_first_of("{}", p + 1);
    if (close == std::string::npos || text[close] == '{')
      throw SpecError(r.where_in_scalar(p),
                      fmt::format("unclosed '{{' in {}; expected '}}' after the placeholder's name", what));
    std::string name = text.substr(p + 1, close - p - 1);
    if (!known.count(name))
      throw SpecError(r.where_in_scalar(p + 1),
                      fmt::format("unknown placeholder '{{{}}}' in {}; expected {}", name, what, expected));
    ++used[name];
    p = close;
  }
  return used;
}

std::vector<ExtraOperand> read_extra_operands(const YamlReader& r, const std::set<std::string>& reserved) {
  std::vector<ExtraOperand> out;
  for (auto& [k, v] : r.entries("'operands'")) {
    ExtraOperand o;
    o.name = read_identifier(k, "an operand name");
    o.where = k.where();
    if (reserved.count(o.name))
      k.fail(fmt::format("'{}' is already a placeholder of the syntax (an operand or a qualifier); expected a new name",
                         o.name));
    YamlReader m = v;
    m.expect_map({"words", "type", "elements", "immediates"});
    o.words = m.at("words").str();
    o.type = m.at("type").str();
    if (o.type.size() < 2 || o.type[0] != '.')
      m.at("type").fail(fmt::format("expected a register type such as .b32 but found '{}'", o.type));
    if (m.has("elements")) o.elements = static_cast<int>(m.at("elements").integer(1, 8));
    if (m.has("immediates")) o.immediates = m.at("immediates").boolean();
    out.push_back(std::move(o));
  }
  return out;
}

std::string fill_syntax(const std::string& s, const std::function<const std::string*(const std::string&)>& value) {
  std::string out;
  for (std::size_t p = 0; p < s.size(); ++p) {
    const std::size_t close = s[p] == '{' ? s.find('}', p) : std::string::npos;
    if (close == std::string::npos) {
      out += s[p];
      continue;
    }
    const std::string* v = value(s.substr(p + 1, close - p - 1));
    out += v ? *v : s.substr(p, close - p + 1);
    p = close;
  }
  return out;
}

Formula read_formula(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what) {
  std::string text = r.str();
  Formula f;
  try {
    f = Formula::parse(text);
  } catch (const FormulaSyntaxError& e) {
    throw SpecError(r.where_in_scalar(e.column),
                    fmt::format("malformed formula '{}' for {}: {}", text, what, e.what()));
  }
  for (auto const& v : f.variables())
    if (!allowed.count(v))
      r.fail(fmt::format("formula '{}' for {} uses unknown variable '{}'; expected one of: {}", text, what, v,
                         fmt::join(allowed, ", ")));
  return f;
}

CaseSpec read_case_basics(const YamlReader& item, std::set<std::string>& names) {
  CaseSpec c;
  c.name = read_identifier(item.at("name"), "a case name");
  if (!names.insert(c.name).second) item.at("name").fail(fmt::format("duplicate case '{}'", c.name));
  c.description = item.at("description").str();
  std::string data = item.at("data").str();
  if (data == "unique") c.data = DataKind::Unique;
  else if (data == "random") c.data = DataKind::Random;
  else item.at("data").fail(fmt::format("unknown data kind '{}'; expected unique or random", data));
  return c;
}

void read_case_where(const YamlReader& item, CaseSpec& c) {
  if (!item.has("where")) return;
  for (auto& [k, vals] : item.at("where").entries("'where' of a case")) {
    auto items = vals.items("qualifier values");
    if (items.empty()) vals.fail(fmt::format("case '{}' selects no value of qualifier '{}'", c.name, k.str()));
    for (auto const& v : items) c.only[k.str()].push_back(v.str());
  }
}

void read_case_undefined(const YamlReader& item, CaseSpec& c, const TargetCatalog& targets) {
  if (!item.has("undefined")) return;
  for (auto u : item.at("undefined").items("'undefined' of a case")) {
    u.expect_map({"targets", "families", "words", "source", "fake_device"});
    UndefinedOn on;
    on.where = u.where();
    on.targets = read_target_set(u.at("targets"), targets);
    if (u.has("families"))
      for (auto const& f : u.at("families").items("'families'")) on.families.push_back(read_identifier(f, "a family"));
    on.words = u.at("words").str();
    on.source = u.at("source").str();
    on.fake_device = u.at("fake_device").str();
    if (on.fake_device != "fault" && on.fake_device != "garbage" && on.fake_device != "hang")
      u.at("fake_device").fail(
          fmt::format("unknown fake device behaviour '{}'; expected fault, garbage or hang", on.fake_device));
    c.undefined.push_back(std::move(on));
  }
}

const QualifierAxis* find_axis(const Variant& v, const std::string& name) {
  for (auto const& a : v.axes)
    if (a.name == name) return &a;
  return nullptr;
}

AxisOrFixed read_element(const YamlReader& r, const Variant& v) {
  std::string text = r.str();
  if (const QualifierAxis* a = find_axis(v, text)) {
    for (auto const& o : a->options)
      if (!find_element_format(o.text))
        throw SpecError(o.where, fmt::format("value '{}' of qualifier '{}' is not an element type; expected one of: {}",
                                             o.text, text, fmt::join(element_format_names(), ", ")));
    return {.axis = text, .fixed = ""};
  }
  if (!find_element_format(text))
    r.fail(fmt::format("expected a qualifier of '{}' or an element type ({}) but found '{}'", v.name,
                       fmt::join(element_format_names(), ", "), text));
  return {.axis = "", .fixed = text};
}

std::string read_axis_name(const YamlReader& r, const Variant& v, const std::vector<std::string>& values) {
  std::string name = r.str();
  const QualifierAxis* a = find_axis(v, name);
  if (!a) r.fail(fmt::format("expected a qualifier of '{}' but found '{}'", v.name, name));
  for (auto const& o : a->options)
    if (std::find(values.begin(), values.end(), o.text) == values.end())
      throw SpecError(o.where, fmt::format("value '{}' of qualifier '{}' is not one of: \"{}\"", o.text, name,
                                           fmt::join(values, "\", \"")));
  return name;
}

}  // namespace ptxcts

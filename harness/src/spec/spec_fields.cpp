#include "spec/spec_fields.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "spec/spec_error.hpp"

namespace ptxcts {

Formula read_formula(const YamlReader& r, const std::set<std::string>& allowed, const std::string& what) {
  std::string text = r.str();
  Formula f;
  try {
    f = Formula::parse(text);
  } catch (const FormulaSyntaxError& e) {
    throw SpecError(r.where_in_scalar(e.column), fmt::format("malformed formula '{}' for {}: {}", text, what, e.what()));
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

}  // namespace ptxcts

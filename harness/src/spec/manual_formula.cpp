#include "spec/manual_formula.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace ptxcts {
namespace {

std::string trim(std::string_view s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  const auto b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

// `word` as a whole word in `s` at or after `from` (npos if absent).
std::size_t find_word(const std::string& s, const std::string& word, std::size_t from = 0) {
  for (std::size_t at = s.find(word, from); at != std::string::npos; at = s.find(word, at + 1)) {
    const bool start = at == 0 || s[at - 1] == ' ';
    const bool end = at + word.size() == s.size() || s[at + word.size()] == ' ';
    if (start && end) return at;
  }
  return std::string::npos;
}

// "for ai where COND" -> COND; "for a0 and a2" -> i == 0 || i == 2; "for ai" -> nothing.
std::string element_selection(const std::string& clause, int line) {
  static const std::regex all(R"(^[abcd]i(\s+where\s+(.*))?$)");
  static const std::regex listed(R"(^[abcd]\d+(\s+and\s+[abcd]\d+)*$)");
  std::smatch m;
  if (std::regex_match(clause, m, all)) return m[2].matched ? trim(m[2].str()) : "";
  if (std::regex_match(clause, listed)) {
    static const std::regex number(R"([abcd](\d+))");
    std::string out;
    for (auto it = std::sregex_iterator(clause.begin(), clause.end(), number); it != std::sregex_iterator(); ++it)
      out += (out.empty() ? "i == " : " || i == ") + (*it)[1].str();
    return out;
  }
  throw ManualFormulaError(line, 0,
                           fmt::format("expected 'ai where CONDITION' or elements like 'a0 and a2' after 'for' but "
                                       "found '{}'",
                                       clause));
}

Formula parse_part(const std::string& manual, int line, std::size_t column, const char* what) {
  const std::string text = manual_to_formula(manual);
  try {
    return Formula::parse(text);
  } catch (const FormulaSyntaxError& e) {
    throw ManualFormulaError(line, column + std::min(e.column, manual.size()),
                             fmt::format("cannot read the {} '{}': {}", what, manual, e.what()));
  }
}

}  // namespace

std::string manual_to_formula(std::string_view text) {
  // Compiled once: every formula of the specs passes here on each load.
  static const std::regex laneid(R"(%laneid)"), hex(R"(\b0[xX]([0-9a-fA-F]+)\b)"), binary(R"(\b0[bB]([01]+)\b)");
  std::string s(text);
  s = std::regex_replace(s, laneid, "laneid");
  auto literals = [&](const std::regex& re, int base) {
    std::string out;
    std::size_t last = 0;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
      out += s.substr(last, static_cast<std::size_t>(it->position()) - last);
      out += std::to_string(std::stoll((*it)[1].str(), nullptr, base));
      last = static_cast<std::size_t>(it->position() + it->length());
    }
    s = out + s.substr(last);
  };
  literals(hex, 16);
  literals(binary, 2);
  // i = {0,..,3} (a range: its first and last numbers), i = {0, 1} (a set)
  static const std::regex set(R"((\w+)\s*=\s*\{([^}]*)\})");
  std::smatch m;
  while (std::regex_search(s, m, set)) {
    const std::string var = m[1].str(), items = m[2].str();
    static const std::regex number(R"(-?\d+)");
    std::vector<std::string> nums;
    for (auto it = std::sregex_iterator(items.begin(), items.end(), number); it != std::sregex_iterator(); ++it)
      nums.push_back(it->str());
    std::string cond;
    if (items.find("..") != std::string::npos && nums.size() == 2)
      cond = fmt::format("({0} >= {1} && {0} <= {2})", var, nums[0], nums[1]);
    else
      for (auto const& n : nums) cond += (cond.empty() ? "(" : " || ") + var + " == " + n;
    if (cond.empty() || cond.back() != ')') cond += ")";
    s = m.prefix().str() + cond + m.suffix().str();
  }
  // 0 <= i < 2: two comparisons on one operand, as in mathematics
  static const std::regex chain(R"((\w+)\s*(<=|<|>=|>)\s*(\w+)\s*(<=|<|>=|>)\s*(\w+))");
  s = std::regex_replace(s, chain, "($1 $2 $3 && $3 $4 $5)");
  // a lone '=' compares
  std::string out;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const bool lone = s[k] == '=' && (k == 0 || std::string("<>=!").find(s[k - 1]) == std::string::npos) &&
                      (k + 1 == s.size() || s[k + 1] != '=');
    out += lone ? "==" : std::string(1, s[k]);
  }
  return out;
}

ManualFormula ManualFormula::parse(std::string_view text) {
  ManualFormula f;
  f.text_ = std::string(text);
  int line_no = -1;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::string_view raw = text.substr(start, nl == std::string_view::npos ? text.size() - start : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    std::string line = trim(raw);
    const std::size_t indent = raw.find_first_not_of(" \t");
    if (line.empty()) continue;
    if (line.rfind("where ", 0) == 0) {  // where X = (...) for ci where ...: a name for a sub-formula
      static const std::regex local(R"(^where\s+(\w+)\s*=\s*(.*)$)");
      std::smatch m;
      if (!std::regex_match(line, m, local))
        throw ManualFormulaError(line_no, indent, fmt::format("expected 'where NAME = FORMULA' but found '{}'", line));
      std::string body = m[2].str();
      const std::size_t domain = find_word(body, "for");  // the elements it is defined for: every one
      if (domain != std::string::npos) body = trim(body.substr(0, domain));
      f.locals_.push_back({.name = m[1].str(), .value = parse_part(body, line_no, indent, "definition")});
      continue;
    }
    Case c;
    c.line = line;
    std::string rest = line;
    for (const char* word : {"otherwise", "Otherwise"}) {
      const std::size_t at = find_word(rest, word);
      if (at != std::string::npos && at + std::string(word).size() == rest.size()) {
        c.otherwise = true;
        rest = trim(rest.substr(0, at));
      }
    }
    // "for ai where" and, in the sparse sections (9.7.14.6.2.2, .6, .8), "For ai where"
    const std::size_t for_at = std::min(find_word(rest, "for"), find_word(rest, "For")), if_at = find_word(rest, "if");
    const std::size_t value_end = std::min(for_at, if_at);
    const std::string value = trim(rest.substr(0, std::min(value_end, rest.size())));
    if (value.empty()) throw ManualFormulaError(line_no, indent, fmt::format("expected a value before '{}'", line));
    c.value = parse_part(value, line_no, indent, "value");
    std::string when;
    if (for_at != std::string::npos) {
      const std::string clause = trim(rest.substr(for_at + 3, (if_at > for_at ? if_at : rest.size()) - for_at - 3));
      when = element_selection(clause, line_no);
    }
    if (if_at != std::string::npos) {
      const std::string cond = trim(rest.substr(if_at + 2, (for_at > if_at ? for_at : rest.size()) - if_at - 2));
      when = when.empty() ? cond : "(" + when + ") && (" + cond + ")";
    }
    if (!when.empty()) c.when = parse_part(when, line_no, indent + value_end, "condition");
    f.cases_.push_back(std::move(c));
  }
  if (f.cases_.empty()) throw ManualFormulaError(0, 0, "expected at least one line giving a value");
  return f;
}

std::int64_t ManualFormula::eval(const Bindings& bindings) const {
  Bindings b = bindings;
  for (auto const& l : locals_) b.set(l.name, l.value.eval(b));
  // In order: an "otherwise" case is reached only where no case before it held.
  for (auto const& c : cases_)
    if (c.when.empty() || c.when.eval(b) != 0) return c.value.eval(b);
  std::string given;
  for (auto const& [n, v] : bindings.items()) given += fmt::format("{}{} = {}", given.empty() ? "" : ", ", n, v);
  throw FormulaEvalError(fmt::format("no line of '{}' applies where {}", text_, given));
}

std::set<std::string> ManualFormula::variables() const {
  std::set<std::string> out, local;
  for (auto const& l : locals_) local.insert(l.name);
  auto add = [&](const Formula& f) {
    if (f.empty()) return;
    for (auto const& v : f.variables())
      if (!local.count(v)) out.insert(v);
  };
  for (auto const& l : locals_) add(l.value);
  for (auto const& c : cases_) add(c.value), add(c.when);
  return out;
}

}  // namespace ptxcts

#include "judge/form_ranges.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

namespace ptxcts {
namespace {

using Pattern = std::vector<std::set<std::string>>;  // the values of each qualifier

Pattern pattern_of(const std::string& form) {
  const std::string mnemonic = form.substr(0, form.find(' '));
  Pattern p;
  std::size_t at = 0;
  while (true) {
    const std::size_t dot = mnemonic.find('.', at + 1);
    p.push_back({mnemonic.substr(at, dot == std::string::npos ? std::string::npos : dot - at)});
    if (dot == std::string::npos) return p;
    at = dot;
  }
}

// One pass over qualifier `q`: patterns alike but for it become one.
bool merge_at(std::vector<Pattern>& patterns, std::size_t q) {
  std::map<std::string, std::size_t> by_rest;
  std::vector<Pattern> out;
  for (auto& p : patterns) {
    // Appended, not formatted: a warm audit merges every finding's forms (fmt::join here was 2% of it).
    std::string rest = std::to_string(p.size());
    for (std::size_t k = 0; k < p.size(); ++k) {
      rest += '|';
      if (k == q) {
        rest += '*';
        continue;
      }
      for (auto v = p[k].begin(); v != p[k].end(); ++v) rest.append(v == p[k].begin() ? "" : ",").append(*v);
    }
    if (q >= p.size()) rest += "#" + std::to_string(out.size());  // too short to merge here
    auto [it, fresh] = by_rest.emplace(rest, out.size());
    if (fresh) out.push_back(std::move(p));
    else out[it->second][q].insert(p[q].begin(), p[q].end());
  }
  const bool merged = out.size() < patterns.size();
  patterns = std::move(out);
  return merged;
}

std::string text_of(const Pattern& p) {
  std::string s;
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (p[k].size() == 1) {
      s += *p[k].begin();
      continue;
    }
    std::vector<std::string> bare;  // ".row" -> "row" inside the braces
    for (auto const& v : p[k]) bare.push_back(v.rfind('.', 0) == 0 ? v.substr(1) : v);
    s += fmt::format("{}{{{}}}", k ? "." : "", fmt::join(bare, ","));
  }
  return s;
}

}  // namespace

std::vector<std::string> form_ranges(const std::set<std::string>& forms) {
  std::vector<Pattern> patterns;
  std::set<std::string> seen;
  for (auto const& f : forms)
    if (seen.insert(f.substr(0, f.find(' '))).second) patterns.push_back(pattern_of(f));
  std::size_t longest = 0;
  for (auto const& p : patterns) longest = std::max(longest, p.size());
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t q = 0; q < longest; ++q) merged = merge_at(patterns, q) || merged;
  }
  std::vector<std::string> out;
  for (auto const& p : patterns) out.push_back(text_of(p));
  return out;
}

}  // namespace ptxcts

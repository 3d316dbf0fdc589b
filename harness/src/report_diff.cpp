#include "report_diff.hpp"

#include <fmt/format.h>

#include <map>

#include "report_json.hpp"

namespace ptxcts {

int ReportDiff::regressions() const {
  int n = 0;
  for (auto const& c : cases) n += c.worse;
  for (auto const& c : claims) n += c.worse;
  return n;
}

ReportDiff diff_reports(const RunReport& a, const RunReport& b) {
  ReportDiff d;
  for (auto const& f : run_info_fields()) {
    if (std::string(f.key) == "date" || std::string(f.key) == "host") continue;
    if (a.info.*f.member != b.info.*f.member) d.run_changes.push_back(fmt::format("{}: {} -> {}", f.key, a.info.*f.member, b.info.*f.member));
  }
  std::map<std::string, std::pair<std::string, std::string>> cases;
  for (auto const& r : a.results) cases[r.kernel + " / " + r.case_name].first = to_string(r.status);
  for (auto const& r : b.results) cases[r.kernel + " / " + r.case_name].second = to_string(r.status);
  for (auto const& [what, s] : cases)
    if (s.first != s.second) d.cases.push_back({what, s.first, s.second, s.first == "pass" && !s.second.empty()});
  std::map<std::string, std::string> layout_before;
  for (auto const& r : a.results)
    if (!r.observed_layout.empty()) layout_before[r.kernel + " / " + r.case_name] = r.observed_layout;
  for (auto const& r : b.results) {
    auto it = layout_before.find(r.kernel + " / " + r.case_name);
    if (it != layout_before.end() && !r.observed_layout.empty() && it->second != r.observed_layout) d.layouts.push_back(it->first);
  }
  std::map<std::string, std::pair<std::string, std::string>> claims;
  for (auto const& c : a.claims) claims[c.id].first = to_string(c.verdict);
  for (auto const& c : b.claims) claims[c.id].second = to_string(c.verdict);
  for (auto const& [id, v] : claims)
    if (v.first != v.second) d.claims.push_back({id, v.first, v.second, v.first == "confirmed" && !v.second.empty()});
  return d;
}

std::string format_diff(const ReportDiff& d) {
  std::string out;
  for (auto const& r : d.run_changes) out += "run     " + r + "\n";
  auto side = [](const std::string& s) { return s.empty() ? std::string("(absent)") : s; };
  for (auto const& c : d.cases)
    out += fmt::format("{} {}: {} -> {}\n", c.worse ? "WORSE  " : "changed", c.what, side(c.before), side(c.after));
  for (auto const& c : d.claims)
    out += fmt::format("{} claim {}: {} -> {}\n", c.worse ? "WORSE  " : "changed", c.what, side(c.before), side(c.after));
  for (auto const& k : d.layouts) out += fmt::format("layout  {}: the fragment's register layout differs (see observed_layout)\n", k);
  out += fmt::format("{} case changes, {} claim changes, {} regressions", d.cases.size(), d.claims.size(), d.regressions());
  out += d.layouts.empty() ? "\n" : fmt::format(", {} fragment layouts changed (observations)\n", d.layouts.size());
  return out;
}

}  // namespace ptxcts

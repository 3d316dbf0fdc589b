#include "report/report_diff.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "results/report_json.hpp"

namespace ptxcts {

int ReportDiff::regressions() const {
  int n = 0;
  for (auto const* list : {&cases, &claims, &lost_layouts})
    for (auto const& c : *list) n += c.regression();
  return n;
}

ReportDiff diff_reports(const RunReport& a, const RunReport& b) {
  ReportDiff d;
  for (auto const& f : run_info_fields()) {
    if (std::string(f.key) == "date" || std::string(f.key) == "host") continue;
    if (a.info.*f.member != b.info.*f.member)
      d.run_changes.push_back(fmt::format("{}: {} -> {}", f.key, a.info.*f.member, b.info.*f.member));
  }
  std::map<std::string, std::string> withdrawn;  // what -> why
  for (auto const& w : b.withdrawn) withdrawn.emplace(w.what, w.reason);
  auto why = [&](const std::string& what) {
    auto it = withdrawn.find(what);
    return it == withdrawn.end() ? std::string() : it->second;
  };
  // Something that was there before and is not now is a regression: a report with half its
  // results missing must not read as "0 regressions".
  auto change = [&](const std::string& what, const std::string& before, const std::string& after, const char* good,
                    const std::string& withdrawal_name) {
    ReportChange c{what, before, after, before == good && !after.empty(), !before.empty() && after.empty(), ""};
    if (c.lost) c.withdrawn = why(withdrawal_name);
    return c;
  };

  std::map<std::string, std::pair<std::string, std::string>> cases;
  for (auto const& r : a.results) cases[r.kernel + " / " + r.case_name].first = to_string(r.status);
  for (auto const& r : b.results) cases[r.kernel + " / " + r.case_name].second = to_string(r.status);
  for (auto const& [what, s] : cases)
    if (s.first != s.second) d.cases.push_back(change(what, s.first, s.second, "pass", what));

  std::set<std::string> counted;  // results already a regression: their layout counts with them
  for (auto const& c : d.cases)
    if (c.worse) counted.insert(c.what);
  std::map<std::string, std::string> layout_before;
  for (auto const& r : a.results)
    if (!r.observed_layout.empty()) layout_before[r.kernel + " / " + r.case_name] = r.observed_layout;
  for (auto const& r : b.results) {
    auto it = layout_before.find(r.kernel + " / " + r.case_name);
    if (it == layout_before.end()) continue;
    if (r.observed_layout.empty()) {
      if (!counted.count(it->first))
        d.lost_layouts.push_back(change(it->first, "observed", "", "", "layout " + it->first));
    } else if (it->second != r.observed_layout) {
      d.layouts.push_back(it->first);
    }
  }

  std::map<std::string, std::pair<std::string, std::string>> claims;
  for (auto const& c : a.claims) claims[c.id].first = to_string(c.verdict);
  for (auto const& c : b.claims) claims[c.id].second = to_string(c.verdict);
  // Only a confirmation can be lost: confirmed -> observed is worse; observed <-> not-checkable is a change.
  for (auto const& [id, v] : claims)
    if (v.first != v.second) d.claims.push_back(change(id, v.first, v.second, "confirmed", "claim " + id));
  return d;
}

std::string format_diff(const ReportDiff& d) {
  std::string out;
  for (auto const& r : d.run_changes) out += "run     " + r + "\n";
  auto side = [](const std::string& s) { return s.empty() ? std::string("(absent)") : s; };
  auto line = [&](const ReportChange& c, const char* kind) {
    const char* label = c.worse ? "WORSE  " : c.regression() ? "LOST   " : "changed";
    std::string withdrawn = c.withdrawn.empty() ? "" : fmt::format(" (withdrawn: {})", c.withdrawn);
    return fmt::format("{} {}{}: {} -> {}{}\n", label, kind, c.what, side(c.before), side(c.after), withdrawn);
  };
  for (auto const& c : d.cases) out += line(c, "");
  for (auto const& c : d.claims) out += line(c, "claim ");
  for (auto const& c : d.lost_layouts) out += line(c, "layout ");
  for (auto const& k : d.layouts)
    out += fmt::format("layout  {}: the fragment's register layout differs (see observed_layout)\n", k);
  int lost = 0;
  for (auto const* list : {&d.cases, &d.claims, &d.lost_layouts})
    for (auto const& c : *list) lost += c.lost && c.withdrawn.empty();
  out += fmt::format("{} case changes, {} claim changes, {} regressions ({} lost)", d.cases.size(), d.claims.size(),
                     d.regressions(), lost);
  out += d.layouts.empty() ? "\n" : fmt::format(", {} fragment layouts changed (observations)\n", d.layouts.size());
  return out;
}

}  // namespace ptxcts

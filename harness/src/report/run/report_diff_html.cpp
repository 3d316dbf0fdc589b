#include "report/run/report_diff_html.hpp"

#include <fmt/format.h>

#include <map>

#include "kinds/kinds.hpp"
#include "report/layout_svg.hpp"
#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"
#include "results/outcome.hpp"

namespace ptxcts {

namespace {

std::string run_name(const RunInfo& i) {
  return fmt::format("{} ({}), driver {}, CUDA {}, commit {}, {}", i.gpu_name, i.sm, i.driver_version, i.cuda_release,
                     i.suite_commit, i.date);
}

// The changes of one kind, grouped by what they went from and to ("pass -> fail") and then by family,
// each group collapsed with its count (a run where everything changed stays a short page); the
// regressions' groups first.
void changes_groups(pugi::xml_node s, const char* heading, const std::vector<ReportChange>& changes) {
  el(s, "h3", {}, fmt::format("{} ({})", heading, count_text(static_cast<long long>(changes.size()))));
  if (changes.empty()) return;
  auto side = [](const std::string& v) { return v.empty() ? std::string("(absent)") : v; };
  // Regressions first (0), then new documentation findings (1), then the other changes (2).
  std::map<std::pair<int, std::string>, std::map<std::string, std::vector<const ReportChange*>>> groups;
  for (auto const& c : changes) {
    groups[{c.regression() ? 0 : c.new_finding ? 1 : 2, side(c.before) + " \u2192 " + side(c.after)}][c.family]
        .push_back(&c);
  }
  for (auto const& [key, by_family] : groups) {
    int n = 0;
    for (auto const& [_, v] : by_family) n += static_cast<int>(v.size());
    pugi::xml_node d = el(s, "details", {{"class", "group"}});
    pugi::xml_node sum = el(d, "summary");
    el(sum, "span", {{"class", key.first == 0 ? "badge fail" : key.first == 1 ? "badge contradicted" : "badge zero"}},
       key.first == 0 ? "regression" : key.first == 1 ? "new documentation finding" : "change");
    text(sum, fmt::format("{}: {}", key.second, count_text(n)));
    for (auto const& [family, v] : by_family) {
      pugi::xml_node fd = el(el(d, "div"), "details");
      el(fd, "summary", {}, fmt::format("{}: {}", family.empty() ? "claims and layouts" : family, count_text(static_cast<long long>(v.size()))));
      pugi::xml_node tb = table(el(fd, "div"), {"What", "Withdrawn"});
      for (auto const* c : v) {
        pugi::xml_node tr = el(tb, "tr");
        el(tr, "td", {{"class", "mono"}}, c->what);
        el(tr, "td", {}, c->withdrawn);
      }
    }
  }
}

// The observed fragment layouts that changed (of the kinds that observe layouts): one figure per
// distinct change (the layout before and now), drawn as it is now with what changed marked, and the
// cases that saw that change listed under it.
void layouts_changed(pugi::xml_node body, const RunReport& before, const RunReport& after, const ReportDiff& d) {
  pugi::xml_node s = section(body, "layouts",
                             fmt::format("{} fragment layouts that changed ({})", layout_observers(),
                                         count_text(static_cast<long long>(d.layouts.size()))));
  if (d.layouts.empty()) return;
  el(s, "p", {},
     "One figure per distinct change, drawn as the later report has it: a register part whose element changed "
     "is marked, and says what it held before. Under each, the cases that saw that change.");
  std::map<std::string, const CaseResult*> old_by_key, new_by_key;
  for (auto const& r : before.results) old_by_key[case_id(r)] = &r;
  for (auto const& r : after.results) new_by_key[case_id(r)] = &r;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> changes;
  std::vector<std::pair<std::string, std::string>> order;
  for (auto const& key : d.layouts) {
    auto o = old_by_key.find(key), n = new_by_key.find(key);
    if (o == old_by_key.end() || n == new_by_key.end()) continue;
    auto& cases = changes[{o->second->observed_layout, n->second->observed_layout}];
    if (cases.empty()) order.push_back({o->second->observed_layout, n->second->observed_layout});
    cases.push_back(key);
  }
  for (auto const& pair : order) {
    auto const& cases = changes[pair];
    pugi::xml_node d = el(s, "details");
    el(d, "summary", {},
       fmt::format("{}{}", cases.front(), cases.size() > 1 ? fmt::format(" and {} more cases", cases.size() - 1) : ""));
    pugi::xml_node fig = el(d, "figure", {{"class", "layout-observed"}});
    auto was = parse_observed_layout(pair.first);
    auto now = parse_observed_layout(pair.second);
    if (now) draw_observed_layout(fig, *now, was ? &*was : nullptr);
    else el(fig, "pre", {}, pair.second);
    el(fig, "figcaption", {}, fmt::format("{}", fmt::join(cases, ", ")));
  }
}

}  // namespace

std::string diff_html(const RunReport& before, const RunReport& after, const ReportDiff& d) {
  HtmlPage page("ptxcts diff");
  el(page.body, "h1", {},
     d.toolchains ? std::string("ptxcts diff: driver JIT and precompiled cubin") : std::string("ptxcts diff"));
  el(page.body, "p",
     {{"id", "verdict"}, {"class", d.findings() ? "verdict needs-action" : "verdict conforms"}},
     diff_verdict_line(d, false));
  for (auto const& line : diff_summary_lines(d)) el(page.body, "p", {{"class", "summary"}}, line);
  pugi::xml_node s = section(page.body, "run", "The two runs");
  pugi::xml_node tb = table(s, {});
  for (auto [k, info] : {std::pair{"Before", &before.info}, std::pair{"After", &after.info}}) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, k);
    el(tr, "td", {}, run_name(*info));
  }
  for (auto const& c : d.run_changes) el(s, "p", {}, c);
  if (d.toolchains) {  // findings first: where the driver's JIT and the cubin disagree
    s = section(page.body, "findings", "JIT and precompiled cubin disagree");
    pugi::xml_node t = table(s, {"Case", "Before", "After"});
    for (auto const& g : d.disagreements) {
      pugi::xml_node tr = el(t, "tr");
      el(tr, "td", {}, g.what);
      el(el(tr, "td"), "pre", {}, g.before);
      el(el(tr, "td"), "pre", {}, g.after);
    }
    for (auto const& n : d.not_compared) el(s, "p", {}, "Not compared: " + n);
  }
  s = section(page.body, "changes", "What changed");
  changes_groups(s, "Cases", d.cases);
  changes_groups(s, "Claims", d.claims);
  changes_groups(s, "Layouts observed before and not now", d.lost_layouts);
  layouts_changed(page.body, before, after, d);
  return page.str();
}

}  // namespace ptxcts

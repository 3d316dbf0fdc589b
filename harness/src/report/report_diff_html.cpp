#include "report/report_diff_html.hpp"

#include <fmt/format.h>

#include <map>

#include "report/html_document.hpp"
#include "report/html_page_parts.hpp"
#include "report/layout_svg.hpp"

namespace ptxcts {

namespace {

std::string run_name(const RunInfo& i) {
  return fmt::format("{} ({}), driver {}, CUDA {}, commit {}, {}", i.gpu_name, i.sm, i.driver_version, i.cuda_release,
                     i.suite_commit, i.date);
}

void changes_table(pugi::xml_node s, const char* heading, const std::vector<ReportChange>& changes) {
  el(s, "h3", {}, fmt::format("{} ({})", heading, changes.size()));
  if (changes.empty()) return;
  pugi::xml_node tb = table(s, {"What", "Before", "After", ""});
  for (auto const& c : changes) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {{"class", "mono"}}, c.what);
    el(tr, "td", {{"class", c.before}}, c.before.empty() ? "(absent)" : c.before);
    el(tr, "td", {{"class", c.after}}, c.after.empty() ? "(absent)" : c.after);
    el(tr, "td", {{"class", c.regression() ? "fail" : ""}},
       c.regression()         ? "regression"
       : !c.withdrawn.empty() ? "withdrawn: " + c.withdrawn
                              : "");
  }
}

}  // namespace

std::string diff_html(const RunReport& before, const RunReport& after, const ReportDiff& d) {
  HtmlPage page("ptxcts diff");
  el(page.body, "h1", {},
     d.toolchains ? fmt::format("ptxcts diff: JIT and precompiled cubin disagree on {} case(s)", d.disagreements.size())
                  : fmt::format("ptxcts diff: {} regression(s)", d.regressions()));
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
  changes_table(s, "Cases", d.cases);
  changes_table(s, "Claims", d.claims);
  changes_table(s, "Layouts observed before and not now", d.lost_layouts);
  s = section(page.body, "layouts", fmt::format("wmma fragment layouts that changed ({})", d.layouts.size()));
  el(s, "p", {},
     "Each drawn as the later report has it; a purple outline marks a register part whose element changed "
     "(its tooltip says what it held before), a red one an element held more than once.");
  std::map<std::string, const CaseResult*> old_by_key, new_by_key;
  for (auto const& r : before.results) old_by_key[r.kernel + " / " + r.case_name] = &r;
  for (auto const& r : after.results) new_by_key[r.kernel + " / " + r.case_name] = &r;
  for (auto const& key : d.layouts) {
    auto o = old_by_key.find(key), n = new_by_key.find(key);
    if (o == old_by_key.end() || n == new_by_key.end()) continue;
    pugi::xml_node fig = el(s, "figure", {{"class", "layout-observed"}});
    auto was = parse_observed_layout(o->second->observed_layout);
    auto now = parse_observed_layout(n->second->observed_layout);
    if (now) draw_observed_layout(fig, *now, was ? &*was : nullptr);
    else el(fig, "pre", {}, n->second->observed_layout);
    el(fig, "figcaption", {}, key);
  }
  return page.str();
}

}  // namespace ptxcts

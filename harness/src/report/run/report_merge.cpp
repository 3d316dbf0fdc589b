#include "report/run/report_merge.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "kinds/kinds.hpp"
#include "report/layout_svg.hpp"
#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"
#include "report/run/report_files.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"
#include "results/report_kind.hpp"

namespace ptxcts {

int Fleet::differing() const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const FleetRow& r) { return r.differs; }));
}

bool Fleet::aligned(std::size_t m) const {
  return runs[m].suite_commit == aligned_commit && runs[m].specs == aligned_specs;
}

std::size_t Fleet::aligned_count() const {
  std::size_t n = 0;
  for (std::size_t m = 0; m < runs.size(); ++m) n += aligned(m);
  return n;
}

namespace {

// The suite commit and specs most reports share (the first given, of equals): the aligned runs.
std::pair<std::string, std::string> alignment_of(const std::vector<RunReport>& reports) {
  std::map<std::pair<std::string, std::string>, std::size_t> count;
  std::pair<std::string, std::string> best;
  std::size_t most = 0;
  for (auto const& r : reports) {
    const auto key = std::make_pair(r.info.suite_commit, r.info.specs);
    if (++count[key] > most) most = count[key], best = key;
  }
  return best;
}

}  // namespace

std::string alignment_note(const Fleet& f, std::size_t m) {
  if (f.aligned(m)) return "";
  const RunInfo& i = f.runs[m];
  auto specs = [](const std::string& s) { return s.empty() ? std::string("(not recorded)") : s.substr(0, 12); };
  return fmt::format("not aligned: suite commit {}, specs {}; the fleet's: commit {}, specs {}", i.suite_commit,
                     specs(i.specs), f.aligned_commit, specs(f.aligned_specs));
}

Fleet merge_reports(const std::vector<RunReport>& reports, std::vector<MissingRun> missing) {
  Fleet f;
  f.missing = std::move(missing);
  std::tie(f.aligned_commit, f.aligned_specs) = alignment_of(reports);
  std::map<std::string, std::size_t> row_of, layout_of;
  std::size_t last = 0;  // the row put last
  auto put = [&](const std::string& what, std::size_t m, const std::string& value) {
    auto [it, fresh] = row_of.emplace(what, f.rows.size());
    last = it->second;
    if (fresh) f.rows.push_back({.what = what, .values = std::vector<std::string>(reports.size()), .differs = false});
    f.rows[it->second].values[m] = value;
  };
  for (std::size_t m = 0; m < reports.size(); ++m) {
    const RunReport& r = reports[m];
    std::string name = report_basename(r.info);
    // Two reports of one name (two GPUs of a model) stay apart.
    if (std::find(f.machines.begin(), f.machines.end(), name) != f.machines.end()) name += fmt::format(" #{}", m + 1);
    f.machines.push_back(name);
    f.runs.push_back(r.info);
    f.verdicts.push_back(verdict_line(r));
    f.tones.push_back(verdict_tone(r));
    f.tallies.push_back(tally(r.results));
    for (auto const& c : r.results) {
      put(case_id(c), m, token(outcome_of(c)));
      f.rows[last].family = c.family;  // the page groups by it
      if (c.observed_layout.empty()) continue;
      auto [it, fresh] = layout_of.emplace(c.observed_layout, f.layouts.size());
      if (fresh) f.layouts.push_back(c.observed_layout);
      put("layout " + case_id(c), m, fmt::format("L{}", it->second));
    }
    for (auto const& v : r.claims) put("claim " + v.id, m, to_string(v.verdict));
  }
  // Only aligned columns are compared: another commit's or other specs' answers are other questions.
  for (auto& row : f.rows) {
    const std::string* first = nullptr;
    for (std::size_t m = 0; m < row.values.size(); ++m) {
      if (!f.aligned(m)) continue;
      if (!first) first = &row.values[m];
      else row.differs = row.differs || row.values[m] != *first;
    }
  }
  std::stable_partition(f.rows.begin(), f.rows.end(), [](const FleetRow& r) { return r.differs; });
  return f;
}

std::string fleet_json(const Fleet& f) {
  nlohmann::ordered_json j;
  // 2: aligned runs, missing runs, the runs' schema 8 fields; 3: cases by outcome (results/outcome's
  // tokens: a fault case that faulted is "faulted", never "crash"), each machine's verdict line
  // 4: what could not be read (unread)
  j["fleet_schema_version"] = 4;
  j["kind"] = std::string(report_kind_name(ReportKind::Fleet));
  j["aligned"] = {{"suite_commit", f.aligned_commit}, {"specs", f.aligned_specs}};
  j["machines"] = nlohmann::ordered_json::array();
  for (std::size_t m = 0; m < f.machines.size(); ++m) {
    nlohmann::ordered_json run;
    for (auto const& field : run_info_fields()) run[field.key] = f.runs[m].*field.member;
    j["machines"].push_back({{"name", f.machines[m]},
                             {"aligned", f.aligned(m)},
                             {"note", alignment_note(f, m)},
                             {"verdict", f.verdicts[m]},
                             {"run", run}});
  }
  j["missing"] = nlohmann::ordered_json::array();
  for (auto const& m : f.missing) j["missing"].push_back({{"task", m.task}, {"host", m.host}, {"reason", m.reason}});
  j["unread"] = nlohmann::ordered_json::array();
  for (auto const& u : f.unread) j["unread"].push_back({{"path", u.path}, {"why", u.why}});
  j["differing"] = f.differing();
  j["rows"] = nlohmann::ordered_json::array();
  for (auto const& r : f.rows) j["rows"].push_back({{"what", r.what}, {"values", r.values}, {"differs", r.differs}});
  j["layouts"] = f.layouts;
  return j.dump(1) + "\n";
}

namespace {

const char* tone_class(VerdictTone t) {
  return t == VerdictTone::Conforms ? "conforms" : t == VerdictTone::DoesNotConform ? "needs-action" : "unchecked";
}

}  // namespace

// The fleet's verdict: every aligned run's, in parts that add up to the aligned runs, and how many rows
// differ between them.
std::pair<std::string, VerdictTone> fleet_verdict(const Fleet& f) {
  std::size_t conform = 0, failing = 0, aligned = 0;
  for (std::size_t m = 0; m < f.machines.size(); ++m) {
    if (!f.aligned(m)) continue;
    ++aligned;
    conform += f.tones[m] == VerdictTone::Conforms;
    failing += f.tones[m] == VerdictTone::DoesNotConform;
  }
  const std::string runs = fmt::format("{} aligned run{}: {} need{} action, {} conform{}, {} checked nothing", aligned,
                                       aligned == 1 ? "" : "s", failing, failing == 1 ? "s" : "", conform,
                                       conform == 1 ? "s" : "", aligned - conform - failing);
  const std::string differ = fmt::format("{} of {} rows differ between the aligned machines", count_text(f.differing()),
                                         count_text(static_cast<long long>(f.rows.size())));
  const std::string missing =
      f.missing.empty() ? "" : fmt::format("; {} expected run{} left no report", f.missing.size(), f.missing.size() == 1 ? "" : "s");
  const std::string unread =
      f.unread.empty() ? ""
                       : fmt::format("; {} input{} could not be read (the merge is incomplete)", f.unread.size(),
                                     f.unread.size() == 1 ? "" : "s");
  // A column of another suite commit or specs is left out of the comparison, so the fleet is not
  // shown to conform (merge exits 1 for it, as for a missing run): the verdict says so.
  const std::size_t apart = f.machines.size() - aligned;
  const std::string not_aligned =
      apart == 0 ? ""
                 : fmt::format("; {} run{} not aligned (another suite commit or specs: not compared)", apart,
                               apart == 1 ? "" : "s");
  if (failing || !f.missing.empty() || !f.unread.empty() || apart)
    return {fmt::format("Does not conform: {}{}{}{}; {}.", runs, missing, not_aligned, unread, differ),
            VerdictTone::DoesNotConform};
  if (conform == aligned && aligned > 0)
    return {fmt::format("Conforms: {}; {}.", runs, differ), VerdictTone::Conforms};
  return {fmt::format("Nothing checked: {}; {}.", runs, differ), VerdictTone::NothingChecked};
}

namespace {

// A cell of the fleet's table: a case's outcome in words (its colour the outcome's), a claim's
// verdict, a layout's name (a link to its figure), or absent.
void fleet_cell(pugi::xml_node tr, std::string_view kind, const std::string& v) {
  if (v.empty()) {
    el(tr, "td", {{"class", "untested"}}, "(absent)");
  } else if (kind == "layout") {
    el(el(tr, "td"), "a", {{"href", "#layout-" + v}}, v);
  } else if (kind == "case") {
    const Outcome o = outcome_from_token(v);
    el(tr, "td", {{"class", token(o)}}, label(o));
  } else {
    el(tr, "td", {{"class", v}}, v);
  }
}

constexpr int kOpenGroupRows = 200;

// The machines' columns grouped by GPU model, in the order given within a model.
std::vector<std::size_t> column_order(const Fleet& f) {
  std::vector<std::size_t> order(f.machines.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return f.runs[a].gpu_name < f.runs[b].gpu_name; });
  return order;
}

const char* row_kind(const FleetRow& r) {
  return r.what.starts_with("claim ") ? "claim" : r.what.starts_with("layout ") ? "layout" : "case";
}

// A row's group on the page: a case's family, the claims, the layouts.
std::string row_group(const FleetRow& r) {
  const std::string_view kind = row_kind(r);
  if (kind == "claim") return "claims";
  if (kind == "layout") return "layouts";
  return r.family.empty() ? "cases" : r.family;
}

bool same_everywhere(const FleetRow& r) {
  return std::adjacent_find(r.values.begin(), r.values.end(), std::not_equal_to<>()) == r.values.end();
}

// Two heading rows: the GPU models (a cell spanning their machines), then the machines' numbers.
void grid_head(pugi::xml_node t, const Fleet& f, const std::vector<std::size_t>& order) {
  pugi::xml_node head = el(t, "thead");
  pugi::xml_node models = el(head, "tr"), numbers = el(head, "tr");
  el(models, "th", {{"rowspan", "2"}}, "What");
  for (std::size_t k = 0; k < order.size();) {
    std::size_t n = 1;
    while (k + n < order.size() && f.runs[order[k + n]].gpu_name == f.runs[order[k]].gpu_name) ++n;
    const RunInfo& i = f.runs[order[k]];
    el(models, "th", {{"colspan", std::to_string(n)}, {"class", "model"}}, fmt::format("{} ({})", i.gpu_name, i.sm));
    k += n;
  }
  for (std::size_t m : order)
    el(numbers, "th", {{"title", f.aligned(m) ? f.machines[m] : f.machines[m] + " (" + alignment_note(f, m) + ")"}},
       fmt::format("{}{}", m + 1, f.aligned(m) ? "" : " (not aligned)"));
}

// A group's rows: a cell per run of neighbouring columns with one value (a row the same on every
// machine, one cell across them all), so that 16 machines of a few kinds stay a few cells a row.
void grid_rows(pugi::xml_node tb, const std::vector<const FleetRow*>& rows, const std::vector<std::size_t>& order) {
  for (const FleetRow* r : rows) {
    const char* kind = row_kind(*r);
    pugi::xml_node tr =
        el(tb, "tr", {{"data-family", row_group(*r)}, {"data-name", r->what}, {"class", r->differs ? "differs" : ""}});
    el(tr, "td", {{"class", r->differs ? "mono diffcol" : "mono"}}, r->what);
    for (std::size_t k = 0; k < order.size();) {
      std::size_t n = 1;
      while (k + n < order.size() && r->values[order[k + n]] == r->values[order[k]]) ++n;
      fleet_cell(tr, kind, r->values[order[k]]);
      if (n > 1) tr.last_child().append_attribute("colspan").set_value(std::to_string(n).c_str());
      k += n;
    }
  }
}

// The cases, claims and layouts, a collapsible group per family (then claims, layouts): the groups
// with differences first and open; in each, the rows that are not the same on every machine, then
// those that are, folded.
void fleet_grid(pugi::xml_node body, const Fleet& f) {
  pugi::xml_node s = section(body, "fleet-section", "Cases, claims and layouts per machine (differences first)");
  legend(s, {{"pass", "passed"},
             {"fail", "failed, error, crashed, timed out: needs action"},
             {"not-supported", "not supported, skipped"},
             {"faulted", "fault case: faulted as the rule says"},
             {"no-fault", "fault case: ran without a fault"},
             {"undefined", "undefined on its target: observed"}});
  el(s, "p", {},
     fmt::format("A group per family, then the claims and the layouts; those with rows that differ between the "
                 "aligned machines first, open (those with more than {} such rows closed). The columns are grouped by "
                 "GPU model; a value the same on neighbouring columns is one cell across them.",
                 kOpenGroupRows));
  std::vector<std::string> names;
  std::map<std::string, std::vector<const FleetRow*>> varied, same;
  std::map<std::string, int> differ;
  for (auto const& r : f.rows) {
    const std::string g = row_group(r);
    if (!varied.count(g) && !same.count(g)) names.push_back(g);
    (same_everywhere(r) ? same : varied)[g].push_back(&r);
    differ[g] += r.differs;
  }
  std::stable_sort(names.begin(), names.end(), [&](auto const& a, auto const& b) { return differ[a] > differ[b]; });
  filter_box(s, "fleet", std::set<std::string>(names.begin(), names.end()), "groups");
  const std::vector<std::size_t> order = column_order(f);
  pugi::xml_node list = el(s, "div", {{"id", "fleet"}});
  for (auto const& g : names) {
    const std::size_t n = varied[g].size() + same[g].size();
    // No data-name: the filter's words search the group's rows.
    pugi::xml_node d = el(list, "details", {{"class", "fleet-group"}, {"data-family", g}});
    // Open where it differs, unless so much does (a machine failing every case) that the page would
    // open slowly: then its summary says how much, and a click shows it.
    if (differ[g] > 0 && differ[g] <= kOpenGroupRows) d.append_attribute("open").set_value("");
    el(d, "summary", {}, fmt::format("{}: {} of {} rows differ", g, count_text(differ[g]), count_text(static_cast<long long>(n))));
    if (!varied[g].empty()) {
      pugi::xml_node t = el(scroll_box(d, true), "table", {{"class", "fleet"}});
      grid_head(t, f, order);
      grid_rows(el(t, "tbody"), varied[g], order);
    }
    if (same[g].empty()) continue;
    pugi::xml_node folded = el(d, "details", {{"class", "same-all"}});
    el(folded, "summary", {},
       fmt::format("{} rows the same on every machine", count_text(static_cast<long long>(same[g].size()))));
    pugi::xml_node t = el(scroll_box(folded, true), "table", {{"class", "fleet"}});
    grid_head(t, f, order);
    grid_rows(el(t, "tbody"), same[g], order);
  }
}

// First what the fleet lacks: the runs expected that left no report, and what could not be read.
void lacking_sections(pugi::xml_node body, const Fleet& f) {
  pugi::xml_node s;
  if (!f.missing.empty()) {  // first: what the fleet lacks
    s = section(body, "missing", "Missing runs (expected, no report)");
    pugi::xml_node mt = table(s, {"Task", "Host", "Why"});
    for (auto const& m : f.missing) {
      pugi::xml_node tr = el(mt, "tr", {{"class", "missing"}});
      el(tr, "td", {}, m.task);
      el(tr, "td", {}, m.host.empty() ? "(unknown)" : m.host);
      el(tr, "td", {}, m.reason);
    }
  }
  if (!f.unread.empty()) {  // then what the merge could not read: it is incomplete without them
    s = section(body, "unread", "Not read (the merge is incomplete)");
    pugi::xml_node ut = table(s, {"Path", "Why"});
    for (auto const& u : f.unread) {
      pugi::xml_node tr = el(ut, "tr", {{"class", "unread"}});
      el(tr, "td", {{"class", "mono"}}, u.path);
      el(tr, "td", {}, u.why);
    }
  }
}

// The machines, a column each: what ran where, whether it is aligned, its cases by outcome.
void machines_section(pugi::xml_node body, const Fleet& f) {
  pugi::xml_node s = section(body, "run", "The machines");
  pugi::xml_node tb = table(s, {"Column", "GPU", "Driver", "Toolkit", "Commit", "Date", "Aligned"});
  for (std::size_t m = 0; m < f.machines.size(); ++m) {
    const RunInfo& i = f.runs[m];
    pugi::xml_node tr = el(tb, "tr", {{"class", f.aligned(m) ? "" : "not-aligned"}});
    el(tr, "td", {}, fmt::format("{}: {}", m + 1, f.machines[m]));
    el(tr, "td", {},
       fmt::format("{} ({}){}{}", i.gpu_name, i.sm, i.gpu_index.empty() ? "" : ", GPU " + i.gpu_index,
                   i.gpu_uuid.empty() ? "" : " " + i.gpu_uuid) +
           (i.host.empty() ? "" : " on " + i.host));
    el(tr, "td", {}, i.driver_version);
    el(tr, "td", {},
       fmt::format("CUDA {}, ptxas {}{}", i.cuda_release, i.ptxas_version, ran_driver_jit(i) ? "; driver JIT" : ""));
    el(tr, "td", {}, i.suite_commit);
    el(tr, "td", {}, i.date);
    el(tr, "td", {}, f.aligned(m) ? "yes" : alignment_note(f, m));
  }
  // Each machine's cases by outcome: red only for what needs action, fault observations neutral, zero grey.
  el(s, "h3", {}, "Cases by outcome");
  pugi::xml_node ot = el(scroll_box(s), "table", {{"id", "outcomes"}});
  pugi::xml_node oh = el(el(ot, "thead"), "tr");
  el(oh, "th", {}, "Column");
  for (Outcome o : kOutcomes) el(oh, "th", {}, label(o));
  pugi::xml_node ob = el(ot, "tbody");
  for (std::size_t m = 0; m < f.machines.size(); ++m) {
    pugi::xml_node tr = el(ob, "tr");
    el(tr, "td", {}, std::to_string(m + 1));
    for (Outcome o : kOutcomes) {
      const int n = f.tallies[m][o];
      el(tr, "td", {{"class", n ? token(o) : "zero"}}, count_text(n));
    }
  }
}

}  // namespace

std::string fleet_html(const Fleet& f) {
  HtmlPage page("ptxcts fleet");
  const std::size_t aligned = f.aligned_count();
  el(page.body, "h1", {},
     fmt::format("ptxcts fleet: {} machines ({} aligned{}), {} of {} rows differ", f.machines.size(), aligned,
                 (f.missing.empty() ? "" : fmt::format(", {} runs missing", f.missing.size())) +
                     (f.unread.empty() ? "" : fmt::format(", {} inputs not read", f.unread.size())),
                 f.differing(), f.rows.size()));
  // The verdict first: the fleet's, then each run's own line.
  auto [verdict, tone] = fleet_verdict(f);
  el(page.body, "p", {{"id", "verdict"}, {"class", std::string("verdict ") + tone_class(tone)}}, verdict);
  pugi::xml_node runs = el(page.body, "ol", {{"class", "run-verdicts"}});
  for (std::size_t m = 0; m < f.machines.size(); ++m) {
    pugi::xml_node li = el(runs, "li", {{"class", std::string("verdict ") + tone_class(f.tones[m])}});
    el(li, "span", {{"class", "mono"}}, f.machines[m] + (f.aligned(m) ? "" : " (not aligned)") + ": ");
    text(li, f.verdicts[m]);
  }
  lacking_sections(page.body, f);
  machines_section(page.body, f);
  fleet_grid(page.body, f);
  pugi::xml_node s = section(page.body, "layouts", "Observed " + layout_observers() + " layouts");
  for (std::size_t k = 0; k < f.layouts.size(); ++k) {
    pugi::xml_node d = el(s, "details", {{"id", fmt::format("layout-L{}", k)}});
    el(d, "summary", {}, fmt::format("L{}", k));
    pugi::xml_node fig = el(d, "figure", {{"class", "layout-observed"}});
    if (auto L = parse_observed_layout(f.layouts[k])) draw_observed_layout(fig, *L);
    else el(fig, "pre", {}, f.layouts[k]);
  }
  return page.str();
}

}  // namespace ptxcts

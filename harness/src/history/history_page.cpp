#include "history/history_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"

namespace ptxcts {

namespace {

constexpr std::size_t kTransitionsShown = 40;  // per cell; the rest counted ("ptxcts history changes" has every one)
constexpr std::size_t kEvidenceChars = 240;

using FormKey = std::pair<std::string, std::string>;  // family, form

// A column: one GPU model x driver x toolkit, its runs (time order) and the form rows of the latest.
struct Column {
  std::string model, driver, toolkit;
  std::vector<const HistoryRun*> runs;
  std::map<FormKey, std::vector<const HistoryCase*>> forms;
  int previous = -1;  // the model's column before this one, -1: the model's first
};

struct Transition {
  std::string id;
  std::string before, after;  // outcome labels, "absent" where the case was not in the run
  std::string evidence;
  bool worse = false;  // into an outcome that needs action, from one that did not
};

bool acting(Outcome o) { return o == Outcome::Fail || o == Outcome::Error || o == Outcome::Crash || o == Outcome::Timeout; }

std::string clip(std::string s) {
  if (s.size() > kEvidenceChars) s = s.substr(0, kEvidenceChars) + "...";
  return s;
}

// Columns grouped by GPU model (models by name), a model's columns by the date of their first run.
std::vector<Column> columns_of(const std::vector<HistoryRun>& runs) {
  std::vector<const HistoryRun*> sorted;
  for (auto const& r : runs) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->date < b->date; });
  std::vector<Column> cols;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> at;
  for (const HistoryRun* r : sorted) {
    auto [it, fresh] = at.try_emplace({r->gpu_model, r->driver, r->toolkit}, cols.size());
    if (fresh) cols.push_back({r->gpu_model, r->driver, r->toolkit, {}, {}, -1});
    cols[it->second].runs.push_back(r);
  }
  std::stable_sort(cols.begin(), cols.end(), [](auto const& a, auto const& b) { return a.model < b.model; });
  for (std::size_t c = 0; c < cols.size(); ++c) {
    if (c > 0 && cols[c - 1].model == cols[c].model) cols[c].previous = static_cast<int>(c - 1);
    for (auto const& k : cols[c].runs.back()->cases) cols[c].forms[{k.family, k.form}].push_back(&k);
  }
  return cols;
}

std::string counts_text(const std::vector<const HistoryCase*>& cases) {
  if (cases.empty()) return "-";
  std::map<Outcome, int> n;
  for (auto* k : cases) ++n[k->outcome];
  std::string s;
  for (Outcome o : kOutcomes)
    if (n.count(o)) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", n[o], token(o));
  return s;
}

// The cell's class: the outcome of its worst case (needs action first), "zero" where none ran.
std::string tone_of(const std::vector<const HistoryCase*>& cases) {
  if (cases.empty()) return "zero";
  bool fail = false, pass = false, observed = false;
  for (auto* k : cases) {
    fail |= acting(k->outcome);
    pass |= k->outcome == Outcome::Pass;
    observed |= k->outcome == Outcome::Faulted || k->outcome == Outcome::RanWithoutFault ||
                k->outcome == Outcome::Undefined || k->outcome == Outcome::FaultedWhereAllowed;
  }
  return fail ? "fail" : pass ? "pass" : observed ? "faulted" : "not-supported";
}

std::vector<Transition> transitions(const std::vector<const HistoryCase*>& before,
                                    const std::vector<const HistoryCase*>& after, const HistoryRun& run,
                                    const EvidenceOf& evidence) {
  auto why = [&](const HistoryCase& k) { return clip(run.has_evidence || !evidence ? k.evidence : evidence(run, k)); };
  std::map<std::string, const HistoryCase*> was;
  for (auto* k : before) was[k->id] = k;
  std::vector<Transition> out;
  for (auto* k : after) {
    auto it = was.find(k->id);
    if (it != was.end() && it->second->outcome == k->outcome) {
      was.erase(it);
      continue;
    }
    const bool had = it != was.end();
    out.push_back({k->id, had ? label(it->second->outcome) : "absent", label(k->outcome), why(*k),
                   acting(k->outcome) && (!had || !acting(it->second->outcome))});
    if (had) was.erase(it);
  }
  for (auto const& [id, k] : was) out.push_back({id, label(k->outcome), "absent", "not in the later run", false});
  return out;
}

// A changed cell: its counts as the summary of a <details> listing the transitions.
void changed_cell(pugi::xml_node td, const std::string& counts, const std::vector<Transition>& ts) {
  const auto worse = std::count_if(ts.begin(), ts.end(), [](auto const& t) { return t.worse; });
  pugi::xml_node d = el(td, "details");
  el(d, "summary", {},
     fmt::format("{} ({} changed{})", counts, ts.size(), worse ? fmt::format(", {} worse", worse) : std::string()));
  pugi::xml_node ul = el(d, "ul");
  for (std::size_t i = 0; i < ts.size() && i < kTransitionsShown; ++i) {
    pugi::xml_node li = el(ul, "li", {{"class", ts[i].worse ? "worse" : ""}});
    el(li, "code", {}, ts[i].id);
    text(li, fmt::format(": {} \u2192 {}", ts[i].before, ts[i].after));
    if (!ts[i].evidence.empty()) text(li, ": " + ts[i].evidence);
  }
  if (ts.size() > kTransitionsShown)
    el(ul, "li", {}, fmt::format("... and {} more (ptxcts history changes lists every one)", ts.size() - kTransitionsShown));
}

struct Cell {
  std::string counts, tone;
  std::vector<Transition> changes;
};

Cell cell_of(const std::vector<Column>& cols, std::size_t c, const FormKey& row, const EvidenceOf& evidence) {
  static const std::vector<const HistoryCase*> none;
  auto find = [&](const Column& col) -> const std::vector<const HistoryCase*>& {
    auto it = col.forms.find(row);
    return it == col.forms.end() ? none : it->second;
  };
  const auto& now = find(cols[c]);
  Cell cell{counts_text(now), tone_of(now), {}};
  if (cols[c].previous >= 0) 
    cell.changes = transitions(find(cols[static_cast<std::size_t>(cols[c].previous)]), now, *cols[c].runs.back(), evidence);
  return cell;
}

// A form's row: a cell per column, neighbouring unchanged cells of one model with the same counts one
// cell across them. Returns how many cells changed, and how many of them got worse.
std::pair<int, int> form_row(pugi::xml_node tb, const std::vector<Column>& cols, const FormKey& row,
                             const EvidenceOf& evidence) {
  pugi::xml_node tr = el(tb, "tr", {{"data-family", row.first}, {"data-name", row.second}});
  el(tr, "td", {{"class", "mono form"}}, row.second);
  std::pair<int, int> changed{0, 0};
  for (std::size_t c = 0; c < cols.size();) {
    const Cell cell = cell_of(cols, c, row, evidence);
    std::size_t n = 1;
    while (cell.changes.empty() && c + n < cols.size() && cols[c + n].previous == static_cast<int>(c + n - 1)) {
      const Cell next = cell_of(cols, c + n, row, evidence);
      if (!next.changes.empty() || next.counts != cell.counts) break;
      ++n;
    }
    const bool worse = std::any_of(cell.changes.begin(), cell.changes.end(), [](auto const& t) { return t.worse; });
    pugi::xml_node td = el(tr, "td", {{"class", cell.tone + (cell.changes.empty() ? "" : worse ? " changed worse" : " changed")}});
    if (n > 1) td.append_attribute("colspan").set_value(std::to_string(n).c_str());
    if (cell.changes.empty()) text(td, cell.counts);
    else changed_cell(td, cell.counts, cell.changes);
    changed.first += !cell.changes.empty();
    changed.second += worse;
    c += n;
  }
  return changed;
}

// Two heading rows: the GPU models (a cell across their columns), then each column's driver and toolkit.
void grid_head(pugi::xml_node t, const std::vector<Column>& cols) {
  pugi::xml_node head = el(t, "thead");
  pugi::xml_node models = el(head, "tr"), configs = el(head, "tr");
  el(models, "th", {{"rowspan", "2"}}, "Form");
  for (std::size_t c = 0; c < cols.size();) {
    std::size_t n = 1;
    while (c + n < cols.size() && cols[c + n].model == cols[c].model) ++n;
    el(models, "th", {{"colspan", std::to_string(n)}, {"class", "model"}}, cols[c].model);
    c += n;
  }
  for (auto const& col : cols)
    el(configs, "th", {{"title", fmt::format("{} run{}, {} to {}", col.runs.size(), col.runs.size() == 1 ? "" : "s",
                                             col.runs.front()->date, col.runs.back()->date)}},
       fmt::format("driver {}, {}", col.driver, col.toolkit));
}

}  // namespace

std::string case_evidence(const CaseResult& r) {
  std::string s = r.reason;
  if (!r.diff.empty()) s += (s.empty() ? "" : "; ") + r.diff.front();
  if (!r.undefined.empty() && s.empty()) s = undefined_observation(r);
  if (!r.known.empty()) s += (s.empty() ? "known: " : "; known: ") + r.known;
  return s;
}

HistoryRun history_run_of(const RunReport& report) {
  const RunInfo& i = report.info;
  HistoryRun run{fmt::format("{} ({})", i.gpu_name, i.sm), i.driver_version,
                 fmt::format("CUDA {}{}", i.cuda_release, ran_driver_jit(i) ? ", driver JIT" : ""), i.date, i.host,
                 i.suite_commit, {}};
  run.cases.reserve(report.results.size());
  for (auto const& r : report.results)
    run.cases.push_back({case_id(r), r.family, r.instruction, outcome_of(r), case_evidence(r)});
  return run;
}

namespace {

// The columns' runs: which run each column shows (its latest) and how many it holds.
void runs_section(pugi::xml_node body, const std::vector<Column>& cols, std::size_t runs) {
  pugi::xml_node s = section(body, "runs", fmt::format("The columns: {} runs", count_text(static_cast<long long>(runs))));
  el(s, "p", {}, "A column per GPU model, driver and toolkit; its cells are its latest run's.");
  pugi::xml_node tb = table(s, {"GPU model", "Driver", "Toolkit", "Runs", "First", "Latest (shown)", "Host, suite commit"});
  for (auto const& col : cols) {
    pugi::xml_node tr = el(tb, "tr");
    for (auto const& v : {col.model, col.driver, col.toolkit, std::to_string(col.runs.size()), col.runs.front()->date,
                          col.runs.back()->date, col.runs.back()->host + ", " + col.runs.back()->suite_commit})
      el(tr, "td", {}, v);
  }
}

}  // namespace

std::string history_page_html(const std::vector<HistoryRun>& runs, const EvidenceOf& evidence) {
  const std::vector<Column> cols = columns_of(runs);
  std::set<FormKey> rows;
  std::set<std::string> families, models;
  for (auto const& col : cols) {
    models.insert(col.model);
    for (auto const& [k, v] : col.forms) rows.insert(k), families.insert(k.first);
  }
  HtmlPage page("ptxcts history");
  el(page.body, "h1", {}, "ptxcts history");
  pugi::xml_node verdict = el(page.body, "p", {{"id", "verdict"}});
  contents(page.body, {{"grid", "Forms per GPU model, driver and toolkit"}, {"runs", "The columns"}});
  pugi::xml_node s = section(page.body, "grid", "Forms per GPU model, driver and toolkit (time order)");
  legend(s, {{"pass", "passed (and not supported)"}, {"fail", "a case needs action"},
             {"not-supported", "not supported, skipped"}, {"faulted", "observations only"},
             {"changed", "changed since the model's previous column: a click lists the cases"},
             {"changed worse", "a case now needs action"}});
  filter_box(s, "history", families, "forms");
  pugi::xml_node t = el(scroll_box(s, true), "table", {{"id", "history"}, {"class", "history"}});
  grid_head(t, cols);
  pugi::xml_node tb = el(t, "tbody");
  int changed = 0, worse = 0;
  for (auto const& row : rows) {
    auto [c, w] = form_row(tb, cols, row, evidence);
    changed += c, worse += w;
  }
  runs_section(page.body, cols, runs.size());
  verdict.append_attribute("class").set_value(worse ? "verdict needs-action" : "verdict unchecked");
  text(verdict, fmt::format("{} runs of {} GPU model{} in {} columns (GPU model x driver x toolkit); {} forms; "
                            "{} cells changed since their model's previous column, {} of them worse.",
                            count_text(static_cast<long long>(runs.size())), models.size(), models.size() == 1 ? "" : "s",
                            cols.size(), count_text(static_cast<long long>(rows.size())), changed, worse));
  return page.str();
}

}  // namespace ptxcts

#include "report/report_html.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "report/html_document.hpp"
#include "report/html_page_parts.hpp"
#include "report/sass_text.hpp"
#include "results/report_json.hpp"

namespace ptxcts {

namespace {

bool failed(const CaseResult& r) { return !r.fault_case && r.status != Status::Pass && r.status != Status::Skip; }

std::string kernel_anchor(const std::string& kernel) { return "k-" + kernel; }

void run_section(pugi::xml_node body, const RunReport& report) {
  const RunInfo& i = report.info;
  el(body, "h1", {},
     fmt::format("ptxcts: {} ({}), driver {}, CUDA {}", i.gpu_name, i.sm, i.driver_version, i.cuda_release));
  contents(body, {{"findings", "Findings and failures"},
                  {"claims", "Claims"},
                  {"matrix-section", "Forms x targets"},
                  {"layouts", "Fragment layouts"},
                  {"kernels", "Kernels and cases"}});
  pugi::xml_node s = section(body, "run", "The run");
  pugi::xml_node tb = table(s, {});
  auto row = [&](std::string_view k, std::string_view v) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, k);
    el(tr, "td", {}, v);
  };
  row("GPU", fmt::format("{} (compute capability {}, {})", i.gpu_name, i.compute_capability, i.sm));
  row("Driver", fmt::format("{} (supports CUDA {})", i.driver_version, i.driver_cuda));
  row("Toolkit",
      fmt::format("CUDA {}, ptxas {}, PTX ISA {}; {}", i.cuda_release, i.ptxas_version, i.ptx_isa, i.toolchain));
  row("Suite", fmt::format("ptxcts {}, commit {}", i.suite_version, i.suite_commit));
  row("Date", i.date);
  row("Host", i.host);
  const RunTiming& tm = report.timing;
  row("Duration",
      tm.wall > 0
          ? fmt::format("{:.1f} s (first launch at {:.2f} s; fault line {:.1f} s over {} runner starts; {} launches "
                        "in {} batches; peak memory {} MiB)",
                        tm.wall, tm.first_launch, tm.faults, tm.runner_starts, tm.launch_count, tm.batch_count,
                        tm.peak_rss_mib)
          : std::string("not recorded in the report (schema 5 and before)"));
  Totals t = report.totals(), ft = report.fault_totals();
  pugi::xml_node p = el(s, "p", {{"class", "totals"}});
  for (auto [n, st] : {std::pair{t.pass, Status::Pass},
                       {t.fail, Status::Fail},
                       {t.skip, Status::Skip},
                       {t.error, Status::Error},
                       {t.crash, Status::Crash},
                       {t.timeout, Status::Timeout}})
    el(p, "span", {{"class", fmt::format("badge {}", to_string(st))}}, fmt::format("{} {}", n, to_string(st)));
  if (ft.pass + ft.fail + ft.skip + ft.error + ft.crash + ft.timeout)
    el(s, "p", {},
       fmt::format("Fault cases (documented rules broken on purpose; what the GPU did is an observation, never a "
                   "failure): {} faulted, {} timed out, {} ran without a fault, {} skipped, {} errors.",
                   ft.crash, ft.timeout, ft.pass + ft.fail, ft.skip, ft.error));
}

void result_block(pugi::xml_node parent, const CaseResult& r) {
  pugi::xml_node d = el(parent, "div", {{"class", fmt::format("finding {}", to_string(r.status))}});
  pugi::xml_node h = el(d, "h3");
  el(h, "span", {{"class", fmt::format("badge {}", to_string(r.status))}}, to_string(r.status));
  el(h, "a", {{"href", "#" + kernel_anchor(r.kernel)}}, r.kernel);
  text(h, " / " + r.case_name);
  el(d, "p", {}, fmt::format("{} ({} mismatches, target {})", r.reason, r.mismatches, r.target));
  if (!r.diff.empty()) el(d, "pre", {}, fmt::format("{}", fmt::join(r.diff, "\n")));
}

// What the code of a contradicted claim's kernels became, beside the claim (the first dozen results).
void sass_beside_claim(pugi::xml_node d, const RunReport& report, const ClaimVerdict& c) {
  if (report.sass.disassembler.empty() && report.sass.unavailable.empty()) return;  // before schema 7
  pugi::xml_node table;
  std::size_t shown = 0, rows = 0;
  for (auto const& checked : c.checked)
    for (auto const& r : report.results) {
      if (r.target.empty() || checked != r.kernel + "/" + r.case_name) continue;
      ++rows;
      if (shown == 12) continue;
      if (!table) {
        el(d, "p", {},
           report.sass.unavailable.empty() ? "What the code became (SASS by " + report.sass.disassembler + "):"
                                           : report.sass.unavailable);
        table = el(d, "table", {{"class", "sass"}});
        pugi::xml_node head = el(table, "tr");
        for (const char* h : {"Kernel", "Case", "Target", "Status", "SASS of the instruction under test"})
          el(head, "th", {}, h);
      }
      pugi::xml_node tr = el(table, "tr");
      const KernelSass* k = report.sass.find(r.kernel, r.target);
      for (std::string v : {r.kernel, r.case_name, r.target, std::string(to_string(r.status)),
                            k ? sass_summary(*k) : std::string("no SASS")})
        el(tr, "td", {}, v);
      ++shown;
    }
  if (rows > shown) el(d, "p", {}, fmt::format("... and {} more (the JSON report has every one)", rows - shown));
}

void findings_section(pugi::xml_node body, const RunReport& report) {
  pugi::xml_node s = section(body, "findings", "Findings and failures");
  int n = 0;
  for (auto const& c : report.claims) {
    if (c.verdict != Verdict::Contradicted) continue;
    ++n;
    pugi::xml_node d = el(s, "div", {{"class", "finding claim"}, {"data-id", c.id}});
    pugi::xml_node h = el(d, "h3");
    el(h, "span", {{"class", "badge contradicted"}}, "contradicted");
    text(h, "claim " + c.id);
    el(d, "p", {}, fmt::format("\u201c{}\u201d ({})", c.text, c.source));
    el(d, "p", {}, "Evidence: " + c.evidence);
    if (!c.note.empty()) el(d, "p", {}, "Note: " + c.note);
    checked_list(d, c.checked);
    sass_beside_claim(d, report, c);
  }
  for (auto const& r : report.results)
    if (failed(r)) {
      ++n;
      result_block(s, r);
    }
  if (n == 0) el(s, "p", {}, "No findings: no claim contradicted, no case failed.");
}

void claims_section(pugi::xml_node body, const RunReport& report) {
  pugi::xml_node s = section(body, "claims", "Claims");
  if (report.claims.empty()) {
    el(s, "p", {}, "No claims were checked.");
    return;
  }
  pugi::xml_node tb = table(s, {"Claim", "Verdict", "What the document says", "Source", "Evidence"});
  std::vector<const ClaimVerdict*> claims;
  for (auto const& c : report.claims) claims.push_back(&c);
  std::stable_partition(claims.begin(), claims.end(),
                        [](const ClaimVerdict* c) { return c->verdict == Verdict::Contradicted; });
  for (const ClaimVerdict* c : claims) {
    pugi::xml_node tr = el(tb, "tr", {{"data-family", c->family}});
    el(tr, "td", {}, c->id);
    el(tr, "td", {{"class", to_string(c->verdict)}}, to_string(c->verdict));
    pugi::xml_node what = el(tr, "td", {}, c->text);
    if (!c->note.empty()) el(what, "p", {}, "Note: " + c->note);
    el(tr, "td", {}, c->source);
    pugi::xml_node ev = el(tr, "td", {}, c->evidence);
    checked_list(ev, c->checked);
  }
}

// The audit's verdicts per form (the instruction's first word) and target: accepted, rejected, or both
// (forms that differ only in their operands).
using AuditCells = std::map<std::string, std::map<std::string, std::pair<int, int>>>;
std::vector<std::string> audit_cells(const nlohmann::json* audit, AuditCells& cells) {
  std::vector<std::string> targets;
  if (!audit) return targets;
  for (auto const& t : audit->at("run").at("targets")) targets.push_back(t.get<std::string>());
  for (auto const& g : audit->at("grammar")) {
    auto instruction = g.at("instruction").get<std::string>();
    auto verdicts = g.at("verdicts").get<std::string>();
    auto& row = cells[instruction.substr(0, instruction.find(' '))];
    for (std::size_t k = 0; k < verdicts.size() && k < targets.size(); ++k)
      (verdicts[k] == '+' ? row[targets[k]].first : row[targets[k]].second)++;
  }
  return targets;
}

void matrix_section(pugi::xml_node body, const RunReport& report, const nlohmann::json* audit) {
  pugi::xml_node s = section(body, "matrix-section", "Forms x targets");
  AuditCells from_audit;
  std::vector<std::string> targets = audit_cells(audit, from_audit);
  if (std::find(targets.begin(), targets.end(), report.info.sm) == targets.end()) targets.push_back(report.info.sm);
  for (auto const& r : report.results)
    if (!r.target.empty() && std::find(targets.begin(), targets.end(), r.target) == targets.end())
      targets.push_back(r.target);
  el(s, "p", {},
     audit ? "Each form on each target: rejected or accepted by ptxas (the toolkit's audit), and on this GPU's "
             "target how many of its cases ran and passed. Type a form, or part of it, to find it."
           : "Each form on this run's target: how many of its cases ran and passed (skipped: not on this GPU). "
             "Type a form, or part of it, to find it.");
  legend(s, {{"passes", "every case passed"},
             {"runs", "ran, some case did not pass"},
             {"accepted", "ptxas accepts it"},
             {"rejected", "ptxas rejects it"},
             {"untested", "skipped or not asked"}});
  struct Form {
    std::string family, kernel;
    std::map<std::string, std::pair<int, int>> ran;  // target -> (passed, ran)
    int skipped = 0;
  };
  std::map<std::string, Form> forms;
  std::vector<std::string> order;
  for (auto const& r : report.results) {
    if (r.fault_case) continue;
    auto [it, fresh] = forms.try_emplace(r.instruction, Form{r.family, r.kernel, {}, 0});
    if (fresh) order.push_back(r.instruction);
    if (r.status == Status::Skip) ++it->second.skipped;
    else {
      auto& [passed, ran] = it->second.ran[r.target.empty() ? report.info.sm : r.target];
      passed += r.status == Status::Pass;
      ++ran;
    }
  }
  std::set<std::string> families;
  for (auto const& [_, f] : forms) families.insert(f.family);
  filter_box(s, "matrix", families);
  pugi::xml_node t = el(s, "table", {{"id", "matrix"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, "Form");
  for (auto const& target : targets) el(hr, "th", {}, target);
  pugi::xml_node tb = el(t, "tbody");
  for (auto const& name : order) {
    const Form& f = forms[name];
    pugi::xml_node tr = el(tb, "tr", {{"data-family", f.family}, {"data-name", name}});
    el(el(tr, "td", {{"class", "form mono"}}), "a", {{"href", "#" + kernel_anchor(f.kernel)}}, name);
    // A kernel of several steps ("a ; b", a round trip) is accepted where every step is, rejected
    // where one is, and untested where the audit did not ask about one of them.
    std::vector<std::string> steps;
    for (std::size_t at = 0; at <= name.size();) {
      std::size_t end = std::min(name.find(" ; ", at), name.size());
      steps.push_back(name.substr(at, end - at));
      at = end + 3;
    }
    for (auto const& target : targets) {
      auto ran = f.ran.find(target);
      if (ran != f.ran.end()) {
        auto [passed, n] = ran->second;
        el(tr, "td", {{"class", passed == n ? "passes" : "runs"}}, fmt::format("{}/{}", passed, n));
        continue;
      }
      std::optional<std::pair<int, int>> acc = std::pair{1, 0};
      for (auto const& step : steps) {
        auto row = from_audit.find(step);
        auto c = row == from_audit.end() ? decltype(row->second.end()){} : row->second.find(target);
        if (row == from_audit.end() || c == row->second.end()) {
          acc.reset();
          break;
        }
        if (!c->second.first) acc->first = 0;
        acc->second += c->second.second;
      }
      if (acc && acc->first) el(tr, "td", {{"class", "accepted"}}, acc->second ? "acc/rej" : "acc");
      else if (acc) el(tr, "td", {{"class", "rejected"}}, "rej");
      else el(tr, "td", {{"class", "untested"}}, target == report.info.sm && f.skipped ? "skip" : "");
    }
  }
}

void layouts_section(pugi::xml_node body, const RunReport& report, const SpecLayouts* spec,
                     std::map<std::string, std::string>& figure_anchor) {
  pugi::xml_node s = section(body, "layouts", "Fragment layouts");
  if (spec && !spec->figures.empty()) {
    el(s, "h3", {}, "As the specs give them (ldmatrix, stmatrix, movmatrix)");
    el(s, "p", {},
       "Each matrix element with the lane (T) and register (r, and the element within it) that holds it, "
       "evaluated from the spec's formulas; colors tell registers apart.");
    for (std::size_t k = 0; k < spec->figures.size(); ++k) {
      auto const& f = spec->figures[k];
      std::string id = fmt::format("spec-layout-{}", k);
      pugi::xml_node d = el(s, "details", {{"id", id}});
      el(d, "summary", {},
         fmt::format("{}{}", f.forms.front(),
                     f.forms.size() > 1 ? fmt::format(" and {} more forms", f.forms.size() - 1) : ""));
      pugi::xml_node fig = el(d, "figure", {{"class", "layout-spec"}});
      draw_spec_layout(fig, f.layout);
      el(fig, "figcaption", {}, fmt::format("{}", fmt::join(f.forms, ", ")));
      for (auto const& form : f.forms) figure_anchor.emplace(form, id);
    }
  }
  // wmma: what the GPU did, one figure per distinct layout.
  std::map<std::string, std::vector<const CaseResult*>> by_layout;
  std::vector<std::string> order;
  for (auto const& r : report.results)
    if (!r.observed_layout.empty()) {
      auto& v = by_layout[r.observed_layout];
      if (v.empty()) order.push_back(r.observed_layout);
      v.push_back(&r);
    }
  if (order.empty()) return;
  el(s, "h3", {}, "wmma fragments, as this GPU laid them out (an observation: the manual leaves it unspecified)");
  el(s, "p", {},
     "Each lane's registers (columns; two halves for 16-bit elements) with the matrix element (row,col) each held; "
     "colors follow the row; a red outline marks an element that more than one register holds.");
  for (std::size_t k = 0; k < order.size(); ++k) {
    auto const& results = by_layout[order[k]];
    std::string id = fmt::format("wmma-layout-{}", k);
    pugi::xml_node d = el(s, "details", {{"id", id}});
    el(d, "summary", {},
       fmt::format("{}{}", results.front()->instruction,
                   results.size() > 1 ? fmt::format(" and {} more results", results.size() - 1) : ""));
    pugi::xml_node fig = el(d, "figure", {{"class", "layout-observed"}});
    if (auto L = parse_observed_layout(order[k])) draw_observed_layout(fig, *L);
    else el(fig, "pre", {}, order[k]);  // a layout this page cannot read is shown as written
    std::set<std::string> kernels;
    for (auto const* r : results) kernels.insert(r->kernel);
    el(fig, "figcaption", {}, fmt::format("{}", fmt::join(kernels, ", ")));
    for (auto const* r : results) figure_anchor.emplace(r->kernel + "/" + r->case_name, id);
  }
}

void kernels_section(pugi::xml_node body, const RunReport& report,
                     const std::map<std::string, std::string>& figure_anchor) {
  pugi::xml_node s = section(body, "kernels", "Kernels and cases");
  if (report.results.empty()) {
    el(s, "p", {}, "No cases ran.");
    return;
  }
  std::map<std::string, std::vector<const CaseResult*>> by_kernel;
  std::vector<std::string> order;
  std::set<std::string> families;
  for (auto const& r : report.results) {
    auto& v = by_kernel[r.kernel];
    if (v.empty()) order.push_back(r.kernel);
    v.push_back(&r);
    families.insert(r.family);
  }
  filter_box(s, "kernel-list", families);
  pugi::xml_node list = el(s, "div", {{"id", "kernel-list"}});
  for (auto const& kernel : order) {
    auto const& results = by_kernel[kernel];
    pugi::xml_node d =
        el(list, "details",
           {{"id", kernel_anchor(kernel)}, {"data-family", results.front()->family}, {"data-name", kernel}});
    pugi::xml_node sum = el(d, "summary");
    std::map<std::string, int> counts;
    for (auto const* r : results) ++counts[to_string(r->status)];
    for (auto const& [st, n] : counts) el(sum, "span", {{"class", "badge " + st}}, fmt::format("{} {}", n, st));
    el(sum, "code", {}, kernel);
    pugi::xml_node div = el(d, "div");
    el(div, "pre", {}, results.front()->instruction);
    auto spec_fig = figure_anchor.find(results.front()->instruction);
    if (spec_fig != figure_anchor.end())
      el(el(div, "p"), "a", {{"href", "#" + spec_fig->second}}, "the layout the spec gives");
    pugi::xml_node tb = table(div, {"Case", "Target", "PTX ISA", "Status", "Reason", "Layout"});
    for (auto const* r : results) {
      pugi::xml_node tr = el(tb, "tr");
      el(tr, "td", {{"class", r->fault_case ? "fault" : ""}}, r->case_name);
      el(tr, "td", {}, r->target);
      el(tr, "td", {}, r->ptx_isa);
      el(tr, "td", {{"class", to_string(r->status)}}, to_string(r->status));
      pugi::xml_node why = el(tr, "td", {}, r->reason);
      if (!r->diff.empty()) el(why, "pre", {}, fmt::format("{}", fmt::join(r->diff, "\n")));
      if (!r->ran_on.empty()) el(why, "p", {{"class", "ran-on"}}, "ran on " + r->ran_on);  // a shared fault case
      pugi::xml_node lay = el(tr, "td");
      auto fig = figure_anchor.find(r->kernel + "/" + r->case_name);
      if (fig != figure_anchor.end()) el(lay, "a", {{"href", "#" + fig->second}}, "observed");
    }
  }
}

void withdrawn_section(pugi::xml_node body, const RunReport& report) {
  if (report.withdrawn.empty()) return;
  pugi::xml_node tb = table(section(body, "withdrawn", "Withdrawn"), {"What", "Why"});
  for (auto const& w : report.withdrawn) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, w.what);
    el(tr, "td", {}, w.reason);
  }
}

}  // namespace

std::string report_html(const RunReport& report, const RunPageInputs& in) {
  const RunInfo& i = report.info;
  HtmlPage page(fmt::format("ptxcts {} {} driver {} CUDA {}", i.gpu_name, i.sm, i.driver_version, i.cuda_release));
  run_section(page.body, report);
  findings_section(page.body, report);
  claims_section(page.body, report);
  matrix_section(page.body, report, in.audit);
  std::map<std::string, std::string> figure_anchor;
  layouts_section(page.body, report, in.layouts, figure_anchor);
  kernels_section(page.body, report, figure_anchor);
  withdrawn_section(page.body, report);
  return page.str();
}

}  // namespace ptxcts

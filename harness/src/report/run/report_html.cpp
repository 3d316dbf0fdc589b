#include "report/run/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "kinds/kinds.hpp"
#include "report/element_figure_svg.hpp"
#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"
#include "report/pages/outcome_html.hpp"
#include "report/run/sass_text.hpp"
#include "report/sentence_table.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"

namespace ptxcts {

namespace {

// The class a result's outcome is painted with: its token, and "known" for an expected difference.
std::string outcome_class(const CaseResult& r) {
  return std::string(token(outcome_of(r))) + (r.known.empty() ? "" : " known");
}

std::string kernel_anchor(const std::string& kernel) { return "k-" + kernel; }

void run_section(pugi::xml_node body, const RunReport& report) {
  const RunInfo& i = report.info;
  el(body, "h1", {},
     fmt::format("ptxcts: {} ({}), driver {}, CUDA {}{}", i.gpu_name, i.sm, i.driver_version, i.cuda_release,
                 ran_driver_jit(i) ? ", driver JIT" : ""));
  verdict_banner(body, report);
  contents(body, {{"findings", "Failures and findings"},
                  {"claims", "Claims"},
                  {"sentences", "Sentences"},
                  {"matrix-section", "Forms x targets"},
                  {"layouts", "Fragment layouts"},
                  {"kernels", "Kernels and cases"}});
  pugi::xml_node s = section(body, "run", "The run");
  outcome_tally(s, tally(report.results));
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
  if (!report.sass.unavailable.empty()) row("SASS", report.sass.unavailable);  // said once, not in every cell
  // Which known differences this run was read with, and those that matched nothing (fixed?).
  if (!report.expectations_applied.empty())
    row("Expectations", fmt::format("{}", fmt::join(report.expectations_applied, ", ")));
  for (auto const& u : report.expectations_unmatched) row("Unmatched expectation", u);
}

// The failures, grouped by family and then by form (the instruction under test): a row per form with
// its count and its first failure's differences, each family collapsed. A run where everything fails
// stays a page of one row per form; the kernel list below, filtered by outcome, has every case, and
// the JSON report every difference.
void failures_block(pugi::xml_node s, const RunReport& report) {
  std::map<std::string, std::map<std::string, std::vector<const CaseResult*>>> groups;
  std::vector<std::string> families;
  int n = 0;
  for (auto const& r : report.results) {
    if (!needs_action(r)) continue;
    if (!groups.count(r.family)) families.push_back(r.family);
    groups[r.family][r.instruction].push_back(&r);
    ++n;
  }
  if (n == 0) {
    el(s, "p", {}, "No case needs action: none failed, errored, crashed or timed out.");
    return;
  }
  pugi::xml_node p = el(s, "p", {}, fmt::format("{} cases need action. ", count_text(n)));
  el(p, "a", {{"href", "#filter:kernel-list;outcome=fail%20error%20crash%20timeout"}}, "Show them in the kernel list");
  text(p, ".");
  for (auto const& family : families) {
    int in_family = 0;
    for (auto const& [_, rs] : groups[family]) in_family += static_cast<int>(rs.size());
    pugi::xml_node fd = el(s, "details", {{"class", "group"}, {"data-family", family}});
    el(fd, "summary", {},
       fmt::format("{}: {} in {}", family, in_family == 1 ? std::string("1 case") : count_text(in_family) + " cases",
                   groups[family].size() == 1 ? std::string("1 form") : fmt::format("{} forms", groups[family].size())));
    pugi::xml_node tb = table(el(fd, "div"), {"Cases", "Form", "First of them", "Its differences"});
    for (auto const& [form, rs] : groups[family]) {
      const CaseResult& r = *rs.front();
      pugi::xml_node tr = el(tb, "tr", {{"data-outcome", token(outcome_of(r))}});
      el(tr, "td", {{"class", outcome_class(r)}}, fmt::format("{} {}", rs.size(), label(outcome_of(r))));
      el(tr, "td", {{"class", "mono"}}, form);
      pugi::xml_node first = el(tr, "td");
      el(first, "a", {{"href", "#" + kernel_anchor(r.kernel)}}, case_id(r));
      text(first, ": " + r.reason);
      pugi::xml_node diff = el(tr, "td");
      if (!r.diff.empty()) el(diff, "pre", {}, fmt::format("{}", fmt::join(r.diff, "\n")));
    }
  }
}

// What the code of a contradicted claim's kernels became, beside the claim (the first dozen results).
void sass_beside_claim(pugi::xml_node d, const RunReport& report, const ClaimVerdict& c) {
  if (report.sass.disassembler.empty() && report.sass.unavailable.empty()) return;  // before schema 7
  if (!report.sass.unavailable.empty()) {  // no SASS at all: said once, not in a cell per result
    el(d, "p", {}, "What the code became: not known (" + report.sass.unavailable + ").");
    return;
  }
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
        table = el(scroll_box(d), "table", {{"class", "sass"}});
        pugi::xml_node head = el(table, "tr");
        for (const char* h : {"Kernel", "Case", "Target", "Outcome", "SASS of the instruction under test"})
          el(head, "th", {}, h);
      }
      pugi::xml_node tr = el(table, "tr");
      const KernelSass* k = report.sass.find(r.kernel, r.target);
      for (std::string v : {r.kernel, r.case_name, r.target, std::string(label(outcome_of(r))),
                            k ? sass_summary(*k) : std::string("no SASS")})
        el(tr, "td", {}, v);
      ++shown;
    }
  if (rows > shown) el(d, "p", {}, fmt::format("... and {} more (the JSON report has every one)", rows - shown));
}

// The claims that only cases needing action would contradict: no findings, said apart, by id.
void undecided_block(pugi::xml_node s, const RunReport& report) {
  std::vector<std::string> ids;
  for (auto const& c : report.claims)
    if (c.verdict == Verdict::Undecided) ids.push_back(c.id);
  if (ids.empty()) return;
  el(s, "h3", {},
     fmt::format("{} undecided: the cases {} rests on need action", ids.size() == 1 ? std::string("1 claim")
                                                                                  : fmt::format("{} claims", ids.size()),
                 ids.size() == 1 ? "it" : "each"));
  el(s, "p", {{"class", "undecided-note"}},
     "Every case that would contradict these claims needs action on this run: the GPU gets wrong what the claim is "
     "about, so the run cannot say whether the document is right. They are not documentation findings (the "
     "claims table has each one's evidence): " + fmt::format("{}.", fmt::join(ids, ", ")));
}

// What needs a reader: the cases that need action (the GPU's conformance), then the documentation
// findings (contradicted claims: about the documents, shown apart), then the claims left undecided.
// One contradicted claim, folded: its text, source, evidence, the cases it rests on.
void contradicted_claim(pugi::xml_node s, const RunReport& report, const ClaimVerdict& c) {
  pugi::xml_node d = el(s, "details", {{"class", "finding claim"}, {"data-id", c.id}});
  pugi::xml_node h = el(d, "summary");
  el(h, "span", {{"class", c.known.empty() ? "badge contradicted" : "badge contradicted known"}},
     c.known.empty() ? "contradicted" : "contradicted (known)");
  text(h, "claim " + c.id + ": \u201c" + c.text + "\u201d");
  pugi::xml_node div = el(d, "div");
  el(div, "p", {}, "Source: " + c.source);
  folded_paragraph(div, "Evidence: ", c.evidence);
  if (!c.note.empty()) el(div, "p", {}, "Note: " + c.note);
  if (!c.known.empty()) el(div, "p", {}, "Known difference: " + c.known);
  checked_list(div, c.checked);
  sass_beside_claim(div, report, c);
}

void findings_section(pugi::xml_node body, const RunReport& report) {
  pugi::xml_node s = section(body, "findings", "Failures and findings");
  failures_block(s, report);
  int n = 0, refuted = 0;
  for (auto const& c : report.claims) {
    n += documentation_finding(c);
    refuted += refuted_hypothesis(c);
  }
  el(s, "h3", {},
     n ? fmt::format("{} documentation findings: claims of the documents that this run contradicts", n)
       : std::string("No documentation findings: no claim of the documents contradicted"));
  for (auto const& c : report.claims)
    if (documentation_finding(c)) contradicted_claim(s, report, c);
  if (refuted) {
    el(s, "h3", {},
       fmt::format("{} of the suite's hypotheses refuted: its readings of what the documents give only as figures, "
                   "which this GPU does not follow (findings about the readings, not about the documents)",
                   refuted));
    for (auto const& c : report.claims)
      if (refuted_hypothesis(c)) contradicted_claim(s, report, c);
  }
  undecided_block(s, report);
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
  std::stable_partition(std::stable_partition(claims.begin(), claims.end(),
                                              [](const ClaimVerdict* c) { return c->verdict == Verdict::Contradicted; }),
                        claims.end(), [](const ClaimVerdict* c) { return c->verdict == Verdict::Undecided; });
  for (const ClaimVerdict* c : claims) {
    pugi::xml_node tr = el(tb, "tr", {{"data-family", c->family}});
    el(tr, "td", {}, c->id);
    el(tr, "td", {{"class", to_string(c->verdict)}}, to_string(c->verdict));
    pugi::xml_node what = el(tr, "td", {}, c->text);
    if (!c->note.empty()) el(what, "p", {}, "Note: " + c->note);
    el(tr, "td", {}, c->source);
    pugi::xml_node ev = el(tr, "td");
    folded_paragraph(ev, "", c->evidence);
    checked_list(ev, c->checked);
  }
}

// The audit's verdicts per form (the instruction's first word) and target: accepted, rejected, or both
// (forms that differ only in their operands).
using AuditCells = std::map<std::string, std::map<std::string, std::pair<int, int>>>;
std::vector<std::string> audit_cells(const AuditSummary* audit, AuditCells& cells) {
  if (!audit) return {};
  const std::vector<std::string>& targets = audit->targets;
  for (auto const& g : audit->grammar) {
    auto& row = cells[g.instruction.substr(0, g.instruction.find(' '))];
    for (std::size_t k = 0; k < g.verdicts.size() && k < targets.size(); ++k)
      (g.verdicts[k] == '+' ? row[targets[k]].first : row[targets[k]].second)++;
  }
  return targets;
}

// The forms that ran, in the order they first ran: per target, how many of their cases passed and ran.
struct MatrixForm {
  std::string family, kernel;
  std::map<std::string, std::pair<int, int>> ran;  // target -> (passed, ran)
  int skipped = 0;
};
std::pair<std::map<std::string, MatrixForm>, std::vector<std::string>> form_tally(const RunReport& report) {
  std::map<std::string, MatrixForm> forms;
  std::vector<std::string> order;
  for (auto const& r : report.results) {
    if (r.fault_case) continue;
    auto [it, fresh] = forms.try_emplace(r.instruction, MatrixForm{.family = r.family, .kernel = r.kernel});
    if (fresh) order.push_back(r.instruction);
    const Outcome o = outcome_of(r);
    if (o == Outcome::NotSupported || o == Outcome::Skipped) ++it->second.skipped;
    else {
      auto& [passed, ran] = it->second.ran[r.target.empty() ? report.info.sm : r.target];
      passed += o == Outcome::Pass;
      ++ran;
    }
  }
  return {std::move(forms), std::move(order)};
}

// What the audit says of every step of a form on `target`: (1 where every step is accepted, else 0;
// how many are rejected somewhere), or none where it did not ask about one of them.
std::optional<std::pair<int, int>> steps_on_target(const AuditCells& from_audit, const std::vector<std::string>& steps,
                                                   const std::string& target) {
  std::optional<std::pair<int, int>> acc = std::pair{1, 0};
  for (auto const& step : steps) {
    auto row = from_audit.find(step);
    auto c = row == from_audit.end() ? decltype(row->second.end()){} : row->second.find(target);
    if (row == from_audit.end() || c == row->second.end()) return std::nullopt;
    if (!c->second.first) acc->first = 0;
    acc->second += c->second.second;
  }
  return acc;
}

void matrix_section(pugi::xml_node body, const RunReport& report, const AuditSummary* audit) {
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
  auto [forms, order] = form_tally(report);
  std::set<std::string> families;
  for (auto const& [_, f] : forms) families.insert(f.family);
  filter_box(s, "matrix", families, "forms");
  pugi::xml_node t = el(scroll_box(s, true), "table", {{"id", "matrix"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, "Form");
  for (auto const& target : targets) el(hr, "th", {}, target);
  pugi::xml_node tb = el(t, "tbody");
  for (auto const& name : order) {
    const MatrixForm& f = forms[name];
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
      const std::optional<std::pair<int, int>> acc = steps_on_target(from_audit, steps, target);
      if (acc && acc->first) el(tr, "td", {{"class", "accepted"}}, acc->second ? "acc/rej" : "acc");
      else if (acc) el(tr, "td", {{"class", "rejected"}}, "rej");
      else el(tr, "td", {{"class", "untested"}}, target == report.info.sm && f.skipped ? "not run" : "");
    }
  }
}

// A figure's summary line: its first form and how many more; an element figure's operand and shape,
// and whether it is drawn from a reading of the printed formula.
std::string figure_summary(const FragmentFigure& f) {
  if (!f.letter)
    return fmt::format("{}{}", f.forms.front(),
                       f.forms.size() > 1 ? fmt::format(" and {} more forms", f.forms.size() - 1) : "");
  return fmt::format("{}: {} ({}x{}){}{}", f.forms.front(), f.operand, f.layout.rows, f.layout.cols,
                     f.forms.size() > 2    ? fmt::format(" and {} more forms", f.forms.size() - 1)
                     : f.forms.size() == 2 ? " and 1 more form"
                                           : "",
                     f.readings.empty() ? "" : ", drawn from a reading of the printed formula");
}

// One kind's figures as the specs give them, under its heading and words: one <details> each. A
// form whose one figure names registers is linked to it from its kernel (figure_anchor).
void kind_figures_block(pugi::xml_node s, const KindFigures& kind, std::map<std::string, std::string>& figure_anchor) {
  el(s, "h3", {}, kind.heading);
  el(s, "p", {}, kind.words);
  for (std::size_t k = 0; k < kind.figures.size(); ++k) {
    auto const& f = kind.figures[k];
    const std::string id = kind.anchor + std::to_string(k);
    pugi::xml_node d = el(s, "details", {{"id", id}});
    el(d, "summary", {}, figure_summary(f));
    pugi::xml_node fig = el(d, "figure", {{"class", "layout-spec"}});
    if (f.letter) {
      draw_element_figure(fig, f);
      continue;
    }
    draw_spec_layout(fig, f.layout);
    el(fig, "figcaption", {}, fmt::format("{}", fmt::join(f.forms, ", ")));
    for (auto const& form : f.forms) figure_anchor.emplace(form, id);
  }
}

// What the GPU did where the documents leave the register layout unspecified: one figure per
// distinct layout, under the words of the kinds that observe layouts (InstructionKind::observes_layouts).
void observed_block(pugi::xml_node s, const RunReport& report, std::map<std::string, std::string>& figure_anchor) {
  std::map<std::string, std::vector<const CaseResult*>> by_layout;
  std::vector<std::string> order;
  for (auto const& r : report.results)
    if (!r.observed_layout.empty()) {
      auto& v = by_layout[r.observed_layout];
      if (v.empty()) order.push_back(r.observed_layout);
      v.push_back(&r);
    }
  if (order.empty()) return;
  const std::string observers = layout_observers();
  el(s, "h3", {},
     observers + " fragments, as this GPU laid them out (an observation: the manual leaves it unspecified)");
  el(s, "p", {},
     "Each lane (down the side) and register (across the top; two halves for 16-bit elements) with the matrix "
     "element (row,col) it held; colors follow the row; each figure's key says what its outlines mark.");
  for (std::size_t k = 0; k < order.size(); ++k) {
    auto const& results = by_layout[order[k]];
    std::string id = fmt::format("{}-layout-{}", observers, k);
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

void layouts_section(pugi::xml_node body, const RunReport& report, const SpecLayouts* spec,
                     std::map<std::string, std::string>& figure_anchor) {
  pugi::xml_node s = section(body, "layouts", "Fragment layouts");
  if (spec)
    for (auto const& kind : spec->kinds)
      if (!kind.figures.empty()) kind_figures_block(s, kind, figure_anchor);
  observed_block(s, report, figure_anchor);
}

// The links from a kernel's form to its figures whose boxes name elements, by their labels (A, B, C/D).
void element_figure_links(pugi::xml_node div, const SpecLayouts* spec, const std::string& form) {
  if (!spec) return;
  for (auto const& kind : spec->kinds) {
    auto refs = kind.figures_of.find(form);
    if (refs == kind.figures_of.end() || refs->second.empty() || !kind.figures[refs->second.front().figure].letter)
      continue;
    pugi::xml_node p = el(div, "p", {}, "The layouts the spec gives: ");
    bool first = true;
    for (auto const& ref : refs->second) {
      if (!std::exchange(first, false)) text(p, ", ");
      el(p, "a", {{"href", "#" + kind.anchor + std::to_string(ref.figure)}}, ref.label);
    }
  }
}

// A kernel's cases, a row each; what every case shares is said once, above them (a page of thousands
// of cases stays small): the target and PTX ISA version, and a reason they all give.
void kernel_cases(pugi::xml_node div, const std::vector<const CaseResult*>& results,
                  const std::map<std::string, std::string>& figure_anchor) {
  auto same = [&](auto field) {
    return std::all_of(results.begin(), results.end(), [&](const CaseResult* r) { return field(*r) == field(*results.front()); });
  };
  const bool one_target = same([](const CaseResult& r) { return r.target + "@" + r.ptx_isa; });
  const bool one_reason = results.size() > 1 && same([](const CaseResult& r) { return r.reason; });
  if (one_target && !results.front()->target.empty())
    el(div, "p", {}, fmt::format("Target {}, PTX ISA {}.", results.front()->target, results.front()->ptx_isa));
  if (one_reason && !results.front()->reason.empty()) el(div, "p", {}, "Every case: " + results.front()->reason);
  pugi::xml_node tb = one_target ? table(div, {"Case", "Outcome", "Reason", "Layout"})
                                 : table(div, {"Case", "Target", "PTX ISA", "Outcome", "Reason", "Layout"});
  for (auto const* r : results) {
    pugi::xml_node tr = el(tb, "tr", {{"data-outcome", token(outcome_of(*r))}});
    el(tr, "td", {{"class", r->fault_case || !r->undefined.empty() ? "fault" : ""}},
       r->case_name + (!r->undefined.empty() ? " (undefined on " + r->target + ")"
                       : !r->fault_case      ? ""
                       : r->fault_expected   ? " (fault case)"
                                             : " (edge case)"));
    if (!one_target) {
      el(tr, "td", {}, r->target);
      el(tr, "td", {}, r->ptx_isa);
    }
    el(tr, "td", {{"class", outcome_class(*r)}}, label(outcome_of(*r)));
    pugi::xml_node why = el(tr, "td", {}, one_reason ? std::string_view() : std::string_view(r->reason));
    if (!r->known.empty()) el(why, "p", {{"class", "known"}}, "known difference: " + r->known);
    // A failure's differences are under "Failures and findings", for the first of its form.
    if (!r->diff.empty() && !needs_action(*r)) el(why, "pre", {}, fmt::format("{}", fmt::join(r->diff, "\n")));
    if (!r->ran_on.empty()) el(why, "p", {{"class", "ran-on"}}, "ran on " + r->ran_on);  // a shared fault case
    pugi::xml_node lay = el(tr, "td");
    auto fig = figure_anchor.find(r->kernel + "/" + r->case_name);
    if (fig != figure_anchor.end()) el(lay, "a", {{"href", "#" + fig->second}}, "observed");
  }
}

void kernels_section(pugi::xml_node body, const RunReport& report, const SpecLayouts* spec,
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
  el(s, "p", {},
     fmt::format("{} cases: {} kernels, each with its cases (a case: one kernel run with one input, on this GPU's "
                 "target). Type words of a form or kernel, or choose a family or an outcome; the choice is kept in "
                 "the page's address.",
                 count_text(static_cast<long long>(report.results.size())), count_text(static_cast<long long>(order.size()))));
  filter_box(s, "kernel-list", families, "kernels", true);
  pugi::xml_node list = el(s, "div", {{"id", "kernel-list"}});
  for (auto const& kernel : order) {
    auto const& results = by_kernel[kernel];
    std::map<Outcome, int> counts;
    for (auto const* r : results) ++counts[outcome_of(*r)];
    std::string outcomes;
    for (auto const& [o, n] : counts) outcomes += std::string(outcomes.empty() ? "" : " ") + token(o);
    pugi::xml_node d = el(list, "details",
                          {{"id", kernel_anchor(kernel)},
                           {"data-family", results.front()->family},
                           {"data-name", kernel + " " + results.front()->instruction},
                           {"data-outcomes", outcomes}});
    pugi::xml_node sum = el(d, "summary");
    for (auto const& [o, n] : counts) el(sum, "span", {{"class", std::string("badge ") + token(o)}}, fmt::format("{} {}", n, label(o)));
    el(sum, "code", {}, kernel);
    pugi::xml_node div = el(d, "div");
    el(div, "pre", {}, results.front()->instruction);
    auto spec_fig = figure_anchor.find(results.front()->instruction);
    if (spec_fig != figure_anchor.end())
      el(el(div, "p"), "a", {{"href", "#" + spec_fig->second}}, "the layout the spec gives");
    element_figure_links(div, spec, results.front()->instruction);
    kernel_cases(div, results, figure_anchor);
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
  HtmlPage page(fmt::format("ptxcts {} {} driver {} CUDA {}{}", i.gpu_name, i.sm, i.driver_version, i.cuda_release,
                            ran_driver_jit(i) ? " (driver JIT)" : ""));
  run_section(page.body, report);
  findings_section(page.body, report);
  claims_section(page.body, report);
  sentence_counts_section(page.body, report.sentences, kRunElsewhere);
  matrix_section(page.body, report, in.audit);
  std::map<std::string, std::string> figure_anchor;
  layouts_section(page.body, report, in.layouts, figure_anchor);
  kernels_section(page.body, report, in.layouts, figure_anchor);
  withdrawn_section(page.body, report);
  return page.str();
}

}  // namespace ptxcts

#include "report/audit/audit_html.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <regex>
#include <set>
#include <vector>

#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"
#include "report/pages/target_lists.hpp"
#include "report/sentence_table.hpp"
#include "results/outcome.hpp"

namespace ptxcts {

namespace {

using FindingRow = AuditSummary::FindingRow;

// `text` into `parent`, its long target lists folded ("sm_75 … sm_121f (23 targets)", the whole list
// in the tooltip).
void folded(pugi::xml_node parent, const std::string& s) {
  for (auto const& piece : fold_target_pieces(s))
    if (piece.whole.empty()) text(parent, piece.text);
    else el(parent, "abbr", {{"class", "targets"}, {"title", piece.whole}}, piece.text);
}

// "seed 003 (study notes "ldmatrix", in Chinese), the x1 kernel" -> "study notes "ldmatrix", in Chinese, the x1 kernel".
std::string source_text(const std::string& source) {
  static const std::regex cited(R"(seed \d+ \(([^()]*)\))");
  return std::regex_replace(source, cited, "$1");
}

// A cell of a table row; a verdict's cell is colored by its value.
struct Cell {
  std::string text;
  bool verdict = false;
};
Cell source_cell(const std::string& source) { return {.text = source_text(source)}; }
Cell number_cell(std::size_t n) { return {.text = fmt::format("{}", n)}; }

// A row of a table: a cell each, long cells folded; `family` for the filter ("" none).
void row(pugi::xml_node tb, const std::string& family, const std::vector<Cell>& cells) {
  pugi::xml_node tr = el(tb, "tr", {{"data-family", family}});
  for (auto const& c : cells) folded(el(tr, "td", {{"class", c.verdict ? c.text : ""}}), c.text);
}

// A table that wraps its text within the page's width: fixed columns of these widths (percent).
pugi::xml_node wrapped_table(pugi::xml_node parent, std::initializer_list<const char*> headings,
                             std::initializer_list<int> widths) {
  pugi::xml_node t = el(parent, "table", {{"class", "wrap"}});
  pugi::xml_node cols = el(t, "colgroup");
  for (int w : widths) el(cols, "col", {{"class", fmt::format("w{}", w)}});  // html_assets: no style attribute
  pugi::xml_node tr = el(el(t, "thead"), "tr");
  for (const char* h : headings) el(tr, "th", {}, h);
  return el(t, "tbody");
}

// The documents by their names: a report cites a document by its id ("veitner-2025-ldmatrix-stmatrix"),
// and its `documents` (specs/documents.yaml) say what it is: "Load and store matrices efficently with PTX
// instructions" (Simon Veitner (simveit), https://...). A report written before it had `documents`
// keeps its ids.
std::map<std::string, std::string> document_names(const AuditSummary& a) {
  std::map<std::string, std::string> names;
  for (auto const& d : a.documents) names.emplace(d.id, fmt::format("\"{}\" ({}, {})", d.title, d.author, d.address));
  return names;
}

// "ldmatrix-notes-x1 (xuwh-2025-ldmatrix-notes, the x1 kernel): ..." -> "ldmatrix-notes-x1 ("ldmatrix ..."
// (xuwh, https://...), the x1 kernel): ...": a document's id, in parentheses or before a comma there, by its name.
std::string with_document_names(std::string s, const std::map<std::string, std::string>& names) {
  for (auto const& [id, name] : names)
    for (const char* after : {")", ","}) {
      const std::string cite = "(" + id + after;
      for (std::size_t at; (at = s.find(cite)) != std::string::npos;) s.replace(at, cite.size(), "(" + name + after);
    }
  return s;
}

// A finding: not expected by the specs (the audit fails), a known discrepancy the specs record, or
// for information (an undocumented form the toolkit takes, documents that disagree: never fatal).
enum class Standing { Unexpected, Known, Information };
Standing standing(const FindingRow& f) {
  if (f.fails) return Standing::Unexpected;
  return f.known.empty() ? Standing::Information : Standing::Known;
}
const char* standing_class(Standing s) {
  return s == Standing::Unexpected ? "fail" : s == Standing::Known ? "known" : "observed";
}
const char* standing_label(Standing s, long long n = 1) {
  return s == Standing::Unexpected ? "not expected by the specs"
         : s == Standing::Known    ? (n == 1 ? "known discrepancy" : "known discrepancies")
                                   : "for information";
}

constexpr std::pair<const char*, const char*> kClasses[] = {
    {"document-error", "Document errors: statements ptxas contradicts"},
    {"documents-disagree", "Documents disagree with each other"},
    {"toolkit-accepts", "The toolkit accepts what the documents forbid or do not list"},
    {"toolkit-rejects", "The toolkit rejects what the documents allow"}};

// "7 findings: 2 not expected by the specs, 5 known discrepancies, 0 for information": disjoint parts
// that add up to the findings.
std::string standing_counts(const std::vector<const FindingRow*>& findings) {
  std::map<Standing, int> n;
  for (const FindingRow* f : findings) ++n[standing(*f)];
  std::vector<std::string> parts;
  for (auto s : {Standing::Unexpected, Standing::Known, Standing::Information})  // every part, so they add up
    parts.push_back(fmt::format("{} {}", count_text(n[s]), standing_label(s, n[s])));
  return fmt::format("{} finding{}: {}", count_text(static_cast<long long>(findings.size())),
                     findings.size() == 1 ? "" : "s", fmt::join(parts, ", "));
}

// The verdict first: what `ptxcts audit` exits with, in words, coloured by its tone.
void audit_verdict(pugi::xml_node body, const AuditSummary& a) {
  const auto probes = static_cast<long long>(a.probes), failures = static_cast<long long>(a.ptxas_failures),
             unexpected = static_cast<long long>(a.contradictions);
  std::vector<const FindingRow*> all;
  for (auto const& f : a.findings) all.push_back(&f);
  const std::string asked =
      fmt::format("ptxas {} answered {} probes on {} targets", a.ptxas_version, count_text(probes), a.targets.size());
  std::string verdict, tone;
  if (failures) {
    tone = "unchecked";
    verdict = fmt::format("No verdict: ptxas failed on {} probe{} (the next audit runs them again); {}; {}.",
                          count_text(failures), failures == 1 ? "" : "s", asked, standing_counts(all));
  } else if (unexpected) {
    tone = "needs-action";
    verdict = fmt::format("Does not agree with the specs: {} finding{} the specs do not expect; {}; {}.",
                          count_text(unexpected), unexpected == 1 ? "" : "s", asked, standing_counts(all));
  } else {
    tone = "conforms";
    verdict = all.empty() ? fmt::format("As the specs expect: {}; no findings: ptxas agrees with every statement.", asked)
                          : fmt::format("As the specs expect: {}; {}.", asked, standing_counts(all));
  }
  el(body, "p", {{"id", "verdict"}, {"class", "verdict " + tone}}, verdict);
}

void audit_run_section(pugi::xml_node body, const AuditSummary& a) {
  el(body, "h1", {},
     fmt::format("ptxcts audit: CUDA {} (ptxas {}) against the documents", a.cuda_release, a.ptxas_version));
  audit_verdict(body, a);
  contents(body, {{"findings", "Findings"},
                  {"statements", "Statements"},
                  {"matrix-section", "Forms x targets"},
                  {"requirements", "Requirements"},
                  {"forms", "Hand-listed forms"},
                  {"sentences", "Sentences"},
                  {"counts", "Counts"}});
  pugi::xml_node s = section(body, "run", "The audit");
  pugi::xml_node tb = table(s, {});
  auto line = [&](std::string_view k, const std::string& v) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, k);
    folded(el(tr, "td"), v);
  };
  line("Toolkit", fmt::format("CUDA {}, ptxas {}, PTX ISA {}", a.cuda_release, a.ptxas_version, a.ptx_isa));
  line("Targets", fmt::format("{}", fmt::join(a.targets, ", ")));
  line("Suite", fmt::format("ptxcts {}, commit {}", a.suite_version, a.suite_commit));
  line("Date", a.date);
  line("Host", a.host);
  line("GPU", "none needed: ptxas alone judges these statements");
}

const char* class_heading(const std::string& cls) {
  for (auto const& [c, h] : kClasses)
    if (cls == c) return h;
  return "";
}

using FindingClasses = std::vector<std::pair<std::string, std::vector<const FindingRow*>>>;

// The findings by class, in kClasses' order; a class without findings left out.
FindingClasses finding_classes(const AuditSummary& a) {
  FindingClasses classes;
  for (auto const& [cls, heading] : kClasses) {
    std::vector<const FindingRow*> of_class;
    for (auto const& f : a.findings)
      if (f.cls == cls) of_class.push_back(&f);
    if (!of_class.empty()) classes.emplace_back(cls, std::move(of_class));
  }
  return classes;
}

// A summary of the classes: per class, its findings by standing.
void finding_class_table(pugi::xml_node s, const FindingClasses& classes) {
  pugi::xml_node tb = table(s, {"Class", "Findings", "Not expected", "Known", "For information"});
  for (auto const& [cls, list] : classes) {
    std::map<Standing, int> n;
    for (const FindingRow* f : list) ++n[standing(*f)];
    pugi::xml_node tr = el(tb, "tr");
    el(el(tr, "td"), "a", {{"href", "#" + cls}}, class_heading(cls));
    el(tr, "td", {}, count_text(static_cast<long long>(list.size())));
    for (auto st : {Standing::Unexpected, Standing::Known, Standing::Information})
      el(tr, "td", {{"class", n[st] ? standing_class(st) : "zero"}}, count_text(n[st]));
  }
}

// A finding as a collapsed card (open where it is not expected): the documents' words, ptxas's.

// Schema 6: where a finding holds and where it stops (its forms in ranges, the questions asked that
// could give it, the targets asked where it does not hold).
void extent_paragraphs(pugi::xml_node div, const AuditSummary::FindingRow& f) {
  if (f.asked) el(div, "p", {}, fmt::format("Holds for {} of the {} questions asked that could give it.", f.forms, f.asked));
  if (!f.not_on.empty()) el(div, "p", {}, fmt::format("Does not hold on {} (asked there).", fmt::join(f.not_on, ", ")));
  if (!f.form_ranges.empty()) folded_paragraph(div, "Forms: ", fmt::format("{}", fmt::join(f.form_ranges, "\n")));
}

void finding_card(pugi::xml_node inside, const FindingRow& f, const std::map<std::string, std::string>& names) {
  const Standing st = standing(f);
  pugi::xml_node d = el(inside, "details",
                        {{"class", fmt::format("finding card {}", st == Standing::Unexpected ? ""
                                                                 : st == Standing::Known    ? "known"
                                                                                            : "info")},
                         {"data-id", f.id}});
  if (st == Standing::Unexpected) d.append_attribute("open").set_value("open");
  pugi::xml_node sum = el(d, "summary");
  el(sum, "span", {{"class", std::string("badge ") + standing_class(st)}}, standing_label(st));
  text(sum, with_document_names(f.subject, names));
  pugi::xml_node div = el(d, "div");
  el(div, "pre", {}, with_document_names(f.words, names));
  el(div, "p", {}, "Source: " + source_text(f.source));
  pugi::xml_node p = el(div, "p", {}, "ptxas: ");
  folded(el(p, "code"), f.observed);
  const auto forms = static_cast<long long>(f.forms);
  folded_paragraph(div, fmt::format("{} form{}, e.g. ", count_text(forms), forms == 1 ? "" : "s"),
                   fmt::format("{} on {}", f.example, fmt::join(f.targets, ", ")));
  extent_paragraphs(div, f);
  if (st == Standing::Known) el(div, "p", {}, "Known discrepancy: " + f.known);
  el(div, "p", {{"class", "mono id"}}, "id: " + f.id);
}

void audit_findings_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "findings", "Findings");
  if (a.findings.empty()) {
    el(s, "p", {}, "No findings: ptxas agrees with every statement of the documents.");
    return;
  }
  el(s, "p", {},
     "Where ptxas and the documents part, by class; each finding with the documents' words, what ptxas did, and on "
     "which targets. Only a finding the specs do not expect fails the audit; a known discrepancy is recorded in the "
     "specs, with its source; a finding for information (a form no document lists, documents that disagree with "
     "each other) is never fatal.");
  legend(s, {{"fail", standing_label(Standing::Unexpected)},
             {"known", standing_label(Standing::Known)},
             {"observed", standing_label(Standing::Information)}});
  const auto names = document_names(a);
  // A summary of the classes, then each class collapsed (open where a finding is not expected).
  const FindingClasses classes = finding_classes(a);
  finding_class_table(s, classes);
  for (auto const& [cls, list] : classes) {
    bool any_unexpected = false;
    for (const FindingRow* f : list) any_unexpected = any_unexpected || standing(*f) == Standing::Unexpected;
    pugi::xml_node group = el(s, "details", {{"class", "group"}, {"id", cls}, {"data-class", cls}});
    if (any_unexpected) group.append_attribute("open").set_value("open");
    el(group, "summary", {}, fmt::format("{} ({})", class_heading(cls), standing_counts(list)));
    pugi::xml_node inside = el(group, "div");
    for (const FindingRow* f : list) finding_card(inside, *f, names);
  }
}

// A row's verdict (for grouping), its family and its cells.
struct VerdictTableRow {
  std::string verdict, family;
  std::vector<Cell> cells;
};

// Rows grouped by verdict (contradicted first), each group collapsed with its count.
void verdict_groups(pugi::xml_node s, const std::vector<VerdictTableRow>& list,
                    std::initializer_list<const char*> headings, std::initializer_list<int> widths, const char* noun,
                    const char* nouns) {
  std::map<std::string, std::vector<const VerdictTableRow*>> by;
  for (auto const& item : list) by[item.verdict].push_back(&item);
  std::vector<std::string> order{"contradicted", "not-checkable", "confirmed"};
  for (auto const& [v, _] : by)
    if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
  for (auto const& v : order) {
    auto it = by.find(v);
    if (it == by.end()) continue;
    pugi::xml_node d = el(s, "details", {{"class", "group"}, {"data-verdict", v}});
    pugi::xml_node sum = el(d, "summary");
    el(sum, "span", {{"class", "badge " + (v.empty() ? std::string("observed") : v)}},
       v.empty() ? "observed, no verdict" : v == "not-checkable" ? "not checkable" : v);
    const auto n = static_cast<long long>(it->second.size());
    text(sum, fmt::format("{} {}", count_text(n), n == 1 ? noun : nouns));
    pugi::xml_node tb = wrapped_table(el(d, "div"), headings, widths);
    for (const VerdictTableRow* item : it->second) row(tb, item->family, item->cells);
  }
}

void statements_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "statements", "Statements of the documents, with their verdicts");
  el(s, "p", {},
     "Every statement ptxas can judge (rules, syntax blocks, examples, register counts, the negative space around "
     "each form, minimum versions), and what ptxas made of it. A contradicted statement is the ground of a finding "
     "above.");
  std::vector<VerdictTableRow> rows;
  for (auto const& t : a.statements)
    rows.push_back({t.verdict, t.family,
                    {{t.id}, {t.kind}, {t.verdict, true}, {t.words}, source_cell(t.source), {t.evidence},
                     number_cell(t.forms)}});
  verdict_groups(s, rows, {"Statement", "Kind", "Verdict", "Words", "Source", "Evidence", "Forms"},
                 {16, 8, 8, 24, 16, 22, 6}, "statement", "statements");
}

// The grammar's table: a row per form, a column per target.
void grammar_table(pugi::xml_node d, const AuditSummary& a) {
  pugi::xml_node t = el(scroll_box(d, true), "table", {{"id", "matrix"}, {"class", "targets"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, "Form");
  el(hr, "th", {}, "Documents");
  for (auto const& target : a.targets) el(el(hr, "th", {{"class", "target"}}), "span", {}, target);
  pugi::xml_node tb = el(t, "tbody");
  for (auto const& g : a.grammar) {
    pugi::xml_node tr =
        el(tb, "tr", {{"data-family", g.block.substr(0, g.block.find('.'))}, {"data-name", g.instruction}});
    el(tr, "td", {{"class", "form mono"}}, g.instruction);
    el(tr, "td", {}, g.cls);
    for (std::size_t k = 0; k < a.targets.size(); ++k) {
      char v = k < g.verdicts.size() ? g.verdicts[k] : ' ';
      el(tr, "td",
         {{"class", v == '+'   ? "accepted"
                    : v == '-' ? "rejected"
                               : "untested"}},
         v == '+'   ? "acc"
         : v == '-' ? "rej"
                    : "");
    }
  }
}

void audit_matrix_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "matrix-section", "Forms x targets");
  const auto forms = static_cast<long long>(a.grammar.size());
  el(s, "p", {},
     fmt::format("Every combination the documents' syntax blocks spell ({} forms), classified, and what ptxas made "
                 "of it on each target. Type a form, or part of it, to find it.",
                 count_text(forms)));
  legend(s, {{"accepted", "accepted"}, {"rejected", "rejected"}, {"untested", "not assembled"}});
  std::set<std::string> families;
  for (auto const& g : a.grammar) families.insert(g.block.substr(0, g.block.find('.')));
  pugi::xml_node d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("The table: {} forms x {} targets", count_text(forms), a.targets.size()));
  filter_box(d, "matrix", families, "forms");
  grammar_table(d, a);
}

void requirements_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "requirements", "Requirements (targets, PTX ISA versions)");
  std::vector<VerdictTableRow> rows;
  for (auto const& r : a.requirements)
    rows.push_back({r.verdict, r.family,
                    {{r.variant}, {r.requirement}, {r.documented}, source_cell(r.source), {r.verdict, true},
                     {r.evidence}}});
  verdict_groups(s, rows, {"Variant", "Requirement", "Documented", "Source", "Verdict", "Evidence"},
                 {16, 10, 12, 22, 8, 32}, "requirement", "requirements");
}

void audit_forms_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "forms", "Hand-listed forms (invalid and spellings)");
  std::vector<VerdictTableRow> rows;
  for (auto const& f : a.forms) {
    const std::string verdict = f.verdict_given ? f.verdict : "";  // none: an observation
    rows.push_back({verdict, f.family,
                    {{f.name}, {f.kind}, {f.target}, {f.instruction}, {verdict, true}, {f.evidence}}});
  }
  verdict_groups(s, rows, {"Name", "Kind", "Target", "Instruction", "Verdict", "Evidence"}, {16, 7, 7, 30, 8, 32},
                 "form", "forms");
}

// Per block, the orders of its qualifiers ptxas accepts, as the search found them (reports before it: none).
void qualifier_orders_group(pugi::xml_node s, const AuditSummary& a) {
  if (a.qualifier_orders.empty()) return;
  pugi::xml_node d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("Qualifier orders, per block: the orders ptxas accepts ({} blocks)",
                                   a.qualifier_orders.size()));
  el(d, "p", {}, "Each class of forms (the same qualifiers by position) searched on its first form: each qualifier "
                 "moved to every position, two moves and orders at random; the pairs the single moves found bound "
                 "make the model, which gives the accepted orders among all n! of them. No document gives an order "
                 "other than the documented one: one accepted is an undocumented form accepted.");
  pugi::xml_node tb = wrapped_table(el(d, "div"),
                                    {"Block", "Documented order", "Forms (classes)", "Orders asked", "Accepted",
                                     "Rejected", "Accepted of all orders (model)", "Floating", "Fixed", "Checks"},
                                    {12, 16, 6, 6, 6, 6, 12, 14, 10, 12});
  for (auto const& q : a.qualifier_orders)
    row(tb, q.family,
        {{q.block}, {q.documented}, {fmt::format("{} ({})", q.forms, q.classes)}, number_cell(q.asked),
         number_cell(q.accepted), number_cell(q.rejected), {fmt::format("{} of {}", q.model_accepted, q.orders)},
         {fmt::format("{}", fmt::join(q.floating, " "))}, {fmt::format("{}", fmt::join(q.fixed, " "))},
         {fmt::format("model: {} of {} as predicted; classes: {} of {} the same", q.model_checked - q.model_mispredicted,
                      q.model_checked, q.class_compared - q.class_differing, q.class_compared)}});
}

void counts_section(pugi::xml_node body, const AuditSummary& a) {
  pugi::xml_node s = section(body, "counts", "Counts");
  if (a.coverage_given) {  // schema 4: per kind of question, shown open
    el(s, "p", {}, "Coverage, by kind of question: how many the audit asked, in how many probes, and the findings "
                   "they gave.");
    pugi::xml_node tb = wrapped_table(el(s, "div"), {"Kind of question", "Questions", "Probes", "Findings"},
                                      {40, 20, 20, 20});
    for (auto const& c : a.coverage)
      row(tb, "", {{c.kind}, number_cell(c.questions), number_cell(c.probes), number_cell(c.findings)});
  }
  if (!a.block_coverage.empty()) {  // schema 6: per block and kind, and how the other forms were covered
    pugi::xml_node d = el(s, "details", {{"class", "group"}});
    el(d, "summary", {}, fmt::format("Coverage, by syntax block and kind of question ({} rows): of how many forms, "
                                     "and how the others were covered", a.block_coverage.size()));
    pugi::xml_node tb = wrapped_table(el(d, "div"), {"Block", "Kind of question", "Questions", "Forms", "Asked",
                                                     "Sampled", "How"}, {16, 14, 8, 6, 6, 6, 44});
    for (auto const& c : a.block_coverage)
      row(tb, "", {{c.block}, {question_title(c.question)}, number_cell(c.questions), number_cell(c.forms),
                   number_cell(c.asked), number_cell(c.sampled), {c.how}});
  }
  pugi::xml_node d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("The grammar, per block and class ({} rows)", a.grammar_counts.size()));
  pugi::xml_node tb = wrapped_table(el(d, "div"), {"Block", "Document", "Class", "Forms", "Accepted per target"},
                                      {20, 10, 14, 6, 50});
  for (auto const& g : a.grammar_counts) {
    pugi::xml_node tr = el(tb, "tr");
    for (const std::string* v : {&g.block, &g.document, &g.cls}) el(tr, "td", {}, *v);
    el(tr, "td", {}, fmt::format("{}", g.forms));
    std::string per;
    for (auto const& [t, n] : g.accepted_per_target) per += fmt::format("{} {}; ", t, n);
    el(tr, "td", {}, per);
  }
  d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("The negative space, per block and kind ({} rows)", a.negative_space.size()));
  tb = wrapped_table(el(d, "div"), {"Block", "Kind", "Documents", "Forms", "Accepted", "Rejected"},
                     {30, 20, 20, 10, 10, 10});
  for (auto const& n : a.negative_space)
    row(tb, "", {{n.block}, {n.kind}, {n.documents}, number_cell(n.forms), number_cell(n.accepted),
                 number_cell(n.rejected)});
  qualifier_orders_group(s, a);
}

// The documents the specs cite, by their public identity (a report written before it had `documents`: none).
void documents_section(pugi::xml_node body, const AuditSummary& a) {
  if (a.documents.empty()) return;
  pugi::xml_node s = section(body, "documents", "The documents");
  el(s, "p", {}, "The documents the specs cite (specs/documents.yaml), by the id their findings and statements name.");
  pugi::xml_node tb = wrapped_table(el(s, "div"), {"Id", "Title", "Author", "Address"}, {20, 35, 20, 25});
  for (auto const& d : a.documents) {  // the address as text: a page links only files beside it
    pugi::xml_node tr = el(tb, "tr");
    for (const std::string* k : {&d.id, &d.title, &d.author, &d.address}) el(tr, "td", {}, *k);
  }
}

}  // namespace

std::string audit_html(const AuditSummary& audit) {
  HtmlPage page(fmt::format("ptxcts audit CUDA {}", audit.cuda_release));
  page.body.append_attribute("class").set_value("audit");
  audit_run_section(page.body, audit);
  audit_findings_section(page.body, audit);
  statements_section(page.body, audit);
  audit_matrix_section(page.body, audit);
  requirements_section(page.body, audit);
  audit_forms_section(page.body, audit);
  sentence_counts_section(page.body, audit.sentences, kAuditElsewhere);
  documents_section(page.body, audit);
  counts_section(page.body, audit);
  return page.str();
}

}  // namespace ptxcts

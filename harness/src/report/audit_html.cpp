#include "report/audit_html.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <vector>

#include "report/html_document.hpp"
#include "report/html_page_parts.hpp"
#include "report/target_lists.hpp"
#include "results/outcome.hpp"

namespace ptxcts {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) { return j.at(key).get<std::string>(); }

std::string field(const json& j, const char* k) {  // optional keys (a spelling has no verdict) are ""
  return !j.contains(k) ? "" : j[k].is_string() ? j[k].get<std::string>() : j[k].dump();
}

// `text` into `parent`, its long target lists folded ("sm_75 … sm_121f (23 targets)", the whole list
// in the tooltip).
void folded(pugi::xml_node parent, const std::string& s) {
  for (auto const& piece : fold_target_pieces(s))
    if (piece.whole.empty()) text(parent, piece.text);
    else el(parent, "abbr", {{"class", "targets"}, {"title", piece.whole}}, piece.text);
}

// A row of a table: a cell per key; `verdict_key`'s cell colored by its value; long cells folded.
void row(pugi::xml_node tb, const json& j, std::initializer_list<const char*> keys, const char* verdict_key = "") {
  pugi::xml_node tr = el(tb, "tr", {{"data-family", field(j, "family")}});
  for (const char* k : keys) {
    const std::string s = field(j, k);
    folded(el(tr, "td", {{"class", std::string_view(k) == verdict_key ? s : ""}}), s);
  }
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

std::vector<std::string> strings(const json& list) {
  std::vector<std::string> out;
  for (auto const& t : list) out.push_back(t.get<std::string>());
  return out;
}

// The documents by their names: a report cites a document by its id ("veitner-2025-ldmatrix-stmatrix"),
// and its `documents` (specs/documents.yaml) say what it is: "Load and store matrices efficently with PTX
// instructions" (Simon Veitner (simveit), https://...). A report written before it had `documents`
// keeps its ids.
std::map<std::string, std::string> document_names(const json& a) {
  std::map<std::string, std::string> names;
  if (a.contains("documents"))
    for (auto const& d : a.at("documents"))
      names.emplace(str(d, "id"), fmt::format("\"{}\" ({}, {})", str(d, "title"), str(d, "author"), str(d, "address")));
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
Standing standing(const json& f) {
  if (f.at("fails_audit").get<bool>()) return Standing::Unexpected;
  return str(f, "known_discrepancy").empty() ? Standing::Information : Standing::Known;
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
std::string standing_counts(const std::vector<const json*>& findings) {
  std::map<Standing, int> n;
  for (const json* f : findings) ++n[standing(*f)];
  std::vector<std::string> parts;
  for (auto s : {Standing::Unexpected, Standing::Known, Standing::Information})  // every part, so they add up
    parts.push_back(fmt::format("{} {}", count_text(n[s]), standing_label(s, n[s])));
  return fmt::format("{} finding{}: {}", count_text(static_cast<long long>(findings.size())),
                     findings.size() == 1 ? "" : "s", fmt::join(parts, ", "));
}

void audit_run_section(pugi::xml_node body, const json& a) {
  const json& run = a.at("run");
  const json& sum = a.at("summary");
  el(body, "h1", {},
     fmt::format("ptxcts audit: CUDA {} (ptxas {}) against the documents", str(run, "cuda_release"),
                 str(run, "ptxas_version")));
  // The verdict first: what `ptxcts audit` exits with, in words.
  const long long probes = sum.at("probes").get<long long>(), failures = sum.at("ptxas_failures").get<long long>(),
                  unexpected = sum.at("contradictions").get<long long>();
  std::vector<const json*> all;
  for (auto const& f : a.at("findings")) all.push_back(&f);
  const std::string asked = fmt::format("ptxas {} answered {} probes on {} targets", str(run, "ptxas_version"),
                                        count_text(probes), run.at("targets").size());
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
  contents(body, {{"findings", "Findings"},
                  {"statements", "Statements"},
                  {"matrix-section", "Forms x targets"},
                  {"requirements", "Requirements"},
                  {"forms", "Hand-listed forms"},
                  {"counts", "Counts"}});
  pugi::xml_node s = section(body, "run", "The audit");
  pugi::xml_node tb = table(s, {});
  auto line = [&](std::string_view k, const std::string& v) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, k);
    folded(el(tr, "td"), v);
  };
  line("Toolkit", fmt::format("CUDA {}, ptxas {}, PTX ISA {}", str(run, "cuda_release"), str(run, "ptxas_version"),
                              str(run, "ptx_isa")));
  line("Targets", fmt::format("{}", fmt::join(strings(run.at("targets")), ", ")));
  line("Suite", fmt::format("ptxcts {}, commit {}", str(run, "suite_version"), str(run, "suite_commit")));
  line("Date", str(run, "date"));
  line("Host", str(run, "host"));
  line("GPU", "none needed: ptxas alone judges these statements");
}

void audit_findings_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "findings", "Findings");
  const json& findings = a.at("findings");
  if (findings.empty()) {
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
  pugi::xml_node tb = table(s, {"Class", "Findings", "Not expected", "Known", "For information"});
  std::vector<std::pair<std::string, std::vector<const json*>>> classes;
  for (auto const& [cls, heading] : kClasses) {
    std::vector<const json*> of_class;
    for (auto const& f : findings)
      if (str(f, "class") == cls) of_class.push_back(&f);
    if (!of_class.empty()) classes.emplace_back(cls, std::move(of_class));
  }
  for (auto const& [cls, list] : classes) {
    std::map<Standing, int> n;
    for (const json* f : list) ++n[standing(*f)];
    pugi::xml_node tr = el(tb, "tr");
    const char* heading = "";
    for (auto const& [c, h] : kClasses)
      if (cls == c) heading = h;
    el(el(tr, "td"), "a", {{"href", "#" + cls}}, heading);
    el(tr, "td", {}, count_text(static_cast<long long>(list.size())));
    for (auto st : {Standing::Unexpected, Standing::Known, Standing::Information})
      el(tr, "td", {{"class", n[st] ? standing_class(st) : "zero"}}, count_text(n[st]));
  }
  for (auto const& [cls, list] : classes) {
    const char* heading = "";
    for (auto const& [c, h] : kClasses)
      if (cls == c) heading = h;
    bool any_unexpected = false;
    for (const json* f : list) any_unexpected = any_unexpected || standing(*f) == Standing::Unexpected;
    pugi::xml_node group = el(s, "details", {{"class", "group"}, {"id", cls}, {"data-class", cls}});
    if (any_unexpected) group.append_attribute("open").set_value("open");
    el(group, "summary", {}, fmt::format("{} ({})", heading, standing_counts(list)));
    pugi::xml_node inside = el(group, "div");
    for (const json* fp : list) {
      const json& f = *fp;
      const Standing st = standing(f);
      pugi::xml_node d = el(inside, "details",
                            {{"class", fmt::format("finding card {}", st == Standing::Unexpected ? ""
                                                                     : st == Standing::Known    ? "known"
                                                                                                : "info")},
                             {"data-id", str(f, "id")}});
      if (st == Standing::Unexpected) d.append_attribute("open").set_value("open");
      pugi::xml_node sum = el(d, "summary");
      el(sum, "span", {{"class", std::string("badge ") + standing_class(st)}}, standing_label(st));
      text(sum, with_document_names(str(f, "subject"), names));
      pugi::xml_node div = el(d, "div");
      el(div, "pre", {}, with_document_names(str(f, "words"), names));
      el(div, "p", {}, "Source: " + str(f, "source"));
      pugi::xml_node p = el(div, "p", {}, "ptxas: ");
      folded(el(p, "code"), str(f, "observed"));
      const long long forms = f.at("forms").get<long long>();
      folded_paragraph(div, fmt::format("{} form{}, e.g. ", count_text(forms), forms == 1 ? "" : "s"),
                       fmt::format("{} on {}", str(f, "example"), fmt::join(strings(f.at("targets")), ", ")));
      if (st == Standing::Known) el(div, "p", {}, "Known discrepancy: " + str(f, "known_discrepancy"));
      el(div, "p", {{"class", "mono id"}}, "id: " + str(f, "id"));
    }
  }
}

// Rows grouped by verdict (contradicted first), each group collapsed with its count.
void verdict_groups(pugi::xml_node s, const json& list, std::initializer_list<const char*> headings,
                    std::initializer_list<int> widths, std::initializer_list<const char*> keys, const char* noun,
                    const char* nouns) {
  std::map<std::string, std::vector<const json*>> by;
  for (auto const& item : list) by[field(item, "verdict")].push_back(&item);
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
    for (const json* item : it->second) row(tb, *item, keys, "verdict");
  }
}

void statements_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "statements", "Statements of the documents, with their verdicts");
  el(s, "p", {},
     "Every statement ptxas can judge (rules, syntax blocks, examples, register counts, the negative space around "
     "each form, minimum versions), and what ptxas made of it. A contradicted statement is the ground of a finding "
     "above.");
  verdict_groups(s, a.at("statements"), {"Statement", "Kind", "Verdict", "Words", "Source", "Evidence", "Forms"},
                 {16, 8, 8, 24, 16, 22, 6},
                 {"id", "kind", "verdict", "words", "source", "evidence", "forms"}, "statement", "statements");
}

void audit_matrix_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "matrix-section", "Forms x targets");
  const json& grammar = a.at("grammar");
  el(s, "p", {},
     fmt::format("Every combination the documents' syntax blocks spell ({} forms), classified, and what ptxas made "
                 "of it on each target. Type a form, or part of it, to find it.",
                 count_text(static_cast<long long>(grammar.size()))));
  legend(s, {{"accepted", "accepted"}, {"rejected", "rejected"}, {"untested", "not assembled"}});
  std::vector<std::string> targets = strings(a.at("run").at("targets"));
  std::set<std::string> families;
  for (auto const& g : grammar) {
    auto block = str(g, "block");
    families.insert(block.substr(0, block.find('.')));
  }
  pugi::xml_node d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("The table: {} forms x {} targets", count_text(static_cast<long long>(grammar.size())),
                                   targets.size()));
  filter_box(d, "matrix", families, "forms");
  pugi::xml_node t = el(scroll_box(d, true), "table", {{"id", "matrix"}, {"class", "targets"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, "Form");
  el(hr, "th", {}, "Documents");
  for (auto const& target : targets) el(el(hr, "th", {{"class", "target"}}), "span", {}, target);
  pugi::xml_node tb = el(t, "tbody");
  for (auto const& g : grammar) {
    auto block = str(g, "block"), instruction = str(g, "instruction"), verdicts = str(g, "verdicts");
    pugi::xml_node tr = el(tb, "tr", {{"data-family", block.substr(0, block.find('.'))}, {"data-name", instruction}});
    el(tr, "td", {{"class", "form mono"}}, instruction);
    el(tr, "td", {}, str(g, "class"));
    for (std::size_t k = 0; k < targets.size(); ++k) {
      char v = k < verdicts.size() ? verdicts[k] : ' ';
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

void requirements_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "requirements", "Requirements (targets, PTX ISA versions)");
  verdict_groups(s, a.at("requirements"), {"Variant", "Requirement", "Documented", "Source", "Verdict", "Evidence"},
                 {16, 10, 12, 22, 8, 32},
                 {"variant", "requirement", "documented", "source", "verdict", "evidence"}, "requirement",
                 "requirements");
}

void audit_forms_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "forms", "Hand-listed forms (invalid and spellings)");
  verdict_groups(s, a.at("forms"), {"Name", "Kind", "Target", "Instruction", "Verdict", "Evidence"},
                 {16, 7, 7, 30, 8, 32},
                 {"name", "kind", "target", "instruction", "verdict", "evidence"}, "form", "forms");
}

void counts_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "counts", "Counts");
  if (a.contains("coverage")) {  // schema 4: per kind of question, shown open
    el(s, "p", {}, "Coverage, by kind of question: how many the audit asked, in how many probes, and the findings "
                   "they gave.");
    pugi::xml_node tb = wrapped_table(el(s, "div"), {"Kind of question", "Questions", "Probes", "Findings"},
                                      {40, 20, 20, 20});
    for (auto const& c : a.at("coverage")) row(tb, c, {"kind", "questions", "probes", "findings"});
  }
  pugi::xml_node d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {}, fmt::format("The grammar, per block and class ({} rows)", a.at("grammar_counts").size()));
  pugi::xml_node tb = wrapped_table(el(d, "div"), {"Block", "Document", "Class", "Forms", "Accepted per target"},
                                      {20, 10, 14, 6, 50});
  for (auto const& g : a.at("grammar_counts")) {
    pugi::xml_node tr = el(tb, "tr");
    for (const char* k : {"block", "document", "class"}) el(tr, "td", {}, str(g, k));
    el(tr, "td", {}, g.at("forms").dump());
    std::string per;
    for (auto const& [t, n] : g.at("accepted_per_target").items()) per += fmt::format("{} {}; ", t, n.dump());
    el(tr, "td", {}, per);
  }
  d = el(s, "details", {{"class", "group"}});
  el(d, "summary", {},
     fmt::format("The negative space, per block and kind ({} rows)", a.at("negative_space_counts").size()));
  tb = wrapped_table(el(d, "div"), {"Block", "Kind", "Documents", "Forms", "Accepted", "Rejected"},
                     {30, 20, 20, 10, 10, 10});
  for (auto const& n : a.at("negative_space_counts"))
    row(tb, n, {"block", "kind", "documents", "forms", "accepted", "rejected"});
}

// The documents the specs cite, by their public identity (a report written before it had `documents`: none).
void documents_section(pugi::xml_node body, const json& a) {
  if (!a.contains("documents")) return;
  pugi::xml_node s = section(body, "documents", "The documents");
  el(s, "p", {}, "The documents the specs cite (specs/documents.yaml), by the id their findings and statements name.");
  pugi::xml_node tb = wrapped_table(el(s, "div"), {"Id", "Title", "Author", "Address"}, {20, 35, 20, 25});
  for (auto const& d : a.at("documents")) {  // the address as text: a page links only files beside it
    pugi::xml_node tr = el(tb, "tr");
    for (const char* k : {"id", "title", "author", "address"}) el(tr, "td", {}, str(d, k));
  }
}

}  // namespace

std::string audit_html(const json& audit) {
  HtmlPage page(fmt::format("ptxcts audit CUDA {}", str(audit.at("run"), "cuda_release")));
  page.body.append_attribute("class").set_value("audit");
  audit_run_section(page.body, audit);
  audit_findings_section(page.body, audit);
  statements_section(page.body, audit);
  audit_matrix_section(page.body, audit);
  requirements_section(page.body, audit);
  audit_forms_section(page.body, audit);
  documents_section(page.body, audit);
  counts_section(page.body, audit);
  return page.str();
}

}  // namespace ptxcts

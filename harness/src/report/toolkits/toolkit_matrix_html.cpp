#include "report/toolkits/toolkit_matrix_html.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "report/pages/html_document.hpp"
#include "report/pages/html_page_parts.hpp"
#include "report/pages/target_lists.hpp"

namespace ptxcts {
namespace {

// A cell of a side-by-side row: what it says, its color (a class of the page's style), a tooltip.
struct MatrixCell {
  std::string text, cls, title;
};
const MatrixCell kAbsent{.text = "—", .cls = "untested", .title = "no such row for this toolkit"};

// The color of a change, by its kind.
const char* change_class(const std::string& kind) {
  if (kind == "form newly accepted" || kind == "target added") return "accepted";
  if (kind == "form newly rejected" || kind == "target removed") return "rejected";
  if (kind == "finding appeared") return "contradicted";
  if (kind == "finding fixed") return "confirmed";
  return "";
}

std::string counts_text(const PairChanges& s) {
  std::vector<std::string> parts;
  for (auto const& k : kChangeKinds)
    if (auto n = s.count(k)) parts.push_back(fmt::format("{} {}", n, k));
  return parts.empty() ? "No changes." : fmt::format("{}.", fmt::join(parts, "; "));
}

// The header row: the first column's heading, then one column per toolkit.
pugi::xml_node side_table(pugi::xml_node parent, const char* id, const char* first, const MatrixFile& m,
                          const char* second = nullptr) {
  pugi::xml_node t = el(scroll_box(parent, std::string_view(id) == "matrix"), "table", {{"id", id}, {"class", "side"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, first);
  if (second) el(hr, "th", {}, second);
  for (auto const& tk : m.toolkits)
    el(hr, "th", {{"data-toolkit", tk.toolkit.cuda_release}}, "CUDA " + tk.toolkit.cuda_release);
  return el(t, "tbody");
}

// Rows whose cells are not the same in every toolkit come first, marked.
struct SideRow {
  std::string id, family;
  std::vector<MatrixCell> cells;
  bool differs = false;
};

void side_rows(pugi::xml_node tb, std::vector<SideRow> rows) {
  for (auto& r : rows)
    r.differs = std::any_of(r.cells.begin(), r.cells.end(), [&](const MatrixCell& c) { return c.text != r.cells[0].text; });
  std::stable_partition(rows.begin(), rows.end(), [](const SideRow& r) { return r.differs; });
  for (auto const& r : rows) {
    pugi::xml_node tr =
        el(tb, "tr", {{"data-family", r.family}, {"data-name", r.id}, {"class", r.differs ? "differs" : ""}});
    el(tr, "td", {{"class", r.differs ? "mono diffcol" : "mono"}}, r.id);
    for (auto const& c : r.cells) el(tr, "td", {{"class", c.cls}, {"title", c.title}}, c.text);
  }
}

template <class C, class F>
std::vector<MatrixCell> cells(const std::vector<std::optional<C>>& per, F cell) {
  std::vector<MatrixCell> out;
  for (auto const& p : per) out.push_back(p ? cell(*p) : kAbsent);
  return out;
}

void toolkits_section(pugi::xml_node body, const MatrixFile& m) {
  pugi::xml_node s = section(body, "toolkits", "The toolkits");
  el(s, "p", {},
     fmt::format("Written by ptxcts {} (commit {}) on {} at {} from the audit reports of {} toolkits, a column per "
                 "CUDA release, oldest first. A target a toolkit does not know is not known to it, never a rejection.",
                 m.run.suite_version, m.run.suite_commit, m.run.host, m.run.date, m.toolkits.size()));
  pugi::xml_node tb = side_table(s, "toolkit-columns", "", m);
  auto line = [&](const char* what, auto value, auto cls) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, what);
    for (auto const& t : m.toolkits) el(tr, "td", {{"class", cls(t)}}, value(t));
  };
  auto plain = [](const MatrixFile::Toolkit&) { return ""; };
  line(
      "ptxas", [](auto const& t) { return t.toolkit.ptxas_version; }, plain);
  line(
      "PTX ISA", [](auto const& t) { return t.toolkit.ptx_isa; }, plain);
  pugi::xml_node targets = el(tb, "tr");
  el(targets, "td", {}, "Targets");
  for (auto const& t : m.toolkits) {  // a long list folded, the whole list its tooltip
    pugi::xml_node td = el(targets, "td", {{"class", "mono"}});
    for (auto const& piece : fold_target_pieces(fmt::format("{}", fmt::join(t.toolkit.targets, ", "))))
      if (piece.whole.empty()) text(td, piece.text);
      else el(td, "abbr", {{"class", "targets"}, {"title", piece.whole}}, piece.text);
  }
  line(
      "Probes", [](auto const& t) { return std::to_string(t.probes); }, plain);
  line(
      "Findings", [](auto const& t) { return std::to_string(t.findings); }, plain);
  line(
      "Not expected by the specs", [](auto const& t) { return std::to_string(t.contradictions); },
      [](auto const& t) { return t.contradictions ? "contradicted" : "confirmed"; });
  pugi::xml_node tr = el(tb, "tr");
  el(tr, "td", {}, "The audit's page");
  for (auto const& t : m.toolkits) {
    const std::string page = std::filesystem::path(t.report).replace_extension(".html").string();
    el(el(tr, "td"), "a", {{"href", page}}, page);
  }
}

void changes_section(pugi::xml_node body, const MatrixFile& m) {
  pugi::xml_node s = section(body, "changes", "What changed between consecutive releases");
  el(s, "p", {},
     "Forms newly accepted or rejected (compared only on targets both releases know), ptxas's messages, targets, "
     "findings that appeared or were fixed, statements and requirements whose verdict changed.");
  legend(s, {{"accepted", "newly accepted, target added"},
             {"rejected", "newly rejected, target removed"},
             {"contradicted", "finding appeared"},
             {"confirmed", "finding fixed"}});
  for (auto const& step : m.steps) {
    pugi::xml_node d = el(s, "div", {{"class", "step"}, {"data-from", step.from}, {"data-to", step.to}});
    el(d, "h3", {{"id", fmt::format("cuda{}-to-{}", step.from, step.to)}},
       fmt::format("CUDA {} → {}: {} change{}", step.from, step.to, step.changes.size(),
                   step.changes.size() == 1 ? "" : "s"));
    el(d, "p", {}, counts_text(step));
    if (step.changes.empty()) continue;
    pugi::xml_node tb = table(d, {"Kind", "What", "Before", "After"}, "changes");
    for (auto const& kind : kChangeKinds)
      for (auto const& c : step.changes) {
        if (c.kind != kind) continue;
        pugi::xml_node tr = el(tb, "tr", {{"data-kind", c.kind}, {"class", change_class(c.kind)}});
        el(tr, "td", {}, c.kind);
        el(tr, "td", {{"class", "mono"}}, c.what);
        el(tr, "td", {}, c.before);
        el(tr, "td", {}, c.after);
      }
  }
}

// What the code became: the SASS that changed between releases (ptxcts sass reports), where any.
void sass_section(pugi::xml_node body, const MatrixFile& m) {
  if (m.sass.empty()) return;
  pugi::xml_node s = section(body, "sass", "What the code became (SASS) between releases");
  for (auto const& st : m.sass) {
    el(s, "h3", {},
       st.changes.empty() ? fmt::format("CUDA {} → {}: no kernel's SASS changed", st.from, st.to)
                          : fmt::format("CUDA {} → {}: {} kernel x target change{}", st.from, st.to, st.changes.size(),
                                        st.changes.size() == 1 ? "" : "s"));
    // The disassembler by its version; where the auditing machine found it (its paths) only in the tooltip.
    std::vector<std::string> tools;
    for (auto const& d : st.disassemblers) {
      std::string tool = d.substr(0, d.find(" ("));
      if (std::find(tools.begin(), tools.end(), tool) == tools.end()) tools.push_back(tool);
    }
    if (!tools.empty())
      el(s, "p", {{"class", "disassembler"}, {"title", fmt::format("{}", fmt::join(st.disassemblers, "\n"))}},
         fmt::format("Disassembled by {}.", fmt::join(tools, " and ")));
    if (st.changes.empty()) continue;
    pugi::xml_node tb = table(s, {"Kernel", "Target", "Before", "After"}, "sass");
    for (auto const& c : st.changes) {
      pugi::xml_node tr = el(tb, "tr");
      el(tr, "td", {{"class", "mono"}}, c.kernel);
      el(tr, "td", {}, c.target);
      el(tr, "td", {{"class", "mono"}}, c.before);
      el(tr, "td", {{"class", "mono"}}, c.after);
    }
  }
}

void matrix_findings_section(pugi::xml_node body, const MatrixFile& m) {
  pugi::xml_node s = section(body, "findings", "Findings, side by side");
  el(s, "p", {}, "Forms each finding covers per toolkit; what ptxas did is the tooltip. Rows that differ come first.");
  legend(s, {{"contradicted", "fails the audit (not expected by the specs)"},
             {"known", "known discrepancy, recorded in the specs"},
             {"observed", "shown"},
             {"untested", "no such finding"}});
  std::vector<SideRow> rows;
  std::set<std::string> classes;
  auto finding_cell = [](const MatrixFile::FindingCell& c) {
    return MatrixCell{.text = fmt::format("{} form{}{}", c.forms, c.forms == 1 ? "" : "s",
                                    c.fails   ? ", fails"
                                    : c.known ? ", known"
                                              : ""),
                .cls = c.fails   ? "contradicted"
                       : c.known ? "known"
                                 : "observed",
                .title = c.observed};
  };
  for (auto const& f : m.findings) {
    SideRow r{.id = f.id, .family = "", .cells = cells(f.per, finding_cell)};
    for (auto const& p : f.per)
      if (p) r.family = p->cls;
    classes.insert(r.family);
    rows.push_back(std::move(r));
  }
  filter_box(s, "finding-columns", classes);
  side_rows(side_table(s, "finding-columns", "Finding", m), std::move(rows));
}

void verdicts_section(pugi::xml_node body, const MatrixFile& m, const char* id, const char* heading,
                      const std::vector<MatrixFile::Row<MatrixFile::VerdictCell>>& list) {
  pugi::xml_node s = section(body, id, heading);
  legend(s, {{"confirmed", "confirmed"},
             {"contradicted", "contradicted"},
             {"not-checkable", "not checkable (a target not known, ptxas failed)"},
             {"untested", "no such statement"}});
  std::vector<SideRow> rows;
  auto verdict_cell = [](const MatrixFile::VerdictCell& c) {
    const bool unknown =
        c.verdict == "not-checkable" && c.evidence.find("not known to this toolkit") != std::string::npos;
    return MatrixCell{.text = unknown ? "not known" : c.verdict, .cls = c.verdict, .title = c.evidence};
  };
  for (auto const& v : list) rows.push_back({.id = v.id, .family = "", .cells = cells(v.per, verdict_cell)});
  side_rows(side_table(s, (std::string(id) + "-columns").c_str(), "Statement", m), std::move(rows));
}

void matrix_forms_section(pugi::xml_node body, const MatrixFile& m) {
  pugi::xml_node s = section(body, "forms", "Hand-listed forms, side by side");
  legend(s, {{"accepted", "accepted"}, {"rejected", "rejected"}, {"untested", "not assembled, target not known"}});
  std::vector<SideRow> rows;
  auto form_cell = [](const MatrixFile::FormCell& c) {
    return MatrixCell{.text = c.state,
                .cls = c.state == "accepted"   ? "accepted"
                       : c.state == "rejected" ? "rejected"
                                               : "untested",
                .title = c.verdict + ": " + c.evidence};
  };
  for (auto const& f : m.forms) rows.push_back({.id = f.id, .family = "", .cells = cells(f.per, form_cell)});
  side_rows(side_table(s, "form-columns", "Form", m), std::move(rows));
}

// A grammar form on one toolkit: accepted on how many of the targets it knows.
MatrixCell grammar_matrix_cell(const std::string& verdicts, const MatrixFile::Toolkit& t) {
  std::vector<std::string> acc, rej, failed;
  for (std::size_t k = 0; k < verdicts.size(); ++k)
    (verdicts[k] == '+' ? acc : verdicts[k] == '-' ? rej : failed).push_back(t.toolkit.targets[k]);
  MatrixCell c{.text = fmt::format("{}/{}", acc.size(), verdicts.size()), .cls = "", .title = ""};
  c.cls = failed.empty() && rej.empty() ? "accepted" : failed.empty() && acc.empty() ? "rejected" : "partial";
  if (c.cls == "partial")
    c.title = fmt::format("accepted on {}; rejected on {}{}{}", fmt::join(acc, " "), fmt::join(rej, " "),
                          failed.empty() ? "" : "; ptxas failed on ", fmt::join(failed, " "));
  return c;
}

void grammar_section(pugi::xml_node body, const MatrixFile& m) {
  pugi::xml_node s = section(body, "matrix-section", "Forms of the grammar x toolkits");
  el(s, "p", {},
     "Every form the documents' syntax blocks spell, and on how many of the targets each toolkit knows ptxas accepts "
     "it (the targets are the tooltip). Forms whose verdict changed between two releases come first, marked. Type a "
     "form, or part of it, to find it.");
  legend(s, {{"accepted", "accepted on every target"},
             {"partial", "on some targets"},
             {"rejected", "on none"},
             {"untested", "not in this toolkit's audit"}});
  std::set<std::string> changed;
  for (auto const& st : m.steps)
    for (auto const& c : st.changes)
      if (c.kind == "form newly accepted" || c.kind == "form newly rejected") changed.insert(c.what);
  std::set<std::string> families;
  for (auto const& g : m.grammar) families.insert(g.block.substr(0, g.block.find('.')));
  filter_box(s, "matrix", families);
  pugi::xml_node tb = side_table(s, "matrix", "Form", m, "Block");
  std::vector<const MatrixFile::GrammarRow*> rows;
  for (auto const& g : m.grammar) rows.push_back(&g);
  std::stable_partition(rows.begin(), rows.end(), [&](auto const* g) { return changed.count(g->instruction) > 0; });
  for (const auto* g : rows) {
    const bool differs = changed.count(g->instruction) > 0;
    pugi::xml_node tr = el(tb, "tr",
                           {{"data-family", g->block.substr(0, g->block.find('.'))},
                            {"data-name", g->instruction},
                            {"class", differs ? "differs" : ""}});
    el(tr, "td", {{"class", differs ? "form mono diffcol" : "form mono"}}, g->instruction);
    el(tr, "td", {{"class", "mono"}}, g->block);
    for (std::size_t c = 0; c < m.toolkits.size(); ++c) {
      const MatrixCell cell = g->verdicts[c] ? grammar_matrix_cell(*g->verdicts[c], m.toolkits[c]) : kAbsent;
      el(tr, "td", {{"class", cell.cls}, {"title", cell.title}}, cell.text);
    }
  }
}

}  // namespace

std::string toolkits_verdict_line(const std::vector<std::pair<std::string, std::size_t>>& unexpected_per_release) {
  std::vector<std::string> failing;
  for (auto const& [release, n] : unexpected_per_release)
    if (n) failing.push_back(fmt::format("CUDA {}: {}", release, n));
  const std::size_t all = unexpected_per_release.size();
  const std::string parts =
      fmt::format("{} toolkit{}: {} as the specs expect, {} with findings the specs do not expect", all,
                  all == 1 ? "" : "s", all - failing.size(), failing.size());
  return failing.empty() ? fmt::format("As the specs expect: {}.", parts)
                         : fmt::format("Does not agree with the specs: {} ({}).", parts, fmt::join(failing, ", "));
}

std::string toolkit_matrix_html(const MatrixFile& m) {
  const std::string span =
      fmt::format("CUDA {} to {}", m.toolkits.front().toolkit.cuda_release, m.toolkits.back().toolkit.cuda_release);
  HtmlPage page("ptxcts toolkits " + span);
  el(page.body, "h1", {}, "ptxcts: toolkits side by side, " + span);
  std::vector<std::pair<std::string, std::size_t>> unexpected;
  for (auto const& t : m.toolkits) unexpected.emplace_back(t.toolkit.cuda_release, t.contradictions);
  const std::string verdict = toolkits_verdict_line(unexpected);
  el(page.body, "p",
     {{"id", "verdict"}, {"class", verdict.starts_with("As ") ? "verdict conforms" : "verdict needs-action"}}, verdict);
  contents(page.body, {{"changes", "What changed"},
                       {"findings", "Findings"},
                       {"statements", "Statements"},
                       {"requirements", "Requirements"},
                       {"forms", "Hand-listed forms"},
                       {"matrix-section", "Forms of the grammar"}});
  toolkits_section(page.body, m);
  changes_section(page.body, m);
  sass_section(page.body, m);
  matrix_findings_section(page.body, m);
  verdicts_section(page.body, m, "statements", "Statements of the documents, side by side", m.statements);
  verdicts_section(page.body, m, "requirements", "Documented requirements, side by side", m.requirements);
  matrix_forms_section(page.body, m);
  grammar_section(page.body, m);
  return page.str();
}

}  // namespace ptxcts

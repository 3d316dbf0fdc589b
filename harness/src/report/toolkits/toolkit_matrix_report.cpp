#include "report/toolkits/toolkit_matrix_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "report/markdown_cell.hpp"
#include "report/pages/page_file.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "results/report_kind.hpp"
#include "results/toolkit_identity.hpp"
#include "util/atomic_file.hpp"

namespace ptxcts {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kMatrixSchemaVersion = 1;
constexpr std::size_t kChangesShownPerKind = 60;  // in the Markdown; the JSON has every one

std::string counts_line(const PairChanges& c) {
  std::vector<std::string> parts;
  for (auto const& k : kChangeKinds)
    if (auto n = c.count(k)) parts.push_back(fmt::format("{} {}", n, k));
  return parts.empty() ? "no changes" : fmt::format("{}", fmt::join(parts, "; "));
}

// The union of rows over the columns, in first-seen order, and each column's row by key.
template <class Row, class Key>
std::pair<std::vector<std::string>, std::vector<std::map<std::string, const Row*>>> side_by_side(
    const ToolkitMatrix& m, std::vector<Row> AuditSummary::*rows, Key key) {
  std::vector<std::string> order;
  std::set<std::string> seen;
  std::vector<std::map<std::string, const Row*>> per(m.columns.size());
  for (std::size_t c = 0; c < m.columns.size(); ++c)
    for (auto const& r : m.columns[c].*rows) {
      std::string k = key(r);
      if (seen.insert(k).second) order.push_back(k);
      per[c][k] = &r;
    }
  return {order, per};
}

std::string finding_cell(const AuditSummary::FindingRow* f) {
  if (!f) return "—";
  return fmt::format("{} form{}{}", f->forms, f->forms == 1 ? "" : "s",
                     f->fails            ? ", FAILS"
                     : !f->known.empty() ? ", known"
                     : f->undocumented   ? ", undocumented"
                                         : "");
}

std::string verdict_cell(const AuditSummary::VerdictRow* v) {
  if (!v) return "—";
  if (v->verdict == "not-checkable" && v->evidence.find("not known to this toolkit") != std::string::npos)
    return "not known";
  return v->verdict;
}

std::string form_cell(const AuditSummary::FormRow* f) {
  if (!f) return "—";
  if (!f->assembled) return f->evidence.find("not known") != std::string::npos ? "target not known" : "not assembled";
  return f->accepted ? "accepted" : "rejected";
}

// "+ 12/14" style: accepted on how many of the targets this toolkit knows.
std::string grammar_cell(const AuditSummary::GrammarRow* g) {
  if (!g) return "—";
  std::size_t acc = 0;
  for (char c : g->verdicts) acc += c == '+';
  return fmt::format("{}/{}", acc, g->verdicts.size());
}

}  // namespace

namespace {

// The toolkits, oldest first, each with its counts and its audit report's file name.
Json toolkits_json(const ToolkitMatrix& m) {
  Json tks = Json::array();
  for (auto const& c : m.columns) {
    Json t = toolkit_identity_json(c);
    t.update({{"probes", c.probes},
              {"findings", c.findings.size()},
              {"contradictions", c.contradictions},
              {"report", std::filesystem::path(c.file).filename().string()}});
    tks.push_back(std::move(t));
  }
  return tks;
}

// What changed from each toolkit to the next: the counts per kind of change, then the changes.
Json changes_json(const ToolkitMatrix& m) {
  Json steps = Json::array();
  for (auto const& s : m.steps) {
    Json counts = Json::object(), list = Json::array();
    for (auto const& k : kChangeKinds)
      if (auto n = s.count(k)) counts[k] = n;
    for (auto const& c : s.changes)
      list.push_back({{"kind", c.kind}, {"what", c.what}, {"before", c.before}, {"after", c.after}});
    steps.push_back({{"from", s.from}, {"to", s.to}, {"counts", counts}, {"changes", list}});
  }
  return steps;
}

// A row's cell per toolkit (by CUDA release), null where the toolkit has no such row.
template <class Per, class Value>
Json per_toolkit(const ToolkitMatrix& m, const Per& per, const std::string& key, Value value) {
  Json o = Json::object();
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    auto it = per[c].find(key);
    o[m.columns[c].cuda_release] = it == per[c].end() ? Json(nullptr) : value(*it->second);
  }
  return o;
}

// The findings, statements and requirements side by side, a row each.
void verdicts_side_by_side(Json& j, const ToolkitMatrix& m) {
  {
    auto [order, per] = side_by_side(m, &AuditSummary::findings, [](auto const& f) { return f.id; });
    auto& out = j["findings"] = Json::array();
    for (auto const& id : order)
      out.push_back({{"id", id}, {"per_toolkit", per_toolkit(m, per, id, [](const AuditSummary::FindingRow& f) {
                                    return Json{{"class", f.cls},
                                                {"forms", f.forms},
                                                {"fails_audit", f.fails},
                                                {"known", !f.known.empty()},
                                                {"observed", f.observed}};
                                  })}});
  }
  for (auto [name, rows] :
       {std::pair{"statements", &AuditSummary::statements}, std::pair{"requirements", &AuditSummary::requirements}}) {
    auto [order, per] = side_by_side(m, rows, [](auto const& v) { return v.kind + " " + v.id; });
    auto& out = j[name] = Json::array();
    for (auto const& id : order)
      out.push_back({{"id", id}, {"per_toolkit", per_toolkit(m, per, id, [](const AuditSummary::VerdictRow& v) {
                                    return Json{{"verdict", v.verdict}, {"evidence", v.evidence}};
                                  })}});
  }
}

// The hand-listed forms and the grammar's forms side by side, a row each.
void forms_side_by_side(Json& j, const ToolkitMatrix& m) {
  {
    auto [order, per] = side_by_side(m, &AuditSummary::forms, [](auto const& f) { return f.name; });
    auto& out = j["forms"] = Json::array();
    for (auto const& id : order)
      out.push_back(
          {{"name", id}, {"per_toolkit", per_toolkit(m, per, id, [](const AuditSummary::FormRow& f) {
                            return Json{{"state", form_cell(&f)}, {"verdict", f.verdict}, {"evidence", f.evidence}};
                          })}});
  }
  auto [order, per] =
      side_by_side(m, &AuditSummary::grammar, [](auto const& g) { return g.block + "\n" + g.instruction; });
  auto& out = j["grammar"] = Json::array();
  for (auto const& id : order) {
    const auto nl = id.find('\n');
    out.push_back(
        {{"block", id.substr(0, nl)},
         {"instruction", id.substr(nl + 1)},
         {"verdicts", per_toolkit(m, per, id, [](const AuditSummary::GrammarRow& g) { return Json(g.verdicts); })}});
  }
}

// What the code became, per consecutive pair of releases with a SASS report.
Json sass_changes_json(const std::vector<SassReport>& sass) {
  Json pairs = Json::array();
  for (std::size_t n = 1; n < sass.size(); ++n) {
    Json changes = Json::array();
    for (auto const& c : compare_sass(sass[n - 1], sass[n]))
      changes.push_back({{"kernel", c.kernel}, {"target", c.target}, {"before", c.before}, {"after", c.after}});
    pairs.push_back({{"from", sass[n - 1].cuda_release},
                     {"to", sass[n].cuda_release},
                     {"disassemblers", {sass[n - 1].disassembler, sass[n].disassembler}},
                     {"changes", changes}});
  }
  return pairs;
}

}  // namespace

std::string matrix_json(const ToolkitMatrix& m, const AuditRun& run, const std::vector<SassReport>& sass) {
  Json j;
  j["schema_version"] = kMatrixSchemaVersion;
  j["kind"] = std::string(report_kind_name(ReportKind::ToolkitMatrix));
  j["run"] = {
      {"host", run.host}, {"date", run.date}, {"suite_version", run.suite_version}, {"suite_commit", run.suite_commit}};
  j["toolkits"] = toolkits_json(m);
  j["changes"] = changes_json(m);
  verdicts_side_by_side(j, m);
  forms_side_by_side(j, m);
  if (sass.size() > 1) j["sass_changes"] = sass_changes_json(sass);
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

namespace {

// The toolkits, a line each.
std::string columns_markdown(const ToolkitMatrix& m, const AuditRun& run) {
  std::string md = fmt::format(
      "Written by `ptxcts audit` on {} at {} (ptxcts {}, commit {}) from the audit reports of {} toolkits, columns "
      "by release. A target a toolkit does not know is *not known* to it, never a rejection.\n\n",
      run.host, run.date, run.suite_version, run.suite_commit, m.columns.size());
  md +=
      "| CUDA | ptxas | PTX ISA | Targets | Probes | Findings | Failing the audit | Report |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (auto const& c : m.columns)
    md += fmt::format("| {} | {} | {} | {} ({}) | {} | {} | {} | `{}` |\n", c.cuda_release, c.ptxas_version, c.ptx_isa,
                      c.targets.size(), fmt::join(c.targets, ", "), c.probes, c.findings.size(), c.contradictions,
                      std::filesystem::path(c.file).filename().string());
  return md;
}

// Each pair of consecutive releases: its changes by kind, at most kChangesShownPerKind of each.
std::string steps_markdown(const ToolkitMatrix& m) {
  std::string md = "\n## What changed between consecutive releases\n";
  for (auto const& s : m.steps) {
    md += fmt::format("\n### CUDA {} -> {}\n\n{}.\n", s.from, s.to, counts_line(s));
    for (auto const& k : kChangeKinds) {
      const std::size_t n = s.count(k);
      if (!n) continue;
      md += fmt::format("\n**{}** ({}):\n\n", k, n);
      std::size_t shown = 0;
      for (auto const& c : s.changes) {
        if (c.kind != k) continue;
        if (shown++ == kChangesShownPerKind) {
          md += fmt::format("- ... and {} more (toolkits.json lists every one)\n", n - kChangesShownPerKind);
          break;
        }
        md += fmt::format("- `{}`: {} -> {}\n", markdown_cell(c.what), markdown_cell(c.before), markdown_cell(c.after));
      }
    }
  }
  return md;
}

// A side-by-side table's header: its first column, then a column per release.
std::string table_header(const ToolkitMatrix& m, const std::string& first) {
  std::string h = "| " + first + " |", rule = "|---|";
  for (auto const& c : m.columns) h += " " + c.cuda_release + " |", rule += "---|";
  return h + "\n" + rule + "\n";
}

// A side-by-side table's rows: the row's name (as `name` writes it), then each column's cell
// (`cell_of` of its row, or of nullptr where the column has none); rows `name` gives "" are left out.
template <class Row, class Key, class Name, class CellOf>
std::string side_by_side_rows(const ToolkitMatrix& m, std::vector<Row> AuditSummary::*rows, Key key, Name name,
                              CellOf cell_of) {
  std::string md;
  auto [order, per] = side_by_side(m, rows, key);
  for (auto const& id : order) {
    const std::string first = name(id);
    if (first.empty()) continue;
    md += first;
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      auto it = per[c].find(id);
      md += " " + cell_of(it == per[c].end() ? nullptr : it->second) + " |";
    }
    md += "\n";
  }
  return md;
}

std::string findings_markdown(const ToolkitMatrix& m) {
  return "\n## Findings, side by side\n\nForms each finding covers per toolkit (FAILS: a contradiction the specs do "
         "not expect; known: recorded in the specs; —: no such finding).\n\n" +
         table_header(m, "Finding") +
         side_by_side_rows(
             m, &AuditSummary::findings, [](auto const& f) { return f.id; },
             [](const std::string& id) { return "| `" + markdown_cell(id) + "` |"; }, finding_cell);
}

std::string verdicts_markdown(const ToolkitMatrix& m) {
  std::string md;
  for (auto [title, rows] : {std::pair{"Statements of the documents", &AuditSummary::statements},
                             std::pair{"Documented requirements", &AuditSummary::requirements}})
    md += fmt::format("\n## {}, side by side\n\n", title) + table_header(m, "Statement") +
          side_by_side_rows(
              m, rows, [](auto const& v) { return v.kind + " " + v.id; },
              [](const std::string& id) { return "| " + markdown_cell(id) + " |"; }, verdict_cell);
  return md;
}

std::string forms_markdown(const ToolkitMatrix& m) {
  return "\n## Hand-listed forms, side by side\n\n" + table_header(m, "Form") +
         side_by_side_rows(
             m, &AuditSummary::forms, [](auto const& f) { return f.name; },
             [](const std::string& id) { return "| " + markdown_cell(id) + " |"; }, form_cell);
}

// The grammar's forms whose verdict on some target changed between two releases.
std::string changed_grammar_markdown(const ToolkitMatrix& m) {
  std::set<std::string> changed;
  for (auto const& s : m.steps)
    for (auto const& c : s.changes)
      if ((c.kind == "form newly accepted" || c.kind == "form newly rejected") &&
          c.what.rfind("negative space of ", 0) != 0)
        changed.insert(c.what);
  return fmt::format(
             "\n## Forms of the grammar whose verdict depends on the toolkit ({})\n\nAccepted on how many of the "
             "targets each toolkit knows (every form, per target: toolkits.json).\n\n",
             changed.size()) +
         table_header(m, "Block: form") +
         side_by_side_rows(
             m, &AuditSummary::grammar, [](auto const& g) { return g.block + "\n" + g.instruction; },
             [&](const std::string& id) {
               const auto nl = id.find('\n');
               if (!changed.count(id.substr(nl + 1))) return std::string();
               return fmt::format("| {}: `{}` |", id.substr(0, nl), markdown_cell(id.substr(nl + 1)));
             },
             grammar_cell);
}

}  // namespace

std::string matrix_markdown(const ToolkitMatrix& m, const AuditRun& run, const std::vector<SassReport>& sass) {
  std::vector<std::pair<std::string, std::size_t>> unexpected;
  for (auto const& c : m.columns) unexpected.emplace_back(c.cuda_release, static_cast<std::size_t>(c.contradictions));
  std::string md = "# ptxcts: toolkits side by side\n\n**" + toolkits_verdict_line(unexpected) + "**\n\n";
  md += columns_markdown(m, run);
  md += steps_markdown(m);
  if (!sass.empty()) md += sass_changes_markdown(sass);
  md += findings_markdown(m);
  md += verdicts_markdown(m);
  md += forms_markdown(m);
  md += changed_grammar_markdown(m);
  return md;
}

std::filesystem::path write_matrix_files(const ToolkitMatrix& m, const AuditRun& run,
                                         const std::filesystem::path& prefix, const std::vector<SassReport>& sass) {
  const std::filesystem::path json = prefix.string() + ".json";
  const std::string text = matrix_json(m, run, sass);
  write_file_atomically(prefix.string() + ".md", matrix_markdown(m, run, sass));
  write_file_atomically(json, text);
  // The page is made of the JSON as written, read back as `ptxcts html toolkits.json` reads it.
  write_html_page(prefix.string() + ".html", toolkit_matrix_html(parse_matrix_file(text, json.string())));
  return json;
}

std::filesystem::path write_matrix_reports(const ToolkitMatrix& m, const AuditRun& run,
                                           const std::filesystem::path& dir, const std::vector<SassReport>& sass) {
  return write_matrix_files(m, run, dir / "toolkits", sass);
}

std::string format_audit_diff(const PairChanges& c, const AuditSummary& before, const AuditSummary& after) {
  std::string out =
      fmt::format("audit diff: CUDA {} (ptxas {}, PTX ISA {}) -> CUDA {} (ptxas {}, PTX ISA {})\n", before.cuda_release,
                  before.ptxas_version, before.ptx_isa, after.cuda_release, after.ptxas_version, after.ptx_isa);
  for (auto const& x : c.changes) out += fmt::format("{:<20} {}: {} -> {}\n", x.kind, x.what, x.before, x.after);
  out += fmt::format("{} changes: {}\n", c.changes.size(), counts_line(c));
  return out;
}

bool audit_regressed(const PairChanges& c, const AuditSummary& after) {
  for (auto const& x : c.changes)
    if (x.kind == "finding appeared")
      for (auto const& f : after.findings)
        if (f.id == x.what && f.fails) return true;
  return false;
}

}  // namespace ptxcts

#include "report/toolkits/sass_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "report/run/sass_text.hpp"
#include "results/report_kind.hpp"
#include "util/atomic_file.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

namespace {

using Json = nlohmann::ordered_json;

std::string md_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else if (c == '<') out += "&lt;";
    else out += c;
  }
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A row's cell for a target, as the Markdown shows it (and compare_sass compares).
std::string cell_text(const SassReport::Row& row, const std::string& target) {
  if (auto m = row.matched.find(target); m != row.matched.end()) {
    if (row.expected.empty()) return "no expectation";
    if (m->second.empty()) return fmt::format("**none of {}**", fmt::join(row.expected, ", "));
    return fmt::format("{}", fmt::join(m->second, " "));
  }
  if (row.no_sass.count(target)) return "no SASS";
  if (contains(row.rejected, target)) return "rejected";
  if (contains(row.errors, target)) return "ptxas failed";
  if (contains(row.not_attempted, target)) return "beyond the PTX ISA";
  return "";
}

}  // namespace

SassReport build_sass_report(const Catalog& cat, const Suite& suite) {
  SassReport r;
  static_cast<ToolkitIdentity&>(r) = {.cuda_release = cat.cuda_release,
                                      .ptxas_version = cat.ptxas_version,
                                      .ptx_isa = cat.toolkit_ptx.str(),
                                      .targets = cat.targets};
  r.disassembler = cat.disassembler;
  r.unavailable = cat.sass_unavailable;
  r.expectations = suite.specs.sass;
  std::map<std::string, std::size_t> row_of;
  for (auto const& a : cat.assemblies) {
    const KernelPlan* k = suite.find_kernel(a.kernel);
    if (k && !k->runnable()) continue;  // only kernels a GPU runs
    auto [at, fresh] = row_of.try_emplace(a.kernel, r.rows.size());
    if (fresh)
      r.rows.push_back({.kernel = a.kernel,
                        .family = k ? k->family : "",
                        .form = k ? k->subject_instance().mnemonic() : a.kernel,
                        .expected = {},
                        .matched = {},
                        .no_sass = {},
                        .rejected = {},
                        .not_attempted = {},
                        .errors = {}});
    SassReport::Row& row = r.rows[at->second];
    if (!a.attempted) row.not_attempted.push_back(a.target);
    else if (!a.error.empty()) row.errors.push_back(a.target);
    else if (!a.accepted) row.rejected.push_back(a.target);
    else if (!a.sass) row.no_sass[a.target] = cat.sass_unavailable.empty() ? "not disassembled" : cat.sass_unavailable;
    else if (!a.sass->unavailable.empty()) row.no_sass[a.target] = a.sass->unavailable;
    else {
      row.matched[a.target] = a.sass->matched;
      if (row.expected.empty()) row.expected = a.sass->expected;
    }
  }
  return r;
}

std::string sass_report_json(const SassReport& r, const AuditRun& run) {
  Json j;
  j["schema_version"] = SassReport::kSchemaVersion;
  j["kind"] = std::string(report_kind_name(ReportKind::Sass));
  j["run"] = {
      {"host", run.host}, {"date", run.date}, {"suite_version", run.suite_version}, {"suite_commit", run.suite_commit}};
  j["cuda_release"] = r.cuda_release;
  j["ptxas_version"] = r.ptxas_version;
  j["disassembler"] = r.disassembler;
  j["unavailable"] = r.unavailable;
  j["targets"] = r.targets;
  j["expectations"] = Json::array();
  for (auto const& e : r.expectations)
    j["expectations"].push_back({{"family", e.family},
                                 {"operation", e.operation_text},
                                 {"mnemonics", e.mnemonics},
                                 {"source", e.source},
                                 {"assumed", e.assumed}});
  j["kernels"] = Json::array();
  for (auto const& row : r.rows) {
    Json matched = Json::object();
    for (auto const& t : r.targets)  // in the catalog's order
      if (auto m = row.matched.find(t); m != row.matched.end()) matched[t] = m->second;
    Json no_sass = Json::object();
    for (auto const& [t, why] : row.no_sass) no_sass[t] = why;
    j["kernels"].push_back({{"kernel", row.kernel},
                            {"family", row.family},
                            {"form", row.form},
                            {"expected", row.expected},
                            {"matched", matched},
                            {"no_sass", no_sass},
                            {"rejected", row.rejected},
                            {"not_attempted", row.not_attempted},
                            {"errors", row.errors}});
  }
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

SassReport read_sass_report(const JsonDocument& doc) {
  expect_report_kind(doc, ReportKind::Sass);
  JsonNode root = doc.root();
  root.object({"schema_version", "kind", "run", "cuda_release", "ptxas_version", "disassembler", "unavailable",
               "targets", "expectations", "kernels"});
  if (root.at("schema_version").integer(0, 1000) != SassReport::kSchemaVersion)
    root.at("schema_version").fail(fmt::format("expected {}", SassReport::kSchemaVersion));
  SassReport r;
  r.cuda_release = root.at("cuda_release").str();
  r.ptxas_version = root.at("ptxas_version").str();
  r.disassembler = root.at("disassembler").str();
  r.unavailable = root.at("unavailable").str();
  r.targets = root.at("targets").strings();
  for (auto const& e : root.at("expectations").items()) {
    e.object({"family", "operation", "mnemonics", "source", "assumed"});
    SassExpectation x;
    x.family = e.at("family").str();
    x.operation_text = e.at("operation").str();
    x.mnemonics = e.at("mnemonics").strings();
    x.source = e.at("source").str();
    x.assumed = e.at("assumed").boolean();
    r.expectations.push_back(std::move(x));
  }
  for (auto const& k : root.at("kernels").items()) {
    k.object({"kernel", "family", "form", "expected", "matched", "no_sass", "rejected", "not_attempted", "errors"});
    SassReport::Row row;
    row.kernel = k.at("kernel").str();
    row.family = k.at("family").str();
    row.form = k.at("form").str();
    row.expected = k.at("expected").strings();
    JsonNode matched = k.at("matched");
    if (!matched.json().is_object()) matched.fail("expected an object: target -> opcodes");
    for (auto const& [t, v] : matched.json().items()) row.matched[t] = matched.at(t.c_str()).strings();
    JsonNode no_sass = k.at("no_sass");
    if (!no_sass.json().is_object()) no_sass.fail("expected an object: target -> why");
    for (auto const& [t, v] : no_sass.json().items()) row.no_sass[t] = no_sass.at(t.c_str()).str();
    row.rejected = k.at("rejected").strings();
    row.not_attempted = k.at("not_attempted").strings();
    row.errors = k.at("errors").strings();
    r.rows.push_back(std::move(row));
  }
  return r;
}

SassReport read_sass_report(const std::string& text, const std::string& file) {
  return read_sass_report(JsonDocument(text, file));
}

namespace {

// Kernels whose SASS has none of what is expected, the first 40 named.
std::string sass_missing_markdown(const SassReport& r) {
  std::vector<std::string> missing;
  std::size_t disassembled = 0;
  for (auto const& row : r.rows)
    for (auto const& [t, m] : row.matched) {
      ++disassembled;
      if (m.empty() && !row.expected.empty()) missing.push_back(fmt::format("`{}` on {}", row.kernel, t));
    }
  std::string md = fmt::format(
      "\n## Kernels whose SASS has none of the expected mnemonics\n\n{} of {} kernel x target pairs "
      "disassembled.\n\n",
      missing.size(), disassembled);
  for (std::size_t n = 0; n < missing.size() && n < 40; ++n) md += "- " + missing[n] + "\n";
  if (missing.size() > 40) md += fmt::format("- ... and {} more (the JSON report lists them)\n", missing.size() - 40);
  return md;
}

// One family's table: targets whose whole column is alike share a column, kernels of one form with
// the same cells a row.
std::string sass_family_markdown(const SassReport& r, const std::string& family) {
  std::string md;
  std::vector<const SassReport::Row*> rows;
  for (auto const& row : r.rows)
    if (row.family == family) rows.push_back(&row);
  // Targets whose whole column is alike share a column.
  std::vector<std::vector<std::string>> columns;  // target groups
  std::vector<std::vector<std::string>> column_cells;
  for (auto const& t : r.targets) {
    std::vector<std::string> cells;
    for (auto const* row : rows) cells.push_back(cell_text(*row, t));
    auto same = std::find(column_cells.begin(), column_cells.end(), cells);
    if (same != column_cells.end()) columns[static_cast<std::size_t>(same - column_cells.begin())].push_back(t);
    else columns.push_back({t}), column_cells.push_back(cells);
  }
  // Kernels of one form with the same cells share a row.
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;  // form -> cells
  std::vector<int> counts;
  for (std::size_t n = 0; n < rows.size(); ++n) {
    std::vector<std::string> cells;
    for (auto const& c : column_cells) cells.push_back(c[n]);
    auto key = std::make_pair(rows[n]->form, cells);
    auto same = std::find(lines.begin(), lines.end(), key);
    if (same != lines.end()) ++counts[static_cast<std::size_t>(same - lines.begin())];
    else lines.push_back(key), counts.push_back(1);
  }
  md += fmt::format("\n## {}\n\n{} kernels, {} rows.\n\n| Form | Kernels |",
                    family.empty() ? "(not in these specs)" : family, rows.size(), lines.size());
  for (auto const& c : columns) md += " " + fmt::format("{}", fmt::join(c, ", ")) + " |";
  md += "\n|---|---|";
  for (std::size_t n = 0; n < columns.size(); ++n) md += "---|";
  md += "\n";
  for (std::size_t n = 0; n < lines.size(); ++n) {
    md += fmt::format("| `{}` | {} |", md_cell(lines[n].first), counts[n]);
    for (auto const& c : lines[n].second) md += " " + md_cell(c) + " |";
    md += "\n";
  }
  return md;
}

}  // namespace

std::string sass_report_markdown(const SassReport& r, const AuditRun& run) {
  std::string md = fmt::format("# What the code becomes: CUDA {} (ptxas {})\n\n", r.cuda_release, r.ptxas_version);
  md += fmt::format("Written by ptxcts {} (commit {}) on {}, {}.\n\n", run.suite_version, run.suite_commit, run.host,
                    run.date);
  if (!r.unavailable.empty())
    md += fmt::format("**{}**: every SASS cell says so; nothing else is affected.\n\n", md_cell(r.unavailable));
  else
    md += fmt::format(
        "SASS by {} (nvdisasm: a target's cubins in one process, its raw-binary mode; cuobjdump: one process per "
        "cubin).\n\n",
        md_cell(r.disassembler));
  md +=
      "Each cell: the opcodes of the kernel on that target whose mnemonic (the text before the first '.') is one "
      "the family's specs expect for the instruction under test; **none of ...** where the SASS has none of them "
      "(never left out); `rejected`, `ptxas failed`, `beyond the PTX ISA` (the toolkit cannot express it) where there "
      "is no cubin; `no SASS` where the disassembler gave none. The catalog's manifest.json has every kernel's whole "
      "opcode list. Rows are forms (the instruction under test with its qualifiers); kernels of one form with the "
      "same cells share a row; targets with the same column share one.\n\n";
  md += "## What the specs expect\n\n| Family | Operation | Mnemonics | Source |\n|---|---|---|---|\n";
  for (auto const& e : r.expectations)
    md += fmt::format("| {} | {} | {} | {}{} |\n", e.family, e.operation_text, fmt::join(e.mnemonics, ", "),
                      e.assumed ? "*the suite's assumption:* " : "", md_cell(e.source));
  md += sass_missing_markdown(r);  // the news first
  // A table per family.
  std::vector<std::string> families;
  for (auto const& row : r.rows)
    if (!contains(families, row.family)) families.push_back(row.family);
  for (auto const& family : families) md += sass_family_markdown(r, family);
  return md;
}

std::filesystem::path write_sass_reports(const SassReport& r, const AuditRun& run, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const auto base = dir / ("sass-cuda" + r.cuda_release);
  write_file_atomically(base.string() + ".json", sass_report_json(r, run));
  write_file_atomically(base.string() + ".md", sass_report_markdown(r, run));
  return base.string() + ".json";
}

std::vector<SassChange> compare_sass(const SassReport& before, const SassReport& after) {
  std::map<std::string, const SassReport::Row*> old_rows;
  for (auto const& row : before.rows) old_rows[row.kernel] = &row;
  std::vector<SassChange> out;
  for (auto const& row : after.rows) {
    auto o = old_rows.find(row.kernel);
    if (o == old_rows.end()) continue;
    for (auto const& t : after.targets) {
      // Only where both disassembled it: a target one toolkit lacks is the audit's news, not the SASS's.
      if (!row.matched.count(t) || !o->second->matched.count(t)) continue;
      // The same opcodes in another order (the scheduler's) is no change of what implements it.
      std::set<std::string> a(o->second->matched.at(t).begin(), o->second->matched.at(t).end()),
          b(row.matched.at(t).begin(), row.matched.at(t).end());
      if (a == b && o->second->expected == row.expected) continue;
      out.push_back({.kernel = row.kernel,
                     .family = row.family,
                     .target = t,
                     .before = cell_text(*o->second, t),
                     .after = cell_text(row, t)});
    }
  }
  return out;
}

std::string sass_changes_markdown(const std::vector<SassReport>& reports) {
  std::string md = "\n## What the code became (SASS), between consecutive releases\n\n";
  if (reports.size() < 2)
    return md + "Fewer than two toolkits have a SASS report (ptxcts sass --toolkit RELEASE writes one).\n";
  md +=
      "From each toolkit's `sass-cuda<release>.json`: kernel x target pairs that both releases assembled and "
      "disassembled whose opcodes implementing the instruction under test differ, grouped by family and change.\n";
  for (std::size_t n = 1; n < reports.size(); ++n) {
    const SassReport &a = reports[n - 1], &b = reports[n];
    auto changes = compare_sass(a, b);
    md += fmt::format("\n### CUDA {} -> {}\n\n", a.cuda_release, b.cuda_release);
    md += fmt::format("SASS by {} and {}.\n\n", a.unavailable.empty() ? a.disassembler : a.unavailable,
                      b.unavailable.empty() ? b.disassembler : b.unavailable);
    if (changes.empty()) {
      md += "No change in the SASS of the instructions under test.\n";
      continue;
    }
    struct Group {
      std::string family, before, after;
      std::set<std::string> targets;
      std::vector<std::string> kernels;
    };
    std::vector<Group> groups;
    for (auto const& c : changes) {
      auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
        return x.family == c.family && x.before == c.before && x.after == c.after;
      });
      if (g == groups.end())
        groups.push_back({.family = c.family, .before = c.before, .after = c.after}), g = groups.end() - 1;
      g->targets.insert(c.target);
      if (!contains(g->kernels, c.kernel)) g->kernels.push_back(c.kernel);
    }
    md += fmt::format(
        "{} kernel x target pairs changed.\n\n| Family | CUDA {} | CUDA {} | Kernels | Targets | e.g. "
        "|\n|---|---|---|---|---|---|\n",
        changes.size(), a.cuda_release, b.cuda_release);
    for (auto const& g : groups)
      md += fmt::format("| {} | {} | {} | {} | {} | `{}` |\n", g.family, md_cell(g.before), md_cell(g.after),
                        g.kernels.size(), fmt::join(g.targets, ", "), md_cell(g.kernels.front()));
  }
  return md;
}

}  // namespace ptxcts

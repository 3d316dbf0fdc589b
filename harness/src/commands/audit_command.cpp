#include "commands/audit_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "assemble/catalog_index.hpp"
#include "assemble/toolkits.hpp"
#include "commands/catalog_command.hpp"
#include "commands/history_recording.hpp"
#include "commands/run_console.hpp"
#include "commands/toolkit_audit.hpp"
#include "kinds/kinds.hpp"
#include "report/report_reader.hpp"
#include "report/toolkits/toolkit_matrix_report.hpp"
#include "report/up_to_date.hpp"
#include "spec/spec_loader.hpp"
#include "util/environment.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

struct AuditOptions {
  std::vector<std::string> toolkits;  // --toolkit
  std::vector<std::string> ptxas;     // --also-ptxas
  bool rewrite = false;
  HistoryChoice history;  // --history, --no-history
};

// The key of an audit's inputs: this program's bytes (the plan's and the judges' code), the specs
// (every file's name and content), the toolkit (its ptxas's path, size and time, its version).
std::string audit_inputs_key(const Toolchain& tc, const std::string& specs_dir, std::string specs = "") {
  if (specs.empty()) specs = folder_identity(specs_dir);
  return inputs_key({"audit", program_identity(), specs, file_identity(tc.ptxas), tc.version});
}

int count_line(const Audit& audit, Verdict v) {
  int n = 0;
  for (auto const& s : audit.statements) n += s.verdict == v;
  for (auto const& r : audit.requirements) n += r.verdict == v;
  return n;
}

// What `ptxcts audit` of one toolkit says: the probes' line, every finding, the known discrepancies
// no longer observed, the counts; and its exit status.
int say_audit(std::FILE* out, const ToolkitAudit& a, const fs::path& json) {
  print_audit_findings(out, a.audit, Verbosity::Verbose);  // the audit's own command lists every one
  for (auto const* k : a.audit.unused_known)
    fmt::print(out, "audit: known discrepancy no longer observed: {} ({})\n",
               !k->finding.empty() ? k->finding
               : k->form.empty()   ? k->variant + " on " + k->target
                                   : k->form,
               k->source);
  const int verdicts = static_cast<int>(a.audit.statements.size() + a.audit.requirements.size()),
            confirmed = count_line(a.audit, Verdict::Confirmed), contradicted = count_line(a.audit, Verdict::Contradicted);
  fmt::print(out,
             "audit: {} statements and requirements: {} confirmed, {} contradicted, {} not checkable or observed; {} "
             "-> {}\n",
             verdicts, confirmed, contradicted, verdicts - confirmed - contradicted, finding_counts(a.audit),
             json.string());
  if (!a.audit.errors.empty())
    fmt::print(out, "audit: ptxas failed on {} probes, so what they would show is not checkable (listed above)\n",
               a.audit.errors.size());
  return a.audit.contradictions() ? kExitFound : a.audit.errors.empty() ? 0 : kExitPtxasFailed;
}

// `ptxcts audit` of one toolkit: the one found (a release's own catalog's, warm, unless told another).
// Its reports, where up to date (this program, the specs and the toolkit those `audit --toolkit`
// stamps with, every file as written) and not `rewrite`, are not made again: what the audit said
// when it wrote them is said again (a warm audit with nothing changed reads a stamp, not 167k verdicts).
int audit_one(const Paths& p, const HistoryChoice& history, bool rewrite) {
  const bool own_catalog = home().release() && p.ptxas.empty() && getenv_or("PTXCTS_PTXAS").empty();
  const Toolchain tc = own_catalog ? catalog_audit_toolchain(load_catalog_indexed(p.catalog), p) : find_toolchain(p);
  const std::vector<fs::path> files = {audit_report_path(p.reports, tc.release, ".json"),
                                       audit_report_path(p.reports, tc.release, ".md"),
                                       audit_report_path(p.reports, tc.release, ".html")};
  const fs::path stamps = fs::path(p.catalog) / "stamps";
  const std::string key = audit_inputs_key(tc, p.specs);
  if (auto known = rewrite ? std::nullopt : up_to_date(stamps, files, key)) {
    fmt::print("{}audit: up to date (the same specs, ptxas and suite as when {} was written; not audited again)\n",
               known->said, files[0].string());
    record_audit_file(open_history_for_recording(history).get(), files[0]);
    return known->status;
  }
  Suite suite = build_suite(load_spec_dir(p.specs));
  std::string said;
  ToolkitAudit a = audit_toolkit(suite, tc, p, &said);
  fs::path json = write_audit_reports(a.audit, a.plan, a.verdicts, report_writer(), p.reports);
  record_audit_file(open_history_for_recording(history).get(), json);  // after the files: they never wait on it
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  const int status = say_audit(out, a, json);
  std::fclose(out);
  said.append(buffer, size);
  std::free(buffer);
  fmt::print("{}", said);
  if (a.audit.errors.empty()) stamp_reports(stamps, files, key, {.said = said, .status = status});
  return status;
}

// The toolkits --toolkit names ("all": every usable one found).
std::vector<Toolchain> named_toolkits(const Paths& p, const AuditOptions& o) {
  auto found = find_toolkits(default_toolkit_search(o.ptxas, p.toolkit_cache, p.specs));
  std::vector<Toolchain> toolkits;
  for (auto const& n : o.toolkits) {
    if (n != "all") toolkits.push_back(select_toolkit(found, n));
    else
      for (auto const& f : found)
        if (f.tc) toolkits.push_back(*f.tc);
  }
  return toolkits;
}

struct ToolkitsAudited {
  std::vector<fs::path> jsons;
  bool contradicted = false, ptxas_failed = false;
};

// Each toolkit's audit report, unless up to date (the same specs, ptxas and suite) and not `rewrite`.
ToolkitsAudited audit_each(const std::vector<Toolchain>& toolkits, const Paths& p, const AuditRun& run, bool rewrite) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  const fs::path stamps = fs::path(p.catalog) / "stamps";
  const std::string specs = folder_identity(p.specs);
  ToolkitsAudited out;
  for (auto const& tc : toolkits) {
    const std::vector<fs::path> files = {audit_report_path(p.reports, tc.release, ".json"),
                                         audit_report_path(p.reports, tc.release, ".md"),
                                         audit_report_path(p.reports, tc.release, ".html")};
    const std::string key = audit_inputs_key(tc, p.specs, specs);
    out.jsons.push_back(files[0]);
    if (auto known = rewrite ? std::nullopt : up_to_date(stamps, files, key)) {
      fmt::print("audit: CUDA {}: {} -> {} (up to date: the same specs, ptxas and suite; not written again)\n",
                 tc.release, known->said, files[0].string());
      out.contradicted |= known->status != 0;
      continue;
    }
    ToolkitAudit a = audit_toolkit(suite, tc, p);
    fs::path json = write_audit_reports(a.audit, a.plan, a.verdicts, run, p.reports);
    const std::string said = finding_counts(a.audit);
    fmt::print("audit: CUDA {}: {} -> {}\n", a.audit.cuda_release, said, json.string());
    out.contradicted |= a.audit.contradictions() > 0;
    out.ptxas_failed |= !a.audit.errors.empty();
    if (a.audit.errors.empty()) stamp_reports(stamps, files, key, {.said = said, .status = a.audit.contradictions() > 0});
  }
  return out;
}

// What changed from each toolkit to the next, a line each.
std::string matrix_steps_said(const ToolkitMatrix& m) {
  std::string said;
  for (auto const& s : m.steps)
    said += fmt::format(
        "matrix: CUDA {} -> {}: {} changes ({} findings appeared, {} fixed, {} forms newly accepted, {} newly "
        "rejected, {} messages changed)\n",
        s.from, s.to, s.changes.size(), s.count("finding appeared"), s.count("finding fixed"),
        s.count("form newly accepted"), s.count("form newly rejected"), s.count("message changed"));
  return said;
}

// The matrix of the audit reports just written (read back: it is made of the reports, exactly) and
// their SASS reports, unless up to date.
void write_matrix(const std::vector<Toolchain>& toolkits, const std::vector<fs::path>& jsons, const Paths& p,
                  const AuditRun& run, bool rewrite) {
  std::vector<std::string> parts = {"matrix", program_identity()};
  for (std::size_t k = 0; k < toolkits.size(); ++k) {
    parts.push_back(file_seal(jsons[k]));
    parts.push_back(file_seal(fs::path(p.reports) / ("sass-cuda" + toolkits[k].release + ".json")));
  }
  const std::vector<fs::path> files = {fs::path(p.reports) / "toolkits.json", fs::path(p.reports) / "toolkits.md",
                                       fs::path(p.reports) / "toolkits.html"};
  const fs::path stamps = fs::path(p.catalog) / "stamps";
  const std::string key = inputs_key(parts);
  if (auto known = rewrite ? std::nullopt : up_to_date(stamps, files, key)) {
    fmt::print("{}matrix: {} toolkits -> {} (up to date: made of these audit and SASS reports; not written again)\n",
               known->said, toolkits.size(), files[0].string());
    return;
  }
  std::vector<AuditSummary> summaries;
  for (auto const& json : jsons) summaries.push_back(read_audit_report_file(json));
  ToolkitMatrix m = build_matrix(std::move(summaries));
  std::vector<std::string> releases;
  for (auto const& c : m.columns) releases.push_back(c.cuda_release);
  fs::path json = write_matrix_reports(m, run, p.reports, sass_reports_in(p.reports, releases));
  const std::string said = matrix_steps_said(m);
  fmt::print("{}matrix: {} toolkits -> {}\n", said, m.columns.size(), json.string());
  stamp_reports(stamps, files, key, {.said = said, .status = 0});
}

// `ptxcts audit --toolkit ...`: each toolkit's audit report, then (two or more) the matrix.
int audit_toolkits(const Paths& p, const AuditOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Toolchain> toolkits = named_toolkits(p, o);
  if (toolkits.empty()) return usage_error("--toolkit all: no usable ptxas found (ptxcts toolkits lists them)");
  const AuditRun run = report_writer();  // the audits and their matrix: one date
  const ToolkitsAudited done = audit_each(toolkits, p, run, o.rewrite);
  if (toolkits.size() > 1) write_matrix(toolkits, done.jsons, p, run, o.rewrite);
  // Each audit report, written now or up to date, into the history (the same report twice is one run).
  if (auto history = open_history_for_recording(o.history))
    for (auto const& json : done.jsons) record_audit_file(history.get(), json);
  fmt::print("audit: {} toolkits in {:.2f} s\n", toolkits.size(), seconds_since(t0));
  return done.contradicted ? kExitFound : done.ptxas_failed ? kExitPtxasFailed : 0;
}

}  // namespace

std::vector<SassReport> sass_reports_in(const fs::path& dir, const std::vector<std::string>& releases) {
  std::vector<SassReport> out;
  for (auto const& r : releases) {
    const fs::path file = dir / ("sass-cuda" + r + ".json");
    if (auto doc = try_open_report(file)) out.push_back(read_sass_report(*doc));
  }
  return out;
}

Command add_audit_command(CLI::App& app, Paths& p) {
  auto o = std::make_shared<AuditOptions>();
  auto* cli = app.add_subcommand("audit",
                                 "Judge every statement of the documents that ptxas can judge (the whole grammar, "
                                 "its negative space, the examples, the requirements), for every target");
  cli->add_option("--catalog", p.catalog, "Catalog directory (the audit's probe verdicts are cached in its probes/)");
  cli->add_option("--reports", p.reports, "Where the audit report is written");
  cli->add_option("--ptxas", p.ptxas, "ptxas to use");
  cli->add_option("-j,--jobs", p.jobs, "ptxas processes in parallel")->check(CLI::Range(1, 256));
  cli->add_option("--toolkit", o->toolkits,
                  "Audit these toolkits, each a CUDA release (12.4), a ptxas version or a ptxas path, or all (every "
                  "toolkit found); with two or more, toolkits.{json,md} sets them side by side");
  cli->add_option("--toolkit-cache", p.toolkit_cache, "Where fetched toolkits are (ptxcts toolkits fetch)");
  cli->add_option("--also-ptxas", o->ptxas, "Another ptxas to count among the toolkits found");
  add_history_options(cli, o->history);
  cli->add_flag("--rewrite", o->rewrite,
                "Write every report again (audit anew), even those whose specs, ptxas and suite have not changed "
                "since they were written");
  return {.cli = cli, .run = [o](CommandContext& ctx) {
            return o->toolkits.empty() ? audit_one(ctx.paths, o->history, o->rewrite) : audit_toolkits(ctx.paths, *o);
          }};
}

}  // namespace ptxcts

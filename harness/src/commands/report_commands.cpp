#include "commands/report_commands.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "commands/audit_command.hpp"
#include "commands/fleet_inputs.hpp"
#include "judge/toolkit_matrix.hpp"
#include "report/page_commands.hpp"
#include "report/report_reader.hpp"
#include "report/toolkits/toolkit_matrix_report.hpp"
#include "spec/spec_loader.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

// Whether `path` holds an audit report, as its kind says (else it is read as a run report, with that
// reader's errors).
bool holds_audit_report(const std::string& path) {
  std::error_code ec;
  return !fs::is_directory(path, ec) && report_file_kind(path) == ReportKind::Audit;  // a folder: a fleet's
}

// The input that writing `out` would overwrite (the same file by any name), if any: a page or a fleet
// written over the report it was made from is that report lost.
std::optional<std::string> would_overwrite(const fs::path& out, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  for (auto const& in : inputs)
    if (fs::equivalent(out, in, ec)) return in.string();
  return std::nullopt;
}

struct DiffOptions {
  std::string before, after, html;
  DiffFormat how;
};

// Two run reports: the upgrade gate's verdict and summary first, then what changed (exit 1 on a case
// that got worse or went missing; on a documentation change too with --gate-docs).
int diff_runs(const DiffOptions& o) {
  if (auto input = would_overwrite(o.html, {o.before, o.after}))
    return usage_error(
        fmt::format("diff: --html {} is the report {} it compares: the page would overwrite it; give "
                    "the page another name",
                    o.html, *input));
  RunReport old_report = read_run_report_file(o.before), new_report = read_run_report_file(o.after);
  ReportDiff d = diff_reports(old_report, new_report);
  fmt::print("{}", format_diff(d, o.how));
  if (!o.html.empty()) write_diff_page(old_report, new_report, d, o.html);
  return d.findings(o.how.gate_docs) ? kExitFound : 0;
}

// Two audit reports: what changed from one toolkit (or audit) to the other.
int diff_audits(const std::string& before, const std::string& after) {
  AuditSummary a = read_audit_report_file(before), b = read_audit_report_file(after);
  PairChanges c = compare_audits(a, b);
  fmt::print("{}", format_audit_diff(c, a, b));
  return audit_regressed(c, b) ? kExitFound : 0;
}

// Audit reports (audited on other machines, or earlier): their toolkit matrix, with the SASS reports
// found beside them (sass-cuda<release>.json in each audit report's folder).
int merge_audits(const std::vector<std::string>& reports, const std::string& prefix) {
  std::vector<AuditSummary> summaries;
  std::map<std::string, fs::path> folder_of;
  for (auto const& ext : {".json", ".md", ".html"})
    if (auto input = would_overwrite(prefix + ext, {reports.begin(), reports.end()}))
      return usage_error(fmt::format("merge: --out {} would write {}{} over the report {} it reads; give another name",
                                     prefix, prefix, ext, *input));
  for (auto const& path : reports) {
    summaries.push_back(read_audit_report_file(path));
    folder_of[summaries.back().cuda_release] = fs::path(path).parent_path();
  }
  if (summaries.size() < 2) return usage_error("merge: the toolkit matrix needs two or more audit reports");
  ToolkitMatrix m = build_matrix(std::move(summaries));
  std::vector<SassReport> sass;
  for (auto const& c : m.columns) {
    auto found = sass_reports_in(folder_of[c.cuda_release], {c.cuda_release});
    sass.insert(sass.end(), found.begin(), found.end());
  }
  write_matrix_files(m, report_writer(), prefix, sass);
  fmt::print("{}.{{json,md,html}}: the toolkit matrix of {} toolkits\n", prefix, m.columns.size());
  return 0;
}

// Run reports: the fleet page and JSON; exit 1 if a run is missing or not aligned, 2 if something
// given could not be read (the page and JSON are written all the same, from what could: the merge is
// incomplete, and each thing not read is named with why).
int merge_runs(const std::vector<std::string>& inputs, int expect_tasks, const std::string& out) {
  FleetInputs in = collect_fleet_inputs(inputs, expect_tasks > 0 ? std::optional<int>(expect_tasks) : std::nullopt);
  std::vector<fs::path> read = in.files;
  read.insert(read.end(), inputs.begin(), inputs.end());
  for (auto const& ext : {".json", ".html"})
    if (auto input = would_overwrite(out + ext, read))
      return usage_error(fmt::format("merge: --out {} would write {}{} over the report {} it reads; give another name",
                                     out, out, ext, *input));
  for (auto const& u : in.unread) fmt::print(stderr, "not read: {}: {}\n", u.path, u.why);
  if (in.reports.empty() && in.missing.empty())
    return usage_error(in.unread.empty() ? fmt::format("merge: no run report found in {}", fmt::join(inputs, ", "))
                                         : fmt::format("merge: no run report could be read in {} ({} not read)",
                                                       fmt::join(inputs, ", "), in.unread.size()));
  const Fleet f = write_fleet(in.reports, in.missing, out, in.unread);
  const std::size_t aligned = f.aligned_count();
  // The fleet's verdict first, and it is the exit status too ("Does not conform: 3 aligned runs: 2 need
  // action, ..."): a merge job or a CI gate goes red with it.
  const auto [verdict, tone] = fleet_verdict(f);
  fmt::print("{}\n", verdict);
  for (std::size_t m = 0; m < f.machines.size(); ++m)
    if (!f.aligned(m)) fmt::print("{}: {} ({})\n", f.machines[m], alignment_note(f, m), in.files[m].string());
  for (auto const& m : f.missing)
    fmt::print("missing: task {}{}: {}\n", m.task, m.host.empty() ? "" : " on " + m.host, m.reason);
  fmt::print("{}.{{json,html}}: {} machines ({} aligned), {} rows differ among the aligned{}{}\n", out,
             f.machines.size(), aligned, f.differing(),
             f.missing.empty() ? "" : fmt::format("; {} of {} expected runs missing", f.missing.size(), expect_tasks),
             f.unread.empty() ? "" : fmt::format("; incomplete: {} inputs not read", f.unread.size()));
  if (!f.unread.empty()) return kExitTrouble;  // the merge is incomplete: trouble, before any verdict
  return tone != VerdictTone::DoesNotConform && aligned == f.machines.size() ? 0 : kExitFound;
}

// --out is a prefix (OUT.json, OUT.html); a folder (one that exists, or a name ending in '/') means
// FOLDER/NAME, never FOLDER/.json.
std::string out_prefix(const std::string& out, const char* name) {
  std::error_code ec;
  if (out.empty() || out.ends_with('/') || fs::is_directory(out, ec))
    return (fs::path(out.empty() ? "." : out) / name).string();
  return out;
}

struct HtmlOptions {
  std::vector<std::string> reports;
  std::string out;
};
struct MergeOptions {
  std::vector<std::string> reports;
  std::string out = "fleet";
  int expect_tasks = 0;
};

}  // namespace

Command add_diff_command(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  auto* cli = app.add_subcommand(
      "diff", "Compare two run reports (JSON); exit 1 if a case got worse or went missing (the upgrade gate)");
  cli->add_option("before", o->before, "The earlier report")->required();
  cli->add_option("after", o->after, "The later report")->required();
  cli->add_option("--html", o->html, "Also write the diff as a page, changed layouts drawn");
  cli->add_flag("-q,--quiet", o->how.quiet, "Print the verdict and the summary only");
  cli->add_flag("--gate-docs", o->how.gate_docs,
                "Exit 1 on a documentation change too (a claim contradicted now and not before, or gone)");
  return {.cli = cli, .run = [o](CommandContext&) {
            if (holds_audit_report(o->before) && holds_audit_report(o->after)) return diff_audits(o->before, o->after);
            return diff_runs(*o);
          }};
}

Command add_html_command(CLI::App& app) {
  auto o = std::make_shared<HtmlOptions>();
  auto* cli = app.add_subcommand(
      "html", "Write the page (HTML) of run or audit reports or the toolkit matrix (JSON), beside each");
  cli->add_option("reports", o->reports, "Report JSON files")->required();
  cli->add_option("--out", o->out, "Where the page goes (one report only)");
  return {.cli = cli, .run = [o](CommandContext& ctx) {
            if (!o->out.empty() && o->reports.size() > 1) throw std::invalid_argument("html: --out takes one report");
            SpecSet specs = load_spec_dir(ctx.paths.specs);  // for the layouts the specs give
            for (auto const& r : o->reports) fmt::print("{}\n", write_page_for(r, o->out, &specs).string());
            return 0;
          }};
}

Command add_merge_command(CLI::App& app) {
  auto o = std::make_shared<MergeOptions>();
  auto* cli = app.add_subcommand("merge",
                                 "Combine run reports of many machines into one page and one JSON; audit reports of "
                                 "several toolkits into their toolkit matrix");
  cli->add_option("reports", o->reports,
                  "Run (or audit) report JSON files, a column each, or folders to find run reports in (a fleet's "
                  "results directory)")
      ->required();
  cli->add_option("--out", o->out,
                  "Writes OUT.json and OUT.html (and OUT.md for audits); a folder: FOLDER/fleet (FOLDER/toolkits)");
  cli->add_option("--expect-tasks", o->expect_tasks,
                  "A Slurm array of N tasks ran the suite (harness/slurm/): each task 0..N-1 without a report is "
                  "listed as missing, with what its task.status says")
      ->check(CLI::Range(1, 1000000));
  return {.cli = cli, .run = [o](CommandContext&) {
            if (std::all_of(o->reports.begin(), o->reports.end(), holds_audit_report))
              return merge_audits(o->reports, out_prefix(o->out, "toolkits"));
            return merge_runs(o->reports, o->expect_tasks, out_prefix(o->out, "fleet"));
          }};
}

}  // namespace ptxcts

// ptxcts: the command. Subcommands: catalog (assemble), run (the conformance suite on every GPU,
// or the toolkit side where there is none), list, check-specs.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <optional>
#include <thread>

#include "assemble/catalog.hpp"
#include "assemble/catalog_sass.hpp"
#include "assemble/catalog_index.hpp"
#include "assemble/probe_assembly.hpp"
#include "assemble/toolkits.hpp"
#include "assemble/wheel_fetch.hpp"
#include "commands/fleet_inputs.hpp"
#include "commands/case_arguments.hpp"
#include "commands/program_home.hpp"
#include "commands/release_manifest.hpp"
#include "commands/run_console.hpp"
#include "judge/audit.hpp"
#include "judge/audit_plan.hpp"
#include "judge/claims.hpp"
#include "judge/expectations.hpp"
#include "kinds/kinds.hpp"
#include "plan/suite.hpp"
#include "report/audit_report.hpp"
#include "report/audit_report_reader.hpp"
#include "report/page_commands.hpp"
#include "report/report_diff.hpp"
#include "report/report_files.hpp"
#include "report/sass_report.hpp"
#include "report/terminal_progress.hpp"
#include "results/outcome.hpp"
#include "report/toolkit_matrix_report.hpp"
#include "report/up_to_date.hpp"
#include "results/report_json.hpp"
#include "run/case_selection.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_query.hpp"
#include "run/early_runner.hpp"
#include "run/fault_sharing.hpp"
#include "run/journal.hpp"
#include "run/run_sass.hpp"
#include "run/runner.hpp"
#include "spec/spec_loader.hpp"
#include "util/file_text.hpp"
#include "util/environment.hpp"
#include "util/sealed_file.hpp"
#include "util/subprocess.hpp"

#include "suite_commit.hpp"  // generated at build time
#ifndef PTXCTS_CATALOG_TARGETS
#define PTXCTS_CATALOG_TARGETS "native"
#endif
#ifndef PTXCTS_SUITE_COMMIT
#define PTXCTS_SUITE_COMMIT "unknown"
#endif

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

// The suite's own files: a release package's (bin/ beside share/ptxcts/) or the build tree's, found
// from this program's own place (commands/program_home); no path of the building machine.
const ProgramHome& home() {
  static const ProgramHome h = find_program_home(
      this_program(), BuildLayout{.source_dir = PTXCTS_REL_SOURCE_DIR,
                                  .catalog_dir = PTXCTS_REL_CATALOG_DIR,
                                  .reports_dir = PTXCTS_REL_REPORTS_DIR,  // the build's, not the tracked reports/
                                  .device_runner = PTXCTS_REL_DEVICE_RUNNER});
  return h;
}

struct Paths {
  std::string specs = home().specs.string();
  std::string kernels = home().kernels.string();
  std::string catalog = home().catalog.string();
  std::string reports = home().reports.string();
  std::string runner = home().runner.string();
  std::string ptxas;
  std::string targets = "all";  // the catalog's: all, native (the GPUs here), or a list such as sm_90,sm_100a
  bool sass = true;             // disassemble the catalog's cubins (--no-sass: not)
  std::string toolkit_cache = default_toolkit_cache().string();  // other toolkits, for a disassembler
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

// The toolkit the command line names (--ptxas), else $PTXCTS_PTXAS, the build's own, PATH's.
Toolchain find_toolchain(const Paths& p) { return Toolchain::discover(p.ptxas, home().build_ptxas); }

// Where a release assembles another toolkit's catalog (its own is read-only): the user's cache.
std::string user_catalog(const std::string& release) {
  return (default_toolkit_cache().parent_path() / ("catalog-cuda" + release)).string();
}

// What the specs and skeletons of this run are, to know a catalog made from them (CatalogOrigin).
CatalogOrigin this_suite(const Paths& p) {
  return {.suite_version = PTXCTS_VERSION,
          .suite_commit = PTXCTS_SUITE_COMMIT,
          .specs = xxh3_hex(folder_identity(p.specs) + "\n" + folder_identity(p.kernels))};
}

// A catalog run as it is must have been made by this suite from these specs and skeletons; one made
// elsewhere (an older release's, a catalog of other specs) would run kernels that are not this
// suite's. Catalogs that do not say where they come from (made by tests) are taken as they are,
// except in a release, whose own catalog always says.
void check_catalog_origin(const Catalog& c, const CatalogOrigin& want, const Paths& p) {
  if (!c.origin.known() && !home().release()) return;
  if (c.origin == want) return;
  auto known = [](const std::string& s, std::size_t n = std::string::npos) {
    return s.empty() ? std::string("unknown") : s.substr(0, n);
  };
  std::vector<std::string> differs;
  if (c.origin.suite_version != want.suite_version || c.origin.suite_commit != want.suite_commit)
    differs.push_back(fmt::format("ptxcts {} (commit {}) assembled it, this is ptxcts {} (commit {})",
                                  known(c.origin.suite_version), known(c.origin.suite_commit), want.suite_version,
                                  want.suite_commit));
  if (c.origin.specs != want.specs)
    differs.push_back(fmt::format("it was made from other specs or kernel skeletons (specs {} against {})",
                                  known(c.origin.specs, 12), want.specs.substr(0, 12)));
  throw std::runtime_error(fmt::format(
      "the catalog {} is not this suite's: {}; so nothing was run: rebuild it with 'ptxcts catalog --out {}' "
      "(needs ptxas; a build does it), or use the catalog of the release this program came with",
      p.catalog, fmt::join(differs, "; "), p.catalog));
}

// The toolkit of a catalog taken as it is, for its audit: as its manifest records it (no ptxas
// needed: the probes are in the catalog's warm cache), with the ptxas found here only if it is that
// very version (to judge what the cache lacks). A manifest that does not record it: the ptxas found.
Toolchain catalog_audit_toolchain(const Catalog& c, const Paths& p) {
  if (c.ptxas_targets.empty()) return find_toolchain(p);
  std::string ptxas;
  try {
    if (Toolchain found = find_toolchain(p); found.version == c.ptxas_version) ptxas = found.ptxas;
  } catch (const std::runtime_error&) {}  // none here: the cache alone
  return catalog_toolchain(c, ptxas);
}

// The targets --targets names: nullopt for all; the GPUs' own for native (every target whose code
// loads on one of them); else the comma-separated list as given.
std::optional<std::vector<std::string>> catalog_targets(const Suite& suite, const Toolchain& tc, const Paths& p) {
  if (p.targets == "all") return std::nullopt;
  std::vector<std::string> out;
  if (p.targets == "native") {
    DeviceQuery q = query_devices(p.runner);
    for (auto const& t : suite.specs.targets.targets)
      for (auto const& d : q.devices)
        if (std::find(tc.real_targets.begin(), tc.real_targets.end(), t.name) != tc.real_targets.end() &&
            runs_on(suite.specs.targets, t, d.major, d.minor) && std::find(out.begin(), out.end(), t.name) == out.end())
          out.push_back(t.name);
    fmt::print("catalog: --targets native: {}\n", q.devices.empty() ? "no GPU here (" + q.reason + "), so no target"
                                                                    : fmt::format("{}", fmt::join(out, ", ")));
    return out;
  }
  for (std::size_t at = 0; at <= p.targets.size();) {
    std::size_t comma = std::min(p.targets.find(',', at), p.targets.size());
    if (comma > at) out.push_back(p.targets.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// The disassembler for the toolkit of `tc`: its own, $PTXCTS_DISASSEMBLER, or another toolkit's.
DisassemblerChoice disassembler_for(const std::string& ptxas, const std::string& release, const Paths& p) {
  std::vector<std::string> others;
  for (auto const& c : toolkit_candidates(default_toolkit_search({}, p.toolkit_cache))) others.push_back(c.ptxas);
  const char* env = std::getenv("PTXCTS_DISASSEMBLER");
  return choose_disassembler(ptxas, release, env ? env : "", others);
}

// What the catalog's kernels became (every accepted cubin disassembled, or why not), saved in its manifest.
void disassemble_catalog(Catalog& c, const Suite& suite, const std::string& ptxas, const Paths& p) {
  const auto t0 = std::chrono::steady_clock::now();
  DisassemblerChoice choice = disassembler_for(ptxas, c.cuda_release, p);
  SassStats st;
  add_sass(c, suite, p.catalog, choice, p.jobs, &st);
  if (::access(p.catalog.c_str(), W_OK) == 0) save_catalog(c, p.catalog);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!choice.tool) {
    fmt::print("{}\n", wrapped(fmt::format("sass: {}; the SASS columns say so, nothing else is affected", choice.unavailable)));
    return;
  }
  fmt::print("{}\n", wrapped(fmt::format("sass: {} kernels of {} cubins by {}: {} disassembler runs, {} from cache, {} "
                                         "failed, {} with none of the expected mnemonics, in {:.1f} s",
                                         st.kernels, st.cubins, choice.tool->describe(), st.processes, st.cached,
                                         st.failed, st.unmatched, secs)));
}

Catalog make_catalog(const Suite& suite, const Paths& p) {
  Toolchain tc = find_toolchain(p);
  CatalogStats stats;
  auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](std::size_t done, std::size_t total) {  // only for builds slow enough to wonder about
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(2))
      fmt::print("catalog: {}/{} assemblies done or found in the cache\n", done, total), std::fflush(stdout);
  };
  Catalog c = build_catalog(suite, tc, read_kernel_skeletons(p.kernels), p.catalog, p.jobs, &stats, progress,
                            catalog_targets(suite, tc, p), this_suite(p));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{}\n", wrapped(fmt::format("catalog: {} kernels x {} targets (ptxas {}): {} assembled in {} ptxas runs, "
                                         "{} from cache, {} beyond this toolkit's PTX ISA {}, in {:.1f} s -> {}",
                                         suite.kernels.size(), c.targets.size(), tc.version, stats.assembled,
                                         stats.ptxas_runs, stats.cached, stats.not_attempted, c.toolkit_ptx.str(),
                                         secs, p.catalog)));
  if (auto errors = c.errors(); !errors.empty()) {
    fmt::print("catalog: ptxas failed on {} assemblies: no verdict, nothing cached, the next build tries them again:\n",
               errors.size());
    for (auto const& e : errors) fmt::print("  ptxas failed: {}\n", e);
  }
  if (p.sass) disassemble_catalog(c, suite, tc.ptxas, p);
  return c;
}

// The audit of the toolkit: every probe of the plan, parse-only, cached beside the catalog.
struct ToolkitAudit {
  AuditPlan plan;
  std::vector<ProbeVerdict> verdicts;
  Audit audit;
};

// `said`, if given, takes the summary line instead of stdout (an audit run beside the GPU work).
ToolkitAudit audit_toolkit(const Suite& suite, const Toolchain& tc, const Paths& p, std::string* said = nullptr) {
  using clock = std::chrono::steady_clock;
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  const auto t0 = clock::now();
  ToolkitAudit a;
  a.plan = plan_audit(suite, tc);
  const double planned = since(t0);
  ProbeStats stats;
  a.verdicts = assemble_probes(tc, a.plan.probes, fs::path(p.catalog) / "probes", p.jobs, ProbeMode::ParseOnly, &stats);
  const double assembled = since(t0);
  a.audit = judge_audit(suite, a.plan, a.verdicts);
  std::string text = fmt::format(
      "audit: {} probes (ptxas {}, {} targets): {} ptxas runs, {} probes from cache, in {:.2f} s (plan {:.2f} s, "
      "probes {:.2f} s, judging {:.2f} s)\n",
      a.plan.probes.size(), tc.version, a.plan.targets.size(), stats.ptxas_runs, stats.cached, since(t0), planned,
      assembled - planned, since(t0) - assembled);
  for (auto const& e : a.audit.errors) text += fmt::format("  ptxas failed: {}\n", e);
  if (said) *said += text;
  else fmt::print("{}", text);
  return a;
}

// A run without a GPU: the catalog in a line (per target with --verbose), the audit, and the claims
// the toolkit alone can judge; it ends with its verdict and says that it wrote no report.
void print_toolkit_side(const Suite& suite, const Catalog& c, const Paths& paths, Verbosity v) {
  int acc = 0, rej = 0, na = 0, failed = 0;
  for (auto const& a : c.assemblies) (!a.attempted ? na : !a.error.empty() ? failed : a.accepted ? acc : rej)++;
  if (v != Verbosity::Quiet)
    fmt::print("\nCatalog (ptxas {}, {} targets): {} assemblies accepted, {} rejected, {} beyond its PTX ISA{}\n",
               c.ptxas_version, c.targets.size(), acc, rej, na, failed ? fmt::format(", {} ptxas failed", failed) : "");
  if (v == Verbosity::Verbose)
    for (auto const& t : c.targets) {
      int ta = 0, tr = 0, tn = 0, tf = 0;
      for (auto const& a : c.assemblies)
        if (a.target == t) (!a.attempted ? tn : !a.error.empty() ? tf : a.accepted ? ta : tr)++;
      fmt::print("  {:<8} {:>4} accepted  {:>4} rejected  {:>4} not attempted{}\n", t, ta, tr, tn,
                 tf ? fmt::format("  {:>4} ptxas failed", tf) : "");
    }
  std::string said;
  ToolkitAudit a = audit_toolkit(suite, catalog_audit_toolchain(c, paths), paths, &said);
  if (v == Verbosity::Verbose) fmt::print("{}", said);
  print_audit_findings(stdout, a.audit, v);
  print_toolkit_side_end(stdout, evaluate_claims(suite, a.audit, {}, "no GPU on this machine"), v);
}

std::string utc_now() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// Exit codes (README.md lists them): 0 all well; 1 something found: a case failed, a report
// regressed, the audit found a contradiction; 2 trouble: a bad command line, an input that cannot be
// read, a harness error; 3 ptxas failed on some assembly (no verdict: catalog, audit, run without a
// GPU); 77 skipped (CTest's SKIP_RETURN_CODE).
constexpr int kExitFound = 1;
constexpr int kExitTrouble = 2;
constexpr int kExitPtxasFailed = 3;
constexpr int kExitSkipped = 77;

// Wrong use of the command line found after parsing: said on stderr, exit 2 (as for bad specs).
int usage_error(const std::string& message) {
  fmt::print(stderr, "error: {}\n", message);
  return 2;
}

// When this process started: a run's wall time and its first launch are counted from here.
const auto kProcessStart = std::chrono::steady_clock::now();

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int>(u.ru_maxrss / 1024);  // Linux: kilobytes
}

// Where the run's time went, from the report's timing.
void print_timing(const RunTiming& t) {
  fmt::print(
      "  time: {:.2f} s wall (first launch at {:.2f} s): plan {:.2f} s, runner init {:.2f} s over {} runner starts, "
      "module loads {:.2f} s, {} launches in {} batches {:.3f} s, fault line {:.2f} s, compare {:.2f} s, reports "
      "{:.2f} s; peak memory {} MiB\n",
      t.wall, t.first_launch, t.plan, t.runner_init, t.runner_starts, t.module_loads, t.launch_count, t.batch_count,
      t.launches, t.faults, t.compare, t.reports, t.peak_rss_mib);
}

struct RunFlags {
  bool no_assemble = false, require_gpu = false, resume = false, quiet = false, verbose = false;
  unsigned batch = 256;
  RunToolchain toolchain = RunToolchain::Cubin;
  // The naive ways, kept for comparison (hidden options): no runner started before the specs load,
  // the manifest parsed in full, every case's inputs made before its line's job file is written.
  bool no_early_runner = false, no_manifest_index = false, no_stream = false;
  // Every GPU runs every fault case (by default GPUs alike share them: run/fault_sharing).
  bool faults_on_every_gpu = false;
  // The naive way kept for comparison (hidden): each runner sees every GPU of the host.
  bool runners_see_all_gpus = false;
  unsigned standby_depth = 1;  // (hidden, for comparisons) runners the fault line keeps ready
  std::vector<std::string> cases;         // --cases: KERNEL/CASE globs and @FILE case lists
  std::vector<std::string> expectations;  // --expectations: files or folders (default: the specs' expectations/)
  Verbosity verbosity() const { return quiet ? Verbosity::Quiet : verbose ? Verbosity::Verbose : Verbosity::Normal; }
};

// The GPU a run uses first: the one CTest gives (RESOURCE_GROUPS gpus:1 names it as
// CTEST_RESOURCE_GROUP_0_GPUS=id:N,slots:1), else the first.
int first_gpu() {
  if (const char* given = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) {
    std::string g = given;
    if (auto at = g.find("id:"); at != std::string::npos) return std::atoi(g.c_str() + at + 3);
  }
  return 0;
}

// The expectations files a run applies: those named (files or folders), else the specs' expectations/.
std::vector<ExpectationFile> load_expectations(const Paths& p, const std::vector<std::string>& named) {
  if (named.empty()) return read_expectation_dir(fs::path(p.specs) / "expectations");
  std::vector<ExpectationFile> files;
  for (auto const& n : named) {
    if (fs::is_directory(n)) {
      auto more = read_expectation_dir(n);
      files.insert(files.end(), more.begin(), more.end());
    } else {
      files.push_back(read_expectation_file(n));
    }
  }
  return files;
}

// `release_check` (valid in a release) is awaited once the specs and catalog are read, before any launch.
int cmd_run(const Paths& p, const std::vector<std::string>& families, const std::shared_future<void>& release_check,
            const RunFlags& flags) {
  const bool no_assemble = flags.no_assemble, require_gpu = flags.require_gpu, resume = flags.resume;
  // Only a run of every family keeps a journal (a run of some writes no reports), so there would
  // be nothing of theirs to go on from.
  if (resume && (!families.empty() || !flags.cases.empty()))
    return usage_error(
        "--resume cannot be combined with --family or --cases: only a run of every case keeps a journal to "
        "resume; expected --resume alone, or a selection alone (a fresh run of those cases)");
  std::vector<std::string> globs;
  try {
    globs = case_globs(flags.cases);
  } catch (const CaseListError& e) { return usage_error(e.what()); }
  // A selection (families or cases) writes no reports: a report speaks for every case of the suite.
  const bool selection = !families.empty() || !globs.empty();
  const std::vector<ExpectationFile> expectations = load_expectations(p, flags.expectations);
  // The fault line's first runner makes its context, and the GPUs are asked for (each starts the
  // driver: a few hundred ms), while the specs and the catalog load (run/early_runner).
  std::unique_ptr<EarlyRunner> early;
  if (!flags.no_early_runner)
    early = std::make_unique<EarlyRunner>(p.runner, first_gpu(), fs::path(), RunOptions{}.case_timeout,
                                          flags.toolchain);
  auto query = std::async(std::launch::async, [&] { return query_devices(p.runner); });
  // A catalog used as it is needs no specs to be read: it loads beside them.
  std::future<Catalog> catalog_as_is;
  if (no_assemble)
    catalog_as_is =
        std::async(std::launch::async, [&] { return load_catalog_indexed(p.catalog, !flags.no_manifest_index); });
  Suite suite = build_suite(load_spec_dir(p.specs));
  const double specs_at = seconds_since(kProcessStart);
  // A family the specs do not define would select nothing, and a run of nothing passes.
  for (auto const& f : families)
    if (std::find(suite.specs.families.begin(), suite.specs.families.end(), f) == suite.specs.families.end()) {
      std::vector<std::string> known = suite.specs.families;
      std::sort(known.begin(), known.end());
      return usage_error(fmt::format("unknown family '{}'; the specs define {}", f, fmt::join(known, ", ")));
    }
  if (auto none = globs_matching_nothing(suite, globs); !none.empty())
    return usage_error(fmt::format("--cases {}: no case of the suite is named so; expected KERNEL/CASE names as "
                                   "`ptxcts list --cases` lists them, e.g. {}",
                                   fmt::join(none, ", "), all_case_ids(suite).front()));
  Catalog cat = no_assemble ? catalog_as_is.get() : make_catalog(suite, p);
  if (release_check.valid()) release_check.get();
  const CatalogOrigin suite_origin = this_suite(p);
  if (no_assemble) check_catalog_origin(cat, suite_origin, p);
  const double catalog_at = seconds_since(kProcessStart);
  DeviceQuery q = query.get();
  // Where a run's first second goes (the report's timing has the first launch).
  if (flags.verbose)
    fmt::print("startup: specs loaded at {:.3f} s, catalog at {:.3f} s{}, GPUs known at {:.3f} s\n", specs_at,
               catalog_at,
               !no_assemble              ? ""
               : flags.no_manifest_index ? " (manifest parsed)"
                                         : " (manifest index)",
               seconds_since(kProcessStart));
  if (q.devices.empty() && require_gpu) {
    fmt::print("SKIPPED: {}; the conformance cases need a GPU\n", q.reason);
    return kExitSkipped;
  }
  if (q.devices.empty()) {
    fmt::print("No GPU: {}.\nRunning the toolkit side only: the catalog, and the claims it can judge.\n", q.reason);
    print_toolkit_side(suite, cat, p, flags.verbosity());
    return cat.errors().empty() ? 0 : kExitPtxasFailed;
  }
  // Under `ctest --resource-spec-file`, a test given a GPU (RESOURCE_GROUPS gpus:1) runs on that GPU
  // only: CTest names it as CTEST_RESOURCE_GROUP_0_GPUS=id:N,slots:1.
  if (std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"))
    std::erase_if(q.devices, [id = first_gpu()](const DeviceInfo& d) { return d.ordinal != id; });
  {  // only what these GPUs can load is kept (and searched: an all-targets catalog has ~30,000 assemblies)
    std::vector<std::pair<int, int>> capabilities;
    for (auto const& d : q.devices) capabilities.emplace_back(d.major, d.minor);
    keep_loadable(cat, suite.specs.targets, capabilities);
  }
  // What the requirement claims rest on (the same for every GPU): the toolkit's audit, where there is
  // a toolkit. Only the claims need it, at the end, so it runs beside the GPU work and is said then.
  std::string audit_said;
  auto audit_future = std::async(std::launch::async, [&]() -> Audit {
    try {
      return audit_toolkit(suite, no_assemble ? catalog_audit_toolchain(cat, p) : find_toolchain(p), p, &audit_said)
          .audit;
    } catch (const std::runtime_error& e) {
      audit_said =
          fmt::format("No toolkit to audit ({}): requirement claims are not checkable in this run\n", e.what());
      return Audit{};
    }
  });
  // Every GPU of the host at once: a device runner (and its fault pool) per GPU, each GPU's results
  // and reports its own; a GPU whose runner cannot run costs only that GPU's cases.
  struct PerGpu {
    RunOptions opt;
    RunReport rep;
    Journal journal;
    fs::path journal_path, reports;
    DeviceRun run;
    double secs = 0;
    std::exception_ptr failed;
    std::unique_ptr<TerminalProgress> terminal;
  };
  std::vector<PerGpu> gpus(q.devices.size());
  const bool many = q.devices.size() > 1;
  const std::vector<FaultShare> shares = share_fault_cases(q.devices, flags.faults_on_every_gpu);
  for (std::size_t g = 0; g < q.devices.size(); ++g) {
    auto const& dev = q.devices[g];
    PerGpu& G = gpus[g];
    if (!flags.quiet)
      fmt::print("\n[GPU {}] {} ({}, driver {}, CUDA {})\n", dev.ordinal, dev.name, dev.sm(), dev.driver_version,
                 dev.driver_cuda);
    RunOptions& opt = G.opt;
    opt.runner = p.runner;
    opt.catalog_dir =
        p.catalog;  // read only: each run's job and result files go to a fresh directory of its own (work_dir)
    opt.families.insert(families.begin(), families.end());
    opt.case_globs = globs;
    G.terminal = std::make_unique<TerminalProgress>(stdout, isatty(STDOUT_FILENO) != 0, flags.verbosity(),
                                                    many ? fmt::format("[GPU {}] ", dev.ordinal) : "");
    opt.progress = [t = G.terminal.get()](const std::string& line) { t->kernel_line(line); };
    // A known difference is said as known as it finishes, not as a failure (the expectations of its GPU).
    opt.on_case = [t = G.terminal.get(), &expectations, info = &G.rep.info](const CaseResult& r, std::size_t done,
                                                                          std::size_t total) {
      if (expectations.empty()) return t->case_done(r, done, total);
      CaseResult seen = r;
      seen.known = known_difference(expectations, *info, r);
      t->case_done(seen, done, total);
    };
    opt.batch = flags.batch;
    opt.toolchain = flags.toolchain;
    opt.process_start = kProcessStart;
    opt.early = early.get();
    opt.stream = !flags.no_stream;
    opt.only_gpu = flags.runners_see_all_gpus ? "" : dev.uuid;
    opt.standby_depth = flags.standby_depth;
    opt.fault_share_index = shares[g].index;
    opt.fault_share_of = shares[g].of;
    RunReport& rep = G.rep;
    rep.info = {.gpu_name = dev.name,
                .compute_capability = fmt::format("{}.{}", dev.major, dev.minor),
                .sm = dev.sm(),
                .driver_version = dev.driver_version,
                .driver_cuda = dev.driver_cuda,
                .cuda_release = cat.cuda_release,
                .ptxas_version = cat.ptxas_version,
                .ptx_isa = cat.toolkit_ptx.str(),
                .toolchain = flags.toolchain == RunToolchain::Jit ? jit_toolchain(dev.driver_version, dev.driver_cuda)
                                                                  : cubin_toolchain(cat.ptxas_version),
                .host = host_name(),
                .date = utc_now(),
                .suite_version = PTXCTS_VERSION,
                .suite_commit = PTXCTS_SUITE_COMMIT,
                .gpu_index = std::to_string(dev.ordinal),
                .gpu_uuid = dev.uuid,
                .gpu_pci_bus_id = dev.pci_bus_id,
                .gpus_at_once = std::to_string(q.devices.size()),
                .fault_cases = shares[g].sentence,
                .specs = suite_origin.specs,
                .slurm_job = getenv_or("SLURM_ARRAY_JOB_ID", getenv_or("SLURM_JOB_ID")),
                .slurm_task = getenv_or("SLURM_ARRAY_TASK_ID")};
    if (flags.toolchain == RunToolchain::Jit) fmt::print("  toolchain: {}\n", rep.info.toolchain);
    // The journal: every result on disk as soon as it is known; --resume goes on from it.
    // Two GPUs of one model name their reports alike: with several GPUs, each has a folder of its own.
    G.reports = many ? fs::path(p.reports) / fmt::format("gpu{}", dev.ordinal) : fs::path(p.reports);
    if (many) fs::create_directories(G.reports);
    G.journal_path = G.reports / (report_basename(rep.info) + ".journal.jsonl");
    if (!selection) {
      if (resume) {
        auto done = read_journal(G.journal_path);
        opt.done = by_kernel_and_case(done);
        fmt::print("  resuming: {} results from {}\n", done.size(), G.journal_path.string());
      }
      G.journal = Journal(G.journal_path, !resume);
      opt.journal = &G.journal;
    }
  }
  {
    std::vector<std::thread> threads;
    for (std::size_t g = 0; g < q.devices.size(); ++g)
      threads.emplace_back([&, g] {
        PerGpu& G = gpus[g];
        try {
          auto t0 = std::chrono::steady_clock::now();
          G.run = run_on_device(suite, cat, q.devices[g], G.opt);
          G.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          G.terminal->finish();
        } catch (...) { G.failed = std::current_exception(); }
      });
    for (auto& t : threads) t.join();
  }
  {  // the fault cases a GPU left to another of its kind, from that GPU's results
    std::vector<DeviceRun*> runs;
    for (auto& G : gpus) runs.push_back(&G.run);
    if (std::none_of(gpus.begin(), gpus.end(), [](const PerGpu& G) { return G.failed != nullptr; }))
      fill_shared_fault_cases(q.devices, shares, runs);
  }
  const Audit audit = audit_future.get();
  if (flags.verbose) fmt::print("\n{}", audit_said);
  else if (audit.ptxas_version.empty()) fmt::print("\n{}", wrapped(audit_said));  // why no claim of the toolkit's is checkable
  print_audit_findings(stdout, audit, flags.verbosity());
  bool any_needs_action = false;
  for (std::size_t g = 0; g < q.devices.size(); ++g) {
    auto const& dev = q.devices[g];
    PerGpu& G = gpus[g];
    if (G.failed) std::rethrow_exception(G.failed);
    RunReport& rep = G.rep;
    const std::string prefix = many ? fmt::format("[GPU {}] ", dev.ordinal) : "";
    rep.results = std::move(G.run.results);
    rep.timing = G.run.timing;
    rep.claims = evaluate_claims(suite, audit, rep.results);
    rep.sass = run_sass(cat, rep.results);
    for (auto const& f : expectations)
      if (f.speaks_for(rep.info)) rep.expectations_applied.push_back(f.file);
    if (!selection) rep.expectations_unmatched = apply_expectations(expectations, rep);
    else apply_expectations(expectations, rep);  // a selection leaves out what others expect: not reported
    for (auto const& u : rep.expectations_unmatched) fmt::print("  {}{}\n", prefix, wrapped(u, 98, 6));
    // The failures were printed in full as they happened; the findings are said here.
    print_claims(stdout, rep.claims, flags.verbosity(), prefix);
    // The report's own time: the process start to this moment; write_reports adds the writing of the
    // Markdown, JUnit and HTML files (the JSON cannot hold the time of its own writing).
    rep.timing.wall = seconds_since(kProcessStart);
    rep.timing.peak_rss_mib = peak_rss_mib();
    std::string written;
    if (!selection) {
      const auto t_reports = std::chrono::steady_clock::now();
      write_reports(rep, G.reports, &suite.specs);
      rep.timing.reports = seconds_since(t_reports);  // for the line below: what the files took in all
      rep.timing.wall = seconds_since(kProcessStart);
      fs::remove(G.journal_path);  // the reports now hold everything it did
      written = fmt::format("{}/{}.{{json,md,xml,html}}", G.reports.string(), report_basename(rep.info));
    }
    if (flags.verbose) print_timing(rep.timing);
    else if (!flags.quiet)
      fmt::print("  {}time: {:.1f} s ({:.1f} s on the GPU side; first launch at {:.2f} s)\n", prefix, rep.timing.wall,
                 G.secs, rep.timing.first_launch);
    print_gpu_end(stdout, rep, written, "a run of some families or cases writes none (run every case for reports)",
                  prefix);
    any_needs_action = any_needs_action || tally(rep.results).needing_action > 0;
  }
  return any_needs_action ? kExitFound : 0;
}

int cmd_audit(const Paths& p) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  // A release audits the toolkit of its own catalog (warm: no ptxas needed) unless told another.
  const bool own_catalog = home().release() && p.ptxas.empty() && getenv_or("PTXCTS_PTXAS").empty();
  ToolkitAudit a =
      audit_toolkit(suite, own_catalog ? catalog_audit_toolchain(load_catalog_indexed(p.catalog), p) : find_toolchain(p), p);
  const AuditRun run{
      .host = host_name(), .date = utc_now(), .suite_version = PTXCTS_VERSION, .suite_commit = PTXCTS_SUITE_COMMIT};
  fs::path json = write_audit_reports(a.audit, a.plan, a.verdicts, run, p.reports);
  print_audit_findings(stdout, a.audit, Verbosity::Verbose);  // the audit's own command lists every one
  int confirmed = 0, contradicted = 0;
  for (auto const& s : a.audit.statements) {
    confirmed += s.verdict == Verdict::Confirmed;
    contradicted += s.verdict == Verdict::Contradicted;
  }
  for (auto const& r : a.audit.requirements) {
    confirmed += r.verdict == Verdict::Confirmed;
    contradicted += r.verdict == Verdict::Contradicted;
  }
  for (auto const* k : a.audit.unused_known)
    fmt::print("audit: known discrepancy no longer observed: {} ({})\n",
               !k->finding.empty() ? k->finding
               : k->form.empty()   ? k->variant + " on " + k->target
                                   : k->form,
               k->source);
  fmt::print(
      "audit: {} statements and requirements: {} confirmed, {} contradicted; {} findings, {} not expected by the specs "
      "-> {}\n",
      a.audit.statements.size() + a.audit.requirements.size(), confirmed, contradicted, a.audit.findings.size(),
      a.audit.contradictions(), json.string());
  if (!a.audit.errors.empty())
    fmt::print("audit: ptxas failed on {} probes, so what they would show is not checkable (listed above)\n",
               a.audit.errors.size());
  return a.audit.contradictions() ? kExitFound : a.audit.errors.empty() ? 0 : kExitPtxasFailed;
}

int cmd_diff(const std::string& before, const std::string& after, const std::string& html) {
  auto load = [](const std::string& path) {
    auto text = try_read_file_text(path, kMaxInputFileBytes);
    if (!text) throw ReportError(path + ": cannot read this report");
    return parse_report_json(*text, path);
  };
  RunReport old_report = load(before), new_report = load(after);
  ReportDiff d = diff_reports(old_report, new_report);
  fmt::print("{}", format_diff(d));
  if (!html.empty()) write_diff_page(old_report, new_report, d, html);
  return d.findings() ? kExitFound : 0;
}

// `ptxcts sass`: what the code of a toolkit's catalog becomes, as a table form x target
// (sass-cuda<release>.{json,md}); the catalog is brought up to date and disassembled first, or
// (--no-assemble) taken as it is and disassembled where its manifest lacks the SASS.
int cmd_sass(const Paths& p, bool no_assemble) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  Catalog cat;
  if (no_assemble) {
    cat = load_catalog(p.catalog);
    const bool has_sass =
        std::any_of(cat.assemblies.begin(), cat.assemblies.end(), [](const Assembly& a) { return a.sass.has_value(); });
    if (!has_sass) disassemble_catalog(cat, suite, p.ptxas, p);
  } else {
    cat = make_catalog(suite, p);
  }
  const AuditRun run{
      .host = host_name(), .date = utc_now(), .suite_version = PTXCTS_VERSION, .suite_commit = PTXCTS_SUITE_COMMIT};
  const fs::path json = write_sass_reports(build_sass_report(cat, suite), run, p.reports);
  fmt::print("sass: CUDA {}, {} targets -> {} (and .md)\n", cat.cuda_release, cat.targets.size(), json.string());
  return cat.errors().empty() ? 0 : kExitPtxasFailed;
}

// The SASS reports of these releases found in `dir` (sass-cuda<release>.json), in that order.
std::vector<SassReport> sass_reports_in(const fs::path& dir, const std::vector<std::string>& releases) {
  std::vector<SassReport> out;
  for (auto const& r : releases) {
    const fs::path file = dir / ("sass-cuda" + r + ".json");
    if (auto text = try_read_plain_or_gzipped(file)) out.push_back(read_sass_report(*text, file.string()));
  }
  return out;
}

// `ptxcts toolkits`: every ptxas found, what each says it is.
int cmd_toolkits(const std::vector<std::string>& ptxas, const std::string& cache) {
  auto found = find_toolkits(default_toolkit_search(ptxas, cache));
  int usable = 0;
  for (auto const& f : found) {
    if (!f.tc) {
      fmt::print("cannot use {} ({}): {}\n", f.where.ptxas, f.where.found_by, f.problem);
      continue;
    }
    ++usable;
    const Toolchain& tc = *f.tc;
    fmt::print("CUDA {:<5} ptxas {:<10} PTX ISA {} ({}), {} targets: {}\n      {} ({}){}\n", tc.release, tc.version,
               tc.ptx_isa.str(), tc.ptx_isa_read_by, tc.real_targets.size(), fmt::join(tc.real_targets, " "),
               f.where.ptxas, f.where.found_by,
               f.also.empty() ? "" : fmt::format("; also {}", fmt::join(f.also, "; ")));
  }
  fmt::print("{} toolkits usable; fetched ones are cached in {}\n", usable, cache);
  return usable ? 0 : usage_error("no usable ptxas found (ptxcts toolkits fetch VERSION fetches one)");
}

// `ptxcts toolkits fetch VERSION...`: each through pip into the cache; 77 if the registry cannot be
// reached (nothing else went wrong), 2 if a version does not exist or a wheel is bad.
int cmd_toolkits_fetch(const std::vector<std::string>& versions, const std::string& cache, bool refetch,
                       const std::vector<std::string>& tools_asked) {
  for (auto const& v : versions)
    for (auto const& tool : tools_asked) {
      try {
        pip_requirement(v, tool);
      } catch (const std::invalid_argument& e) { return usage_error(e.what()); }
    }
  const FetchTools tools = default_fetch_tools();
  bool unreachable = false, failed = false;
  for (auto const& v : versions)
    for (auto const& tool : tools_asked) {
      auto t0 = std::chrono::steady_clock::now();
      FetchResult r = fetch_toolkit(v, cache, tools, refetch, tool);
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r.ok()) fmt::print("fetch: {} ({:.1f} s)\n", r.message, secs);
      else fmt::print(stderr, "fetch: {}\n", r.message);
      unreachable |= r.outcome == FetchOutcome::RegistryUnreachable;
      failed |= !r.ok() && r.outcome != FetchOutcome::RegistryUnreachable;
    }
  return failed ? kExitTrouble : unreachable ? kExitSkipped : 0;
}

// `ptxcts audit --toolkit ...`: each toolkit's audit report, then (two or more) the matrix. Reports
// whose inputs have not changed since they were written are not written again (report/up_to_date),
// unless `rewrite`.
int cmd_audit_toolkits(const Paths& p, const std::vector<std::string>& names, const std::vector<std::string>& ptxas,
                       const std::string& cache, bool rewrite) {
  const auto t0 = std::chrono::steady_clock::now();
  auto found = find_toolkits(default_toolkit_search(ptxas, cache));
  std::vector<Toolchain> toolkits;
  for (auto const& n : names) {
    if (n == "all") {
      for (auto const& f : found)
        if (f.tc) toolkits.push_back(*f.tc);
    } else {
      toolkits.push_back(select_toolkit(found, n));
    }
  }
  if (toolkits.empty()) return usage_error("--toolkit all: no usable ptxas found (ptxcts toolkits lists them)");
  Suite suite = build_suite(load_spec_dir(p.specs));
  const AuditRun run{
      .host = host_name(), .date = utc_now(), .suite_version = PTXCTS_VERSION, .suite_commit = PTXCTS_SUITE_COMMIT};
  const fs::path stamps = fs::path(p.catalog) / "stamps";
  const std::string specs = folder_identity(p.specs);
  std::vector<fs::path> jsons;
  bool contradicted = false, ptxas_failed = false;
  for (auto const& tc : toolkits) {
    const std::vector<fs::path> files = {audit_report_path(p.reports, tc.release, ".json"),
                                         audit_report_path(p.reports, tc.release, ".md"),
                                         audit_report_path(p.reports, tc.release, ".html")};
    const std::string key = inputs_key({"audit", program_identity(), specs, file_identity(tc.ptxas), tc.version});
    jsons.push_back(files[0]);
    if (auto known = rewrite ? std::nullopt : up_to_date(stamps, files, key)) {
      fmt::print("audit: CUDA {}: {} -> {} (up to date: the same specs, ptxas and suite; not written again)\n",
                 tc.release, known->said, files[0].string());
      contradicted |= known->status != 0;
      continue;
    }
    ToolkitAudit a = audit_toolkit(suite, tc, p);
    fs::path json = write_audit_reports(a.audit, a.plan, a.verdicts, run, p.reports);
    const std::string said =
        fmt::format("{} findings, {} not expected by the specs", a.audit.findings.size(), a.audit.contradictions());
    fmt::print("audit: CUDA {}: {} -> {}\n", a.audit.cuda_release, said, json.string());
    contradicted |= a.audit.contradictions() > 0;
    ptxas_failed |= !a.audit.errors.empty();
    if (a.audit.errors.empty()) stamp_reports(stamps, files, key, {.said = said, .status = a.audit.contradictions() > 0});
  }
  if (toolkits.size() > 1) {
    std::vector<std::string> parts = {"matrix", program_identity()};
    for (std::size_t k = 0; k < toolkits.size(); ++k) {
      parts.push_back(file_seal(jsons[k]));
      parts.push_back(file_seal(fs::path(p.reports) / ("sass-cuda" + toolkits[k].release + ".json")));
    }
    const std::vector<fs::path> files = {fs::path(p.reports) / "toolkits.json", fs::path(p.reports) / "toolkits.md",
                                         fs::path(p.reports) / "toolkits.html"};
    const std::string key = inputs_key(parts);
    if (auto known = rewrite ? std::nullopt : up_to_date(stamps, files, key)) {
      fmt::print("{}matrix: {} toolkits -> {} (up to date: made of these audit and SASS reports; not written again)\n",
                 known->said, toolkits.size(), files[0].string());
    } else {
      // Read back as written: the matrix is made of the reports, exactly.
      std::vector<AuditSummary> summaries;
      for (auto const& json : jsons) {
        auto text = try_read_file_text(json);
        if (!text) throw std::runtime_error(json.string() + ": cannot read the report just written");
        summaries.push_back(parse_audit_report(*text, json.string()));
      }
      ToolkitMatrix m = build_matrix(std::move(summaries));
      std::vector<std::string> releases;
      for (auto const& c : m.columns) releases.push_back(c.cuda_release);
      fs::path json = write_matrix_reports(m, run, p.reports, sass_reports_in(p.reports, releases));
      std::string said;
      for (auto const& s : m.steps)
        said += fmt::format(
            "matrix: CUDA {} -> {}: {} changes ({} findings appeared, {} fixed, {} forms newly accepted, {} newly "
            "rejected, {} messages changed)\n",
            s.from, s.to, s.changes.size(), s.count("finding appeared"), s.count("finding fixed"),
            s.count("form newly accepted"), s.count("form newly rejected"), s.count("message changed"));
      fmt::print("{}matrix: {} toolkits -> {}\n", said, m.columns.size(), json.string());
      stamp_reports(stamps, files, key, {.said = said, .status = 0});
    }
  }
  fmt::print("audit: {} toolkits in {:.2f} s\n", toolkits.size(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return contradicted ? kExitFound : ptxas_failed ? kExitPtxasFailed : 0;
}

// `ptxcts merge` of audit reports (audited on other machines, or earlier): their toolkit matrix, with
// the SASS reports found beside them (sass-cuda<release>.json in each audit report's folder).
int cmd_merge_audits(const std::vector<std::string>& reports, const std::string& prefix) {
  std::vector<AuditSummary> summaries;
  std::map<std::string, fs::path> folder_of;  // a release's audit report's folder: its SASS report is looked for there
  for (auto const& path : reports) {
    auto text = try_read_file_text(path, kMaxInputFileBytes);
    if (!text) throw std::runtime_error(path + ": cannot read this report");
    summaries.push_back(parse_audit_report(*text, path));
    folder_of[summaries.back().cuda_release] = fs::path(path).parent_path();
  }
  if (summaries.size() < 2) return usage_error("merge: the toolkit matrix needs two or more audit reports");
  ToolkitMatrix m = build_matrix(std::move(summaries));
  const AuditRun run{
      .host = host_name(), .date = utc_now(), .suite_version = PTXCTS_VERSION, .suite_commit = PTXCTS_SUITE_COMMIT};
  std::vector<SassReport> sass;
  for (auto const& c : m.columns) {
    auto found = sass_reports_in(folder_of[c.cuda_release], {c.cuda_release});
    sass.insert(sass.end(), found.begin(), found.end());
  }
  write_matrix_files(m, run, prefix, sass);
  fmt::print("{}.{{json,md,html}}: the toolkit matrix of {} toolkits\n", prefix, m.columns.size());
  return 0;
}

// `ptxcts diff` of two audit reports: what changed from one toolkit (or audit) to the other.
int cmd_diff_audits(const std::string& before, const std::string& after) {
  auto load = [](const std::string& path) {
    auto text = try_read_file_text(path, kMaxInputFileBytes);
    if (!text) throw std::runtime_error(path + ": cannot read this report");
    return parse_audit_report(*text, path);
  };
  AuditSummary a = load(before), b = load(after);
  PairChanges c = compare_audits(a, b);
  fmt::print("{}", format_audit_diff(c, a, b));
  return audit_regressed(c, b) ? kExitFound : 0;
}

// Whether `path` holds an audit report (else it is read as a run report, with that reader's errors).
bool holds_audit_report(const std::string& path) {
  auto text = try_read_file_text(path, kMaxInputFileBytes);  // a file without an end is refused here
  if (!text) return false;
  try {
    return is_audit_report(JsonDocument(*text, path));
  } catch (const JsonInputError&) { return false; }
}

// `ptxcts merge` of run reports: the fleet page and JSON; exit 1 if a run is missing or not aligned.
int cmd_merge_runs(const std::vector<std::string>& inputs, int expect_tasks, const std::string& out) {
  FleetInputs in = collect_fleet_inputs(inputs, expect_tasks > 0 ? std::optional<int>(expect_tasks) : std::nullopt);
  if (in.reports.empty() && in.missing.empty())
    return usage_error(fmt::format("merge: no run report found in {}", fmt::join(inputs, ", ")));
  const Fleet f = write_fleet(in.reports, in.missing, out);
  const std::size_t aligned = f.aligned_count();
  for (std::size_t m = 0; m < f.machines.size(); ++m)
    if (!f.aligned(m)) fmt::print("{}: {} ({})\n", f.machines[m], alignment_note(f, m), in.files[m].string());
  for (auto const& m : f.missing)
    fmt::print("missing: task {}{}: {}\n", m.task, m.host.empty() ? "" : " on " + m.host, m.reason);
  fmt::print("{}.{{json,html}}: {} machines ({} aligned), {} rows differ among the aligned{}\n", out,
             f.machines.size(), aligned, f.differing(),
             f.missing.empty() ? "" : fmt::format("; {} of {} expected runs missing", f.missing.size(), expect_tasks));
  return f.missing.empty() && aligned == f.machines.size() ? 0 : kExitFound;
}

int cmd_list(const Paths& p) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  for (auto const& k : suite.kernels) {
    std::string steps;
    for (auto const* s : k.steps) steps += (steps.empty() ? "" : " ; ") + s->id() + " [" + s->requirement_text() + "]";
    fmt::print("{:<10} {}\n", k.family, steps);
  }
  fmt::print("\ncases:");
  for (auto const& c : suite.specs.cases.cases) fmt::print(" {}", c.name);
  fmt::print("\nclaims:");
  for (auto const& c : suite.specs.claims) fmt::print(" {}", c.id);
  fmt::print("\n{} kernels, {} inputs; {} cases (a case: a kernel with one of the inputs its kind takes)\n",
             suite.kernels.size(), suite.specs.cases.cases.size(), all_case_ids(suite).size());
  return 0;
}

// The case list of this release: what "conformant" means for it.
int cmd_list_cases(const Paths& p) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  const std::vector<std::string> ids = all_case_ids(suite);
  fmt::print("# ptxcts {} (commit {}): the {} cases of this release, KERNEL/CASE\n", PTXCTS_VERSION,
             PTXCTS_SUITE_COMMIT, ids.size());
  for (auto const& id : ids) fmt::print("{}\n", id);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  end_children_with_this_process();  // Ctrl-C or a kill ends the ptxas and device runners it started
  CLI::App app{"ptxcts: conformance tests for PTX warp-level matrix data-movement instructions"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    std::string v = fmt::format("ptxcts {} (commit {})", PTXCTS_VERSION, PTXCTS_SUITE_COMMIT);
    if (!home().release()) return v;
    try {
      return v + "\n" + describe_release_catalog(check_release(home().prefix, PTXCTS_VERSION, PTXCTS_SUITE_COMMIT));
    } catch (const ReleaseError& e) { return v + "\nerror: " + e.what(); }
  });
  app.option_defaults()->always_capture_default();
  app.footer(
      "Exit status: 0 all well; 1 a case failed, errored or crashed (run), an unexplained contradiction (audit), a "
      "regression "
      "(diff); 2 an error (bad specs, unreadable files); 3 ptxas failed on some assembly, so it has no verdict "
      "(catalog, audit, "
      "run without a GPU; the next build tries it again); 77 skipped (run --require-gpu without a GPU).");
  Paths p;
  app.add_option("--specs", p.specs, "Directory of spec files")->check(CLI::ExistingDirectory);

  auto* catalog = app.add_subcommand("catalog", "Assemble every kernel for every target the toolkit knows");
  catalog->add_option("--out", p.catalog, "Catalog directory");
  catalog->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  catalog->add_option("--ptxas", p.ptxas, "ptxas to use (default: $PTXCTS_PTXAS, else the build's toolkit)");
  catalog->add_option("-j,--jobs", p.jobs, "Assemblies in parallel")->check(CLI::Range(1, 256));
  catalog
      ->add_option("--targets", p.targets,
                   "Targets to assemble for: all (every target ptxas knows), native (those whose code loads on "
                   "this machine's GPUs), or a list such as sm_90,sm_100a")
      ->capture_default_str();
  catalog->add_option("--runner", p.runner, "The device runner program (asked which GPUs there are, for native)");
  bool no_sass = false;
  catalog->add_flag("--no-sass", no_sass, "Do not disassemble the cubins (the manifest then has no SASS)");

  std::vector<std::string> families;
  bool no_assemble = false, require_gpu = false, resume = false, quiet = false, verbose = false;
  unsigned batch = 256;
  std::string run_toolchain = "cubin";
  RunFlags naive;  // what is not a local of main: --cases, --expectations, and (hidden) the naive ways
  auto* run = app.add_subcommand("run", "Run the suite on every GPU (or, with none, the toolkit side)");
  run->add_option("--catalog", p.catalog, "Catalog directory");
  run->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  run->add_option("--reports", p.reports, "Where reports are written");
  run->add_option("--family", families, "Run only these families (reports are then not written)");
  run->add_option("--cases", naive.cases,
                  "Run only these cases: KERNEL/CASE names or globs, or @FILE, a case list (`ptxcts list --cases`); "
                  "reports are then not written");
  run->add_option("--expectations", naive.expectations,
                  "Expectations files or folders: outcomes known to differ on a GPU and driver (default: the specs' "
                  "expectations/)");
  run->add_option("--runner", p.runner, "The device runner program");
  run->add_option("--ptxas", p.ptxas, "ptxas to use");
  std::string run_toolkit, toolkit_cache = default_toolkit_cache().string();
  run->add_option("--toolkit", run_toolkit,
                  "Assemble the catalog with this toolkit (a CUDA release such as 12.4, a ptxas version or path; "
                  "ptxcts toolkits lists them), in CATALOG-cuda<release> unless --catalog says where; the reports "
                  "name the toolkit");
  run->add_option("--toolkit-cache", toolkit_cache, "Where fetched toolkits are (ptxcts toolkits fetch)");
  run->add_flag("--no-assemble", no_assemble, "Use the catalog as it is (no toolkit needed)");
  run->add_flag("--no-sass", no_sass, "Do not disassemble the catalog's cubins");
  run->add_flag("--resume", resume, "Go on from the journal a run that was cut short left in the reports directory");
  run->add_flag("--require-gpu", require_gpu,
                "With no GPU, skip (exit 77, for CTest) instead of running the toolkit side");
  run->add_option("-j,--jobs", p.jobs, "Assemblies in parallel")->check(CLI::Range(1, 256));
  auto* quiet_flag = run->add_flag("-q,--quiet", quiet, "Print less: the failures, where the reports went and the verdict");
  run->add_flag("-v,--verbose", verbose, "Also print a line per kernel")->excludes(quiet_flag);
  run->add_option("--batch", batch, "Launches per batch (one copy in, one copy out, one synchronize)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  run->add_option("--toolchain", run_toolchain,
                  "What the GPU runs: cubin (the catalog's cubins, made by ptxas) or jit (the kernels' PTX, compiled "
                  "by the driver's own JIT; the reports' names end in -jit)")
      ->check(CLI::IsMember({"cubin", "jit"}))
      ->capture_default_str();
  run->add_flag("--no-early-runner", naive.no_early_runner)->group("");
  run->add_flag("--no-manifest-index", naive.no_manifest_index)->group("");
  run->add_flag("--no-stream", naive.no_stream)->group("");
  run->add_flag("--runners-see-all-gpus", naive.runners_see_all_gpus)->group("");
  run->add_option("--standby-depth", naive.standby_depth)->check(CLI::Range(1, 8))->group("");
  bool faults_on_every_gpu = false;
  run->add_flag("--faults-on-every-gpu", faults_on_every_gpu,
                "Run the fault cases on every GPU (by default GPUs of one model and driver share them, each case "
                "run once, and every report names the GPU that ran it)");
  // The build's choice (PTXCTS_CATALOG_TARGETS), so that a run keeps the build's catalog as it is.
  std::string run_targets = home().release() ? "native" : PTXCTS_CATALOG_TARGETS;
  run->add_option("--targets", run_targets,
                  "Targets the catalog is brought up to date for (unless --no-assemble): native, all, or a list")
      ->capture_default_str();

  auto* audit = app.add_subcommand("audit",
                                   "Judge every statement of the documents that ptxas can judge (the whole grammar, "
                                   "its negative space, the examples, the requirements), for every target");
  audit->add_option("--catalog", p.catalog, "Catalog directory (the audit's probe verdicts are cached in its probes/)");
  audit->add_option("--reports", p.reports, "Where the audit report is written");
  audit->add_option("--ptxas", p.ptxas, "ptxas to use");
  audit->add_option("-j,--jobs", p.jobs, "ptxas processes in parallel")->check(CLI::Range(1, 256));
  std::vector<std::string> audit_toolkits, toolkit_ptxas;
  audit->add_option("--toolkit", audit_toolkits,
                    "Audit these toolkits, each a CUDA release (12.4), a ptxas version or a ptxas path, or all (every "
                    "toolkit found); with two or more, toolkits.{json,md} sets them side by side");
  audit->add_option("--toolkit-cache", toolkit_cache, "Where fetched toolkits are (ptxcts toolkits fetch)");
  audit->add_option("--also-ptxas", toolkit_ptxas, "Another ptxas to count among the toolkits found");
  bool audit_rewrite = false;
  audit->add_flag("--rewrite", audit_rewrite,
                  "With --toolkit: write every report again, even those whose specs, ptxas and suite have not changed "
                  "since they were written");

  bool refetch = false;
  std::vector<std::string> fetch_versions;
  auto* toolkits = app.add_subcommand("toolkits",
                                      "List the toolkits (ptxas) found: --ptxas, $PTXCTS_TOOLKITS, "
                                      "/usr/local/cuda*, PATH and the cache of fetched ones");
  toolkits->add_option("--ptxas", toolkit_ptxas, "Another ptxas to list (repeatable)");
  toolkits->add_option("--cache", toolkit_cache, "The cache of fetched toolkits");
  auto* fetch = toolkits->add_subcommand(
      "fetch",
      "Fetch toolkits' ptxas from PyPI with pip (pip download --no-deps) into the cache; exit 77 if the "
      "package registry cannot be reached");
  fetch->add_option("versions", fetch_versions, "CUDA versions, e.g. 11.8 12.4 12.9 13.5")->required();
  fetch->add_option("--cache", toolkit_cache, "The cache of fetched toolkits");
  fetch->add_flag("--refetch", refetch, "Fetch again what the cache has");
  std::vector<std::string> fetch_tools{"ptxas"};
  fetch
      ->add_option("--tool", fetch_tools,
                   "What to fetch of each release (repeatable): ptxas, cuobjdump, nvdisasm (the disassemblers, which "
                   "PyPI carries from CUDA 13.2 on)")
      ->check(CLI::IsMember(kFetchableTools))
      ->capture_default_str();

  bool sass_no_assemble = false;
  std::string sass_toolkit, sass_targets = "all";
  auto* sass = app.add_subcommand("sass",
                                  "What the code becomes: disassemble the catalog (a toolkit's) and write "
                                  "sass-cuda<release>.{json,md}, a table form x target");
  sass->add_option("--catalog", p.catalog, "Catalog directory");
  sass->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  sass->add_option("--reports", p.reports, "Where the SASS report is written");
  sass->add_option("--ptxas", p.ptxas, "ptxas to use");
  sass->add_option("--toolkit", sass_toolkit,
                   "The toolkit whose catalog it is (a CUDA release, a ptxas version or path), in "
                   "CATALOG-cuda<release> unless --catalog says where");
  sass->add_option("--toolkit-cache", toolkit_cache, "Where fetched toolkits (and their disassemblers) are");
  sass->add_option("--targets", sass_targets, "Targets the catalog is brought up to date for: all, native, or a list")
      ->capture_default_str();
  sass->add_option("-j,--jobs", p.jobs, "Assemblies and disassemblies in parallel")->check(CLI::Range(1, 256));
  sass->add_flag("--no-assemble", sass_no_assemble,
                 "Use the catalog as it is (disassembled if its manifest has no SASS)");

  std::string diff_before, diff_after;
  auto* diff =
      app.add_subcommand("diff", "Compare two run reports (JSON); exit 1 if anything got worse or went missing");
  diff->add_option("before", diff_before, "The earlier report")->required();
  diff->add_option("after", diff_after, "The later report")->required();
  std::string diff_html_out;
  diff->add_option("--html", diff_html_out, "Also write the diff as a page, changed layouts drawn");

  std::vector<std::string> html_reports;
  std::string html_out;
  auto* html = app.add_subcommand(
      "html", "Write the page (HTML) of run or audit reports or the toolkit matrix (JSON), beside each");
  html->add_option("reports", html_reports, "Report JSON files")->required();
  html->add_option("--out", html_out, "Where the page goes (one report only)");

  std::vector<std::string> merge_reports_in;
  std::string merge_out = "fleet";
  auto* merge =
      app.add_subcommand("merge",
                         "Combine run reports of many machines into one page and one JSON; audit reports of several "
                         "toolkits into their toolkit matrix");
  merge->add_option("reports", merge_reports_in,
                    "Run (or audit) report JSON files, a column each, or folders to find run reports in (a fleet's "
                    "results directory)")
      ->required();
  merge->add_option("--out", merge_out, "Writes OUT.json and OUT.html (and OUT.md for audits)");
  int merge_expect_tasks = 0;
  merge
      ->add_option("--expect-tasks", merge_expect_tasks,
                   "A Slurm array of N tasks ran the suite (harness/slurm/): each task 0..N-1 without a report is "
                   "listed as missing, with what its task.status says")
      ->check(CLI::Range(1, 1000000));

  // Hidden: the install step of the release package writes share/ptxcts/release.json with it.
  std::string release_prefix;
  auto* release_manifest = app.add_subcommand("release-manifest", "")->group("");
  release_manifest->add_option("prefix", release_prefix, "The installed package's root")->required();

  auto* list = app.add_subcommand("list", "List kernels, cases and claims");
  bool list_cases = false;
  list->add_flag("--cases", list_cases,
                 "Write every case of this release, KERNEL/CASE, one a line: the case list (mustpass) a run of it "
                 "must cover; `ptxcts run --cases @FILE` takes it");
  auto* check = app.add_subcommand("check-specs", "Validate the specs and say so");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; its codes differ by kind of error (105, 106, 109, ...): one will do.
    return app.exit(e) == 0 ? 0 : kExitTrouble;  // 0: --help
  }
  p.toolkit_cache = toolkit_cache;
  p.sass = !no_sass;
  std::shared_future<void> release_check;  // valid in a release: throws ReleaseError if the package is not whole
  try {
    if (*release_manifest) {
      const std::size_t n = write_release_manifest(release_prefix, PTXCTS_VERSION, PTXCTS_SUITE_COMMIT);
      fmt::print("{}/share/ptxcts/release.json: {} files\n", release_prefix, n);
      return 0;
    }
    // A release package is checked whole before anything of it is used (commands/release_manifest):
    // beside a run's start (its early runner, the specs), awaited before the first launch; before
    // anything else for the other commands.
    if (home().release())
      release_check = std::async(std::launch::async, [] {
                        check_release(home().prefix, PTXCTS_VERSION, PTXCTS_SUITE_COMMIT);
                      }).share();
    if (release_check.valid() && !*run) release_check.get();
    if (*sass) {
      if (!sass_toolkit.empty()) {
        const Toolchain tc = select_toolkit(find_toolkits(default_toolkit_search({}, toolkit_cache)), sass_toolkit);
        p.ptxas = tc.ptxas;
        if (sass->count("--catalog") == 0) p.catalog += "-cuda" + tc.release;
      }
      p.targets = sass_targets;
      return cmd_sass(p, sass_no_assemble);
    }
    if (*catalog) {
      // A release's own catalog is read-only and complete: another toolkit's goes to the user's cache.
      if (home().release() && catalog->count("--out") == 0) p.catalog = user_catalog(find_toolchain(p).release);
      Suite suite = build_suite(load_spec_dir(p.specs));
      const bool errors = !make_catalog(suite, p).errors().empty();
      // The audit's probes too (parse-only, cheap), so that a copied catalog audits warm.
      ToolkitAudit a = audit_toolkit(suite, find_toolchain(p), p);
      return errors || !a.audit.errors.empty() ? kExitPtxasFailed : 0;
    }
    if (*run && !run_toolkit.empty()) {  // another toolkit's catalog, beside the build's own
      const Toolchain tc = select_toolkit(find_toolkits(default_toolkit_search({}, toolkit_cache)), run_toolkit);
      p.ptxas = tc.ptxas;
      if (run->count("--catalog") == 0)
        p.catalog = home().release() ? user_catalog(tc.release) : p.catalog + "-cuda" + tc.release;
      fmt::print("run: toolkit CUDA {} (ptxas {}, {}), catalog {}\n", tc.release, tc.version, tc.ptxas, p.catalog);
    }
    if (*run && home().release() && run_toolkit.empty() && run->count("--ptxas") == 0 && !no_assemble) {
      // A release runs the catalog it ships as it is: no ptxas needed. Naming a toolkit (--toolkit,
      // --ptxas) assembles that toolkit's catalog into the user's cache instead.
      no_assemble = true;
    } else if (*run && home().release() && run_toolkit.empty() && run->count("--catalog") == 0 && !no_assemble) {
      p.catalog = user_catalog(find_toolchain(p).release);
    }
    if (*run) {
      p.targets = run_targets;
      return cmd_run(p, families, release_check,
                     {.no_assemble = no_assemble,
                      .require_gpu = require_gpu,
                      .resume = resume,
                      .quiet = quiet,
                      .verbose = verbose,
                      .batch = batch,
                      .toolchain = run_toolchain == "jit" ? RunToolchain::Jit : RunToolchain::Cubin,
                      .no_early_runner = naive.no_early_runner,
                      .no_manifest_index = naive.no_manifest_index,
                      .no_stream = naive.no_stream,
                      .faults_on_every_gpu = faults_on_every_gpu,
                      .runners_see_all_gpus = naive.runners_see_all_gpus,
                      .standby_depth = naive.standby_depth,
                      .cases = naive.cases,
                      .expectations = naive.expectations});
    }
    if (*list) return list_cases ? cmd_list_cases(p) : cmd_list(p);
    if (*audit && !audit_toolkits.empty())
      return cmd_audit_toolkits(p, audit_toolkits, toolkit_ptxas, toolkit_cache, audit_rewrite);
    if (*fetch) return cmd_toolkits_fetch(fetch_versions, toolkit_cache, refetch, fetch_tools);
    if (*toolkits) return cmd_toolkits(toolkit_ptxas, toolkit_cache);
    if (*diff && holds_audit_report(diff_before) && holds_audit_report(diff_after))
      return cmd_diff_audits(diff_before, diff_after);
    if (*audit) return cmd_audit(p);
    if (*diff) return cmd_diff(diff_before, diff_after, diff_html_out);
    if (*html) {
      if (!html_out.empty() && html_reports.size() > 1) throw std::invalid_argument("html: --out takes one report");
      SpecSet specs = load_spec_dir(p.specs);  // for the layouts the specs give
      for (auto const& r : html_reports) fmt::print("{}\n", write_page_for(r, html_out, &specs).string());
      return 0;
    }
    if (*merge && std::all_of(merge_reports_in.begin(), merge_reports_in.end(), holds_audit_report))
      return cmd_merge_audits(merge_reports_in, merge_out);
    if (*merge) return cmd_merge_runs(merge_reports_in, merge_expect_tasks, merge_out);
    if (*check) {
      SpecSet s = load_spec_dir(p.specs);
      fmt::print("{}: {} variants, {} claims, {} cases: valid\n", p.specs, s.variants.size(), s.claims.size(),
                 s.cases.cases.size());
      return 0;
    }
  } catch (const std::exception& e) {  // SpecError, ReportError, a harness error
    // A damaged release explains any other failure that follows from it: said instead, once.
    if (release_check.valid()) try {
        release_check.get();
      } catch (const ReleaseError& r) {
        fmt::print(stderr, "error: {}\n", r.what());
        return kExitTrouble;
      }
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitTrouble;
  } catch (...) {  // nothing ends in std::terminate
    fmt::print(stderr, "error: an unexpected failure (not a std::exception)\n");
    return kExitTrouble;
  }
  return 0;
}

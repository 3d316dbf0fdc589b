#include "commands/run_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <future>
#include <memory>

#include "assemble/catalog_index.hpp"
#include "assemble/toolkits.hpp"
#include "commands/case_arguments.hpp"
#include "commands/catalog_command.hpp"
#include "commands/run_gpus.hpp"
#include "commands/toolkit_side.hpp"
#include "kinds/kinds.hpp"
#include "run/case_selection.hpp"
#include "run/cubin_selection.hpp"
#include "run/runner.hpp"
#include "spec/spec_loader.hpp"

namespace fs = std::filesystem;

namespace ptxcts {

namespace {

struct RunCommandOptions {
  RunFlags flags;
  bool no_sass = false;
  std::string toolkit;            // --toolkit: another toolkit's catalog
  std::string targets;            // --targets: what the catalog is brought up to date for
  std::string toolchain = "cubin";
};

// CLI::Range lets "nan" through (every comparison with NaN is false): a limit that never passes.
// `option` names a hidden option in the message (CLI11 names a shown one itself): "" for a shown one.
CLI::Validator seconds(const std::string& option) {
  return CLI::Validator(
      [option](std::string& s) {
        return std::isnan(std::strtod(s.c_str(), nullptr))
                   ? (option.empty() ? "" : option + ": ") + s + " is not a number of seconds"
                   : std::string();
      },
      "SECONDS");
}

void add_run_options(CLI::App* run, Paths& p, RunCommandOptions& o) {
  RunFlags& f = o.flags;
  run->add_option("--catalog", p.catalog, "Catalog directory");
  run->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  run->add_option("--reports", p.reports, "Where reports are written");
  add_history_options(run, f.history);
  run->add_option("--family", f.families, "Run only these families (reports are then not written)");
  run->add_option("--cases", f.cases,
                  "Run only these cases: KERNEL/CASE names or globs, or @FILE, a case list (`ptxcts list --cases`); "
                  "reports are then not written");
  run->add_option("--expectations", f.expectations,
                  "Expectations files or folders: outcomes known to differ on a GPU and driver (default: none; "
                  "only those named are read)");
  run->add_option("--runner", p.runner, "The device runner program")->check(CLI::ExistingFile);
  run->add_option("--ptxas", p.ptxas, "ptxas to use");
  run->add_option("--toolkit", o.toolkit,
                  "Assemble the catalog with this toolkit (a CUDA release such as 12.4, a ptxas version or path; "
                  "ptxcts toolkits lists them), in CATALOG-cuda<release> unless --catalog says where; the reports "
                  "name the toolkit");
  run->add_option("--toolkit-cache", p.toolkit_cache, "Where fetched toolkits are (ptxcts toolkits fetch)");
  run->add_flag("--no-assemble", f.no_assemble, "Use the catalog as it is (no toolkit needed)");
  run->add_flag("--no-sass", o.no_sass, "Do not disassemble the catalog's cubins");
  run->add_flag("--resume", f.resume, "Go on from the journal a run that was cut short left in the reports directory");
  run->add_flag("--require-gpu", f.require_gpu,
                "With no GPU, skip (exit 77, for CTest) instead of running the toolkit side");
  run->add_option("-j,--jobs", p.jobs, "Assemblies in parallel")->check(CLI::Range(1, 256));
  auto* quiet = run->add_flag("-q,--quiet", f.quiet, "Print less: the failures, where the reports went and the verdict");
  run->add_flag("-v,--verbose", f.verbose, "Also print a line per kernel")->excludes(quiet);
  run->add_option("--batch", f.batch, "Launches per batch (one copy in, one copy out, one synchronize)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  run->add_option("--toolchain", o.toolchain,
                  "What the GPU runs: cubin (the catalog's cubins, made by ptxas) or jit (the kernels' PTX, compiled "
                  "by the driver's own JIT; the reports' names end in -jit)")
      ->check(CLI::IsMember({"cubin", "jit"}))
      ->capture_default_str();
  run->add_flag("--faults-on-every-gpu", f.faults_on_every_gpu,
                "Run the fault cases on every GPU (by default GPUs of one model and driver share them, each case "
                "run once, and every report names the GPU that ran it)");
  run->add_option("--undefined-timeout", f.undefined_timeout,
                  "Seconds a launch of a case the documents leave undefined may take from its start (its module "
                  "loaded) before it is observed to hang (at most the 30 s limit on a launch)")
      ->check(seconds(""))
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  run->add_option("--targets", o.targets,
                  "Targets the catalog is brought up to date for (unless --no-assemble): native, all, or a list")
      ->capture_default_str();
}

// The naive ways, kept for comparison: hidden.
void add_hidden_run_options(CLI::App* run, RunFlags& f) {
  run->add_flag("--no-early-runner", f.no_early_runner)->group("");
  run->add_flag("--no-manifest-index", f.no_manifest_index)->group("");
  run->add_flag("--no-stream", f.no_stream)->group("");
  run->add_flag("--runners-see-all-gpus", f.runners_see_all_gpus)->group("");
  run->add_option("--standby-depth", f.standby_depth)->check(CLI::Range(1, 8))->group("");
  run->add_option("--case-timeout", f.case_timeout)
      ->check(seconds("--case-timeout"))
      ->check(CLI::Range(0.1, 3600.0))
      ->group("");
  run->add_option("--batch-limit", f.batch_limit)
      ->check(seconds("--batch-limit"))
      ->check(CLI::Range(0.1, 86400.0))
      ->group("");
}

// Which catalog the run uses: another toolkit's (--toolkit) beside the build's own; a release's own,
// as it is, unless a toolkit is named (then assembled into the user's cache).
void choose_catalog(Paths& p, RunCommandOptions& o, const CLI::App* cli) {
  if (!o.toolkit.empty()) {
    const Toolchain tc = select_toolkit(find_toolkits(default_toolkit_search({}, p.toolkit_cache, p.specs)), o.toolkit);
    p.ptxas = tc.ptxas;
    if (cli->count("--catalog") == 0)
      p.catalog = home().release() ? user_catalog(tc.release) : p.catalog + "-cuda" + tc.release;
    fmt::print("run: toolkit CUDA {} (ptxas {}, {}), catalog {}\n", tc.release, tc.version, tc.ptxas, p.catalog);
  }
  const bool named = !o.toolkit.empty() || cli->count("--ptxas") != 0;
  if (home().release() && !named && !o.flags.no_assemble) o.flags.no_assemble = true;
  else if (home().release() && o.toolkit.empty() && cli->count("--catalog") == 0 && !o.flags.no_assemble)
    p.catalog = user_catalog(find_toolchain(p).release);
  p.targets = o.targets;
}

// The expectations files a run applies: those named (files or folders), and only those: never a file
// found in a folder of the suite's own (a stray file in an installed package's folder would turn a
// wrong GPU's run into exit 0).
std::vector<ExpectationFile> load_expectations(const std::vector<std::string>& named) {
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

// A selection that selects nothing is a mistake, not a passing run of nothing: an exit status, or 0.
int check_selection(const Suite& suite, const RunFlags& f, const std::vector<std::string>& globs) {
  for (auto const& fam : f.families)
    if (std::find(suite.specs.families.begin(), suite.specs.families.end(), fam) == suite.specs.families.end()) {
      std::vector<std::string> known = suite.specs.families;
      std::sort(known.begin(), known.end());
      return usage_error(fmt::format("unknown family '{}'; the specs define {}", fam, fmt::join(known, ", ")));
    }
  if (auto none = globs_matching_nothing(suite, globs); !none.empty())
    return usage_error(fmt::format("--cases {}: no case of the suite is named so; expected KERNEL/CASE names as "
                                   "`ptxcts list --cases` lists them, e.g. {}",
                                   fmt::join(none, ", "), all_case_ids(suite).front()));
  // Each names some case, but together they may name none: a selection of nothing is refused too.
  if (!f.families.empty() && !globs.empty() && std::none_of(suite.kernels.begin(), suite.kernels.end(), [&](auto& k) {
        if (std::find(f.families.begin(), f.families.end(), k.family) == f.families.end()) return false;
        for (auto const& c : suite.specs.cases.cases)
          if (kind_of(k).takes(k, c) && selected_case(globs, case_id(k.name, c.name))) return true;
        return false;
      }))
    return usage_error(fmt::format("--family {} and --cases {} have no case in common: the selection names no case; "
                                   "expected cases of those families (`ptxcts list --cases` lists them)",
                                   fmt::join(f.families, ","), fmt::join(f.cases, " ")));
  return 0;
}

// Where a run's first second goes (the report's timing has the first launch).
void print_startup(double specs_at, double catalog_at, const RunFlags& f) {
  fmt::print("startup: specs loaded at {:.3f} s, catalog at {:.3f} s{}, GPUs known at {:.3f} s\n", specs_at,
             catalog_at,
             !f.no_assemble         ? ""
             : f.no_manifest_index ? " (manifest parsed)"
                                   : " (manifest index)",
             seconds_since(process_start()));
}

// The GPUs this run uses, of those found: under `ctest --resource-spec-file`, a test given a GPU
// (RESOURCE_GROUPS gpus:1) runs on that GPU only; and of the catalog only what they can load is kept
// (and searched: an all-targets catalog has ~30,000 assemblies).
std::vector<DeviceInfo> gpus_of_this_run(DeviceQuery& q, Catalog& cat, const Suite& suite) {
  if (std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"))
    std::erase_if(q.devices, [id = first_gpu()](const DeviceInfo& d) { return d.ordinal != id; });
  std::vector<std::pair<int, int>> capabilities;
  for (auto const& d : q.devices) capabilities.emplace_back(d.major, d.minor);
  keep_loadable(cat, suite.specs.targets, capabilities);
  return q.devices;
}

int run_suite(const CommandContext& ctx, const RunFlags& f) {
  const Paths& p = ctx.paths;
  // Only a run of every case keeps a journal (a selection writes no reports): nothing to go on from.
  if (f.resume && (!f.families.empty() || !f.cases.empty()))
    return usage_error(
        "--resume cannot be combined with --family or --cases: only a run of every case keeps a journal to "
        "resume; expected --resume alone, or a selection alone (a fresh run of those cases)");
  std::vector<std::string> globs;
  try {
    globs = case_globs(f.cases);
  } catch (const CaseListError& e) { return usage_error(e.what()); }
  const std::vector<ExpectationFile> expectations = load_expectations(f.expectations);
  // The fault line's first runner makes its context, and the GPUs are asked for (each starts the
  // driver: a few hundred ms), while the specs and the catalog load (run/early_runner).
  std::unique_ptr<EarlyRunner> early;
  if (!f.no_early_runner)
    early = std::make_unique<EarlyRunner>(p.runner, first_gpu(), fs::path(), f.case_timeout, f.toolchain);
  auto query = std::async(std::launch::async, [&] { return query_devices(p.runner); });
  std::future<Catalog> catalog_as_is;  // a catalog used as it is needs no specs: it loads beside them
  if (f.no_assemble)
    catalog_as_is = std::async(std::launch::async, [&] { return load_catalog_indexed(p.catalog, !f.no_manifest_index); });
  Suite suite = build_suite(load_spec_dir(p.specs));
  const double specs_at = seconds_since(process_start());
  if (int bad = check_selection(suite, f, globs)) return bad;
  Catalog cat = f.no_assemble ? catalog_as_is.get() : make_catalog(suite, p);
  if (ctx.release_check.valid()) ctx.release_check.get();
  const CatalogOrigin origin = this_suite(p);
  if (f.no_assemble) check_catalog_origin(cat, origin, p);
  const double catalog_at = seconds_since(process_start());
  DeviceQuery q = query.get();
  if (f.verbose) print_startup(specs_at, catalog_at, f);
  if (q.devices.empty() && f.require_gpu) {
    fmt::print("SKIPPED: {}; the conformance cases need a GPU\n", q.reason);
    return kExitSkipped;
  }
  if (q.devices.empty()) {
    fmt::print("No GPU: {}.\nRunning the toolkit side only: the catalog, and the claims it can judge.\n", q.reason);
    print_toolkit_side(suite, cat, p, f.verbosity(), {.families = f.families, .globs = globs, .reason = q.reason});
    return cat.errors().empty() ? 0 : kExitPtxasFailed;
  }
  const LoadedRun run{.suite = suite,
                      .catalog = cat,
                      .devices = gpus_of_this_run(q, cat, suite),
                      .globs = globs,
                      .selection = !f.families.empty() || !f.cases.empty(),  // a report speaks for every case
                      .expectations = expectations,
                      .early = early.get(),
                      .origin = origin};
  return run_on_gpus(run, p, f);
}

}  // namespace

Command add_run_command(CLI::App& app, Paths& p) {
  auto o = std::make_shared<RunCommandOptions>();
  // The build's choice (PTXCTS_CATALOG_TARGETS), so that a run keeps the build's catalog as it is.
  o->targets = home().release() ? "native" : program().catalog_targets;
  auto* cli = app.add_subcommand("run", "Run the suite on every GPU (or, with none, the toolkit side)");
  add_run_options(cli, p, *o);
  add_hidden_run_options(cli, o->flags);
  return {.cli = cli,
          .run =
              [o, cli](CommandContext& ctx) {
                ctx.paths.sass = !o->no_sass;
                choose_catalog(ctx.paths, *o, cli);
                o->flags.toolchain = o->toolchain == "jit" ? RunToolchain::Jit : RunToolchain::Cubin;
                return run_suite(ctx, o->flags);
              },
          .checks_release_itself = true};
}

}  // namespace ptxcts

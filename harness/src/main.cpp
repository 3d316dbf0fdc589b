// ptxcts: the command line. A table of the subcommands (commands/, one file per command or group:
// catalog, run, audit, sass, toolkits, diff/html/merge, list/check-specs); each registers its own
// options, and the one the command line names runs. What a release must be is checked here first.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <future>
#include <vector>

#include "commands/audit_command.hpp"
#include "commands/catalog_command.hpp"
#include "commands/command.hpp"
#include "commands/history_command.hpp"
#include "commands/release_manifest.hpp"
#include "commands/report_commands.hpp"
#include "commands/run_command.hpp"
#include "commands/sass_command.hpp"
#include "commands/spec_commands.hpp"
#include "commands/toolkits_command.hpp"
#include "util/subprocess.hpp"

#include "suite_commit.hpp"  // generated at build time
#ifndef PTXCTS_CATALOG_TARGETS
#define PTXCTS_CATALOG_TARGETS "native"
#endif
#ifndef PTXCTS_SUITE_COMMIT
#define PTXCTS_SUITE_COMMIT "unknown"
#endif

using namespace ptxcts;

namespace {

// What the build knows of this program: its version and commit, and where its files lie relative to
// it (no path of the building machine is compiled in: commands/program_home).
ProgramFacts this_program_facts() {
  return {.version = PTXCTS_VERSION,
          .commit = PTXCTS_SUITE_COMMIT,
          .layout = BuildLayout{.source_dir = PTXCTS_REL_SOURCE_DIR,
                                .catalog_dir = PTXCTS_REL_CATALOG_DIR,
                                .reports_dir = PTXCTS_REL_REPORTS_DIR,  // the build's, not the tracked reports/
                                .device_runner = PTXCTS_REL_DEVICE_RUNNER},
          .catalog_targets = PTXCTS_CATALOG_TARGETS};
}

// --version: this program, and in a release what its catalog is (or why the release is not whole),
// and whether its documentation was left out at install (said here alone, not by every command).
std::string version_text() {
  std::string v = fmt::format("ptxcts {} (commit {})", program().version, program().commit);
  if (!home().release()) return v;
  try {
    const ReleaseManifest m = check_release(home().prefix, program().version, program().commit);
    const std::string docs = describe_release_documentation(m);
    return v + "\n" + describe_release_catalog(m) + (docs.empty() ? "" : "\n" + docs);
  } catch (const ReleaseError& e) { return v + "\nerror: " + e.what(); }
}

constexpr const char* kExitStatusFooter =
    "Exit status: 0 all well; 1 a case failed, errored or crashed (run), an unexplained contradiction (audit), a "
    "regression "
    "(diff, history changes, history regressions); 2 an error (bad specs, unreadable files); 3 ptxas failed on some assembly, so it has no verdict "
    "(catalog, audit, "
    "run without a GPU; the next build tries it again); 77 skipped (run --require-gpu without a GPU).";

// Runs the command the command line named. A release package is checked whole before anything of it
// is used (commands/release_manifest): beside a run's start (its early runner, the specs), awaited
// before the first launch; before anything else for the other commands.
int run_command(const Command& c, CommandContext& ctx) {
  if (!c.before_release_check && home().release())
    ctx.release_check = std::async(std::launch::async, [] {
                          check_release(home().prefix, program().version, program().commit);
                        }).share();
  if (ctx.release_check.valid() && !c.checks_release_itself) ctx.release_check.get();
  return c.run(ctx);
}

// A failure said once: a damaged release explains any other failure that follows from it.
int trouble(const CommandContext& ctx, const char* what) {
  if (ctx.release_check.valid()) try {
      ctx.release_check.get();
    } catch (const ReleaseError& r) {
      fmt::print(stderr, "error: {}\n", r.what());
      return kExitTrouble;
    }
  fmt::print(stderr, "error: {}\n", what);
  return kExitTrouble;
}

// An empty value (an unset shell variable: `--ptxas "$PTXAS"`, `--cases "$FAILED"`) is refused for
// every option and argument that takes one, never read as "none given" and so the default or everything.
void refuse_empty_values(CLI::App& app) {
  const CLI::Validator not_empty(
      [](std::string& s) {
        return s.empty() ? std::string("an empty value; expected one (an unset shell variable?)") : std::string();
      },
      "");  // no word in --help: every value is so
  for (CLI::Option* o : app.get_options())
    if (o->get_type_size() != 0) o->transform(not_empty);  // first: before any check of what the value names
  for (CLI::App* sub : app.get_subcommands({})) refuse_empty_values(*sub);
}

}  // namespace

int main(int argc, char** argv) {
  end_children_with_this_process();  // Ctrl-C or a kill ends the ptxas and device runners it started
  init_program(this_program_facts());
  CLI::App app{"ptxcts: conformance tests for PTX warp-level matrix data-movement instructions"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text);
  app.option_defaults()->always_capture_default();
  app.footer(kExitStatusFooter);
  CommandContext ctx;
  app.add_option("--specs", ctx.paths.specs, "Directory of spec files")->check(CLI::ExistingDirectory);
  // A command with options of Paths of its own (--ptxas, --catalog, --cache, ...) binds them here;
  // every command reads ctx.paths when it runs.
  const std::vector<Command> commands = {
      add_catalog_command(app, ctx.paths), add_run_command(app, ctx.paths),   add_audit_command(app, ctx.paths),
      add_toolkits_command(app, ctx.paths), add_sass_command(app, ctx.paths), add_diff_command(app),
      add_html_command(app),               add_merge_command(app),            add_release_manifest_command(app),
      add_list_command(app),               add_check_specs_command(app),      add_history_command(app)};
  refuse_empty_values(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; its codes differ by kind of error (105, 106, 109, ...): one will do.
    return app.exit(e) == 0 ? 0 : kExitTrouble;  // 0: --help
  }
  try {
    for (auto const& c : commands)
      if (*c.cli) return run_command(c, ctx);
  } catch (const std::exception& e) {  // SpecError, ReportError, a harness error
    return trouble(ctx, e.what());
  } catch (...) {  // nothing ends in std::terminate
    return trouble(ctx, "an unexpected failure (not a std::exception)");
  }
  return 0;
}

#include "commands/spec_commands.hpp"

#include <fmt/format.h>

#include <memory>

#include "commands/release_manifest.hpp"
#include "kinds/kinds.hpp"
#include "run/case_selection.hpp"
#include "spec/spec_loader.hpp"

namespace ptxcts {

namespace {

// A kernel a line: its family, its cases as `--cases` takes them ("KERNEL/*", results' case_id), and
// the instructions it runs with what each requires.
int list_suite(const Paths& p) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  fmt::print("{:<10} {}  {}\n", "# family", "KERNEL/* (its cases, as --cases takes them)", "instructions [requirements]");
  for (auto const& k : suite.kernels) {
    std::string steps;
    for (auto const* s : k.steps)
      steps += (steps.empty() ? "" : " ; ") + s->mnemonic() + " [" + s->requirement_text() + "]";
    fmt::print("{:<10} {}  {}\n", k.family, case_id(k.name, "*"), steps);
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
int list_cases(const Paths& p) {
  Suite suite = build_suite(load_spec_dir(p.specs));
  const std::vector<std::string> ids = all_case_ids(suite);
  fmt::print("# ptxcts {} (commit {}): the {} cases of this release, KERNEL/CASE\n", program().version,
             program().commit, ids.size());
  for (auto const& id : ids) fmt::print("{}\n", id);
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto cases = std::make_shared<bool>(false);
  auto* cli = app.add_subcommand("list", "List kernels, cases and claims");
  cli->add_flag("--cases", *cases,
                "Write every case of this release, KERNEL/CASE, one a line: the case list (mustpass) a run of it "
                "must cover; `ptxcts run --cases @FILE` takes it");
  return {.cli = cli, .run = [cases](CommandContext& ctx) { return *cases ? list_cases(ctx.paths) : list_suite(ctx.paths); }};
}

Command add_check_specs_command(CLI::App& app) {
  auto* cli = app.add_subcommand("check-specs", "Validate the specs and say so");
  return {.cli = cli, .run = [](CommandContext& ctx) {
            SpecSet s = load_spec_dir(ctx.paths.specs);
            fmt::print("{}: {} variants, {} claims, {} cases: valid\n", ctx.paths.specs, s.variants.size(),
                       s.claims.size(), s.cases.cases.size());
            return 0;
          }};
}

Command add_release_manifest_command(CLI::App& app) {
  auto prefix = std::make_shared<std::string>();
  auto* cli = app.add_subcommand("release-manifest", "")->group("");  // hidden: the package's install step
  cli->add_option("prefix", *prefix, "The installed package's root")->required();
  return {.cli = cli,
          .run =
              [prefix](CommandContext&) {
                const std::size_t n = write_release_manifest(*prefix, program().version, program().commit);
                fmt::print("{}/share/ptxcts/release.json: {} files\n", *prefix, n);
                return 0;
              },
          .before_release_check = true};
}

}  // namespace ptxcts

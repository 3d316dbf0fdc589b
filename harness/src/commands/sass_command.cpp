#include "commands/sass_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "assemble/toolkits.hpp"
#include "commands/catalog_command.hpp"
#include "kinds/kinds.hpp"
#include "report/toolkits/sass_report.hpp"
#include "spec/spec_loader.hpp"

namespace ptxcts {

namespace {

struct SassOptions {
  bool no_assemble = false;
  std::string toolkit;
  std::string targets = "all";
};

int write_sass(const Paths& p, bool no_assemble) {
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
  const std::filesystem::path json = write_sass_reports(build_sass_report(cat, suite), report_writer(), p.reports);
  fmt::print("sass: CUDA {}, {} targets -> {} (and .md)\n", cat.cuda_release, cat.targets.size(), json.string());
  return cat.errors().empty() ? 0 : kExitPtxasFailed;
}

}  // namespace

Command add_sass_command(CLI::App& app, Paths& p) {
  auto o = std::make_shared<SassOptions>();
  auto* cli = app.add_subcommand("sass",
                                 "What the code becomes: disassemble the catalog (a toolkit's) and write "
                                 "sass-cuda<release>.{json,md}, a table form x target");
  cli->add_option("--catalog", p.catalog, "Catalog directory");
  cli->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  cli->add_option("--reports", p.reports, "Where the SASS report is written");
  cli->add_option("--ptxas", p.ptxas, "ptxas to use");
  cli->add_option("--toolkit", o->toolkit,
                  "The toolkit whose catalog it is (a CUDA release, a ptxas version or path), in "
                  "CATALOG-cuda<release> unless --catalog says where");
  cli->add_option("--toolkit-cache", p.toolkit_cache, "Where fetched toolkits (and their disassemblers) are");
  cli->add_option("--targets", o->targets, "Targets the catalog is brought up to date for: all, native, or a list")
      ->capture_default_str();
  cli->add_option("-j,--jobs", p.jobs, "Assemblies and disassemblies in parallel")->check(CLI::Range(1, 256));
  cli->add_flag("--no-assemble", o->no_assemble, "Use the catalog as it is (disassembled if its manifest has no SASS)");
  return {.cli = cli, .run = [o, cli](CommandContext& ctx) {
            Paths& p = ctx.paths;
            if (!o->toolkit.empty()) {
              const Toolchain tc =
                  select_toolkit(find_toolkits(default_toolkit_search({}, p.toolkit_cache, p.specs)), o->toolkit);
              p.ptxas = tc.ptxas;
              if (cli->count("--catalog") == 0) p.catalog += "-cuda" + tc.release;
            }
            p.targets = o->targets;
            return write_sass(p, o->no_assemble);
          }};
}

}  // namespace ptxcts

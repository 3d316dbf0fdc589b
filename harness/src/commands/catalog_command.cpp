#include "commands/catalog_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>

#include "assemble/catalog_sass.hpp"
#include "assemble/toolkits.hpp"
#include "commands/run_console.hpp"
#include "commands/toolkit_audit.hpp"
#include "kinds/kinds.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_query.hpp"
#include "spec/spec_loader.hpp"

namespace ptxcts {

namespace {

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
  // A list of nothing is a mistake (a script's empty variable), not a catalog of nothing.
  if (out.empty())
    throw std::invalid_argument(fmt::format("--targets '{}' names no target; expected native, all, or a "
                                            "comma-separated list such as sm_90,sm_100a",
                                            p.targets));
  return out;
}

// The disassembler for the toolkit of `tc`: its own, $PTXCTS_DISASSEMBLER, or another toolkit's.
DisassemblerChoice disassembler_for(const std::string& ptxas, const std::string& release, const Paths& p) {
  std::vector<std::string> others;
  for (auto const& c : toolkit_candidates(default_toolkit_search({}, p.toolkit_cache)))
    if (c.refused.empty()) others.push_back(c.ptxas);  // none from a place another user could write
  const char* env = std::getenv("PTXCTS_DISASSEMBLER");
  return choose_disassembler(ptxas, release, env ? env : "", others);
}

struct CatalogOptions {
  bool no_sass = false;
};

}  // namespace

void check_catalog_origin(const Catalog& c, const CatalogOrigin& want, const Paths& p) {
  // Catalogs that do not say where they come from (made by tests) are taken as they are, except in a
  // release, whose own catalog always says.
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

// As its manifest records it, with the ptxas found here only if it is that very version (to judge
// what the cache lacks). A manifest that does not record it: the ptxas found.
Toolchain catalog_audit_toolchain(const Catalog& c, const Paths& p) {
  if (c.ptxas_targets.empty()) return find_toolchain(p);
  std::string ptxas;
  try {
    if (Toolchain found = find_toolchain(p); found.version == c.ptxas_version) ptxas = found.ptxas;
  } catch (const std::runtime_error&) {}  // none here: the cache alone
  return catalog_toolchain(c, ptxas);
}

void disassemble_catalog(Catalog& c, const Suite& suite, const std::string& ptxas, const Paths& p) {
  const auto t0 = std::chrono::steady_clock::now();
  DisassemblerChoice choice = disassembler_for(ptxas, c.cuda_release, p);
  SassStats st;
  add_sass(c, suite, p.catalog, choice, p.jobs, &st);
  if (::access(p.catalog.c_str(), W_OK) == 0) save_catalog(c, p.catalog);
  const double secs = seconds_since(t0);
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
  fmt::print("{}\n", wrapped(fmt::format("catalog: {} kernels x {} targets (ptxas {}): {} assembled in {} ptxas runs, "
                                         "{} from cache, {} beyond this toolkit's PTX ISA {}, in {:.1f} s -> {}",
                                         suite.kernels.size(), c.targets.size(), tc.version, stats.assembled,
                                         stats.ptxas_runs, stats.cached, stats.not_attempted, c.toolkit_ptx.str(),
                                         seconds_since(t0), p.catalog)));
  if (auto errors = c.errors(); !errors.empty()) {
    fmt::print("catalog: ptxas failed on {} assemblies: no verdict, nothing cached, the next build tries them again:\n",
               errors.size());
    for (auto const& e : errors) fmt::print("  ptxas failed: {}\n", e);
  }
  if (p.sass) disassemble_catalog(c, suite, tc.ptxas, p);
  return c;
}

Command add_catalog_command(CLI::App& app, Paths& p) {
  auto opt = std::make_shared<CatalogOptions>();
  auto* cli = app.add_subcommand("catalog", "Assemble every kernel for every target the toolkit knows");
  cli->add_option("--out", p.catalog, "Catalog directory");
  cli->add_option("--kernels", p.kernels, "Directory of kernel skeletons")->check(CLI::ExistingDirectory);
  cli->add_option("--ptxas", p.ptxas, "ptxas to use (default: $PTXCTS_PTXAS, else the build's toolkit)");
  cli->add_option("-j,--jobs", p.jobs, "Assemblies in parallel")->check(CLI::Range(1, 256));
  cli->add_option("--targets", p.targets,
                  "Targets to assemble for: all (every target ptxas knows), native (those whose code loads on "
                  "this machine's GPUs), or a list such as sm_90,sm_100a")
      ->capture_default_str();
  cli->add_option("--runner", p.runner, "The device runner program (asked which GPUs there are, for native)")
      ->check(CLI::ExistingFile);
  cli->add_flag("--no-sass", opt->no_sass, "Do not disassemble the cubins (the manifest then has no SASS)");
  return {.cli = cli, .run = [opt, cli](CommandContext& ctx) {
            Paths& p = ctx.paths;
            p.sass = !opt->no_sass;
            // A release's own catalog is read-only and complete: another toolkit's goes to the user's cache.
            if (home().release() && cli->count("--out") == 0) p.catalog = user_catalog(find_toolchain(p).release);
            Suite suite = build_suite(load_spec_dir(p.specs));
            const bool errors = !make_catalog(suite, p).errors().empty();
            // The audit's probes too (parse-only, cheap), so that a copied catalog audits warm.
            ToolkitAudit a = audit_toolkit(suite, find_toolchain(p), p);
            return errors || !a.audit.errors.empty() ? kExitPtxasFailed : 0;
          }};
}

}  // namespace ptxcts

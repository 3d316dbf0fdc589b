#include "commands/toolkits_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <memory>

#include "assemble/toolkits.hpp"
#include "assemble/wheel_fetch.hpp"
#include "util/private_path.hpp"

namespace ptxcts {

namespace {

constexpr const char* kNoCache =
    "no cache of fetched toolkits: $HOME is unset and the password database names no home for this user "
    "(never a shared folder such as /tmp instead); expected --cache DIR, $PTXCTS_TOOLKIT_CACHE or $HOME";

struct ToolkitsOptions {
  std::vector<std::string> ptxas;     // --ptxas: more to list
  std::vector<std::string> versions;  // fetch's
  std::vector<std::string> tools{"ptxas"};
  bool refetch = false;
};

int list_toolkits(const std::vector<std::string>& ptxas, const std::string& cache, const std::string& specs) {
  auto found = find_toolkits(default_toolkit_search(ptxas, cache, specs));
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
  fmt::print("{} toolkits usable; {}\n", usable,
             cache.empty() ? std::string(kNoCache) : fmt::format("fetched ones are cached in {}", cache));
  return usable ? 0 : usage_error("no usable ptxas found (ptxcts toolkits fetch VERSION fetches one)");
}

// Each version's tools through pip into the cache; 77 if the registry cannot be reached (nothing
// else went wrong), 2 if a version does not exist or a wheel is bad.
int fetch_toolkits(const ToolkitsOptions& o, const std::string& cache) {
  if (cache.empty()) return usage_error(fmt::format("{}: nothing fetched", kNoCache));
  try {
    make_private_folder(cache);  // mode 0700 where it is made; refused where another user could write
  } catch (const std::runtime_error& e) { return usage_error(fmt::format("{}; nothing fetched", e.what())); }
  for (auto const& v : o.versions)
    for (auto const& tool : o.tools) {
      try {
        pip_requirement(v, tool);
      } catch (const std::invalid_argument& e) { return usage_error(e.what()); }
    }
  const FetchTools tools = default_fetch_tools();
  bool unreachable = false, failed = false;
  for (auto const& v : o.versions)
    for (auto const& tool : o.tools) {
      auto t0 = std::chrono::steady_clock::now();
      FetchResult r = fetch_toolkit(v, cache, tools, o.refetch, tool);
      if (r.ok()) fmt::print("fetch: {} ({:.1f} s)\n", r.message, seconds_since(t0));
      else fmt::print(stderr, "fetch: {}\n", r.message);
      unreachable |= r.outcome == FetchOutcome::RegistryUnreachable;
      failed |= !r.ok() && r.outcome != FetchOutcome::RegistryUnreachable;
    }
  return failed ? kExitTrouble : unreachable ? kExitSkipped : 0;
}

}  // namespace

Command add_toolkits_command(CLI::App& app, Paths& p) {
  auto o = std::make_shared<ToolkitsOptions>();
  auto* cli = app.add_subcommand("toolkits",
                                 "List the toolkits (ptxas) found: --ptxas, $PTXCTS_TOOLKITS, "
                                 "/usr/local/cuda*, PATH and the cache of fetched ones");
  cli->add_option("--ptxas", o->ptxas, "Another ptxas to list (repeatable)");
  cli->add_option("--cache", p.toolkit_cache, "The cache of fetched toolkits");
  auto* fetch = cli->add_subcommand("fetch",
                                    "Fetch toolkits' ptxas from PyPI with pip (pip download --no-deps) into the cache; "
                                    "exit 77 if the package registry cannot be reached");
  fetch->add_option("versions", o->versions, "CUDA versions, e.g. 11.8 12.4 12.9 13.5")->required();
  fetch->add_option("--cache", p.toolkit_cache, "The cache of fetched toolkits");
  fetch->add_flag("--refetch", o->refetch, "Fetch again what the cache has");
  fetch
      ->add_option("--tool", o->tools,
                   "What to fetch of each release (repeatable): ptxas, cuobjdump, nvdisasm (the disassemblers, which "
                   "PyPI carries from CUDA 13.2 on)")
      ->check(CLI::IsMember(kFetchableTools))
      ->capture_default_str();
  return {.cli = cli, .run = [o, fetch](CommandContext& ctx) {
            return *fetch ? fetch_toolkits(*o, ctx.paths.toolkit_cache)
                          : list_toolkits(o->ptxas, ctx.paths.toolkit_cache, ctx.paths.specs);
          }};
}

}  // namespace ptxcts

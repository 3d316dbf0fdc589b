#include "assemble/toolkits.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

#include "assemble/toolkit_identity.hpp"
#include "spec/spec_loader.hpp"
#include "util/environment.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= s.size();) {
    std::size_t end = std::min(s.find(sep, at), s.size());
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// (major, minor, patch) of "12.4.131", for ordering.
std::tuple<int, int, int> version_key(const std::string& v) {
  int a = 0, b = 0, c = 0;
  std::sscanf(v.c_str(), "%d.%d.%d", &a, &b, &c);
  return {a, b, c};
}

}  // namespace

fs::path default_toolkit_cache() {
  if (auto c = getenv_or("PTXCTS_TOOLKIT_CACHE"); !c.empty()) return c;
  if (auto x = getenv_or("XDG_CACHE_HOME"); !x.empty()) return fs::path(x) / "ptxcts" / "toolkits";
  // Never a shared place (/tmp) where $HOME is unset: another user could plant a ptxcts there.
  if (auto home = user_home(); !home.empty()) return fs::path(home) / ".cache" / "ptxcts" / "toolkits";
  return {};
}

ToolkitSearch default_toolkit_search(const std::vector<std::string>& explicit_ptxas, const fs::path& cache,
                                     const fs::path& specs) {
  std::optional<TargetCatalog> table;
  if (!specs.empty()) try {
      table = load_target_table(specs);
    } catch (const std::exception&) {}  // the command that loads the specs says why
  return {.explicit_ptxas = explicit_ptxas,
          .env = getenv_or("PTXCTS_TOOLKITS"),
          .installed_root = "/usr/local",
          .path = getenv_or("PATH"),
          .cache = cache,
          .table = std::move(table)};
}

std::vector<ToolkitCandidate> toolkit_candidates(const ToolkitSearch& s) {
  std::vector<ToolkitCandidate> out;
  for (auto const& p : s.explicit_ptxas) out.push_back({.ptxas = p, .found_by = "--ptxas", .refused = ""});
  for (auto const& p : split(s.env, ':')) out.push_back({.ptxas = p, .found_by = "PTXCTS_TOOLKITS", .refused = ""});
  auto sorted_dirs = [](const fs::path& root, const std::string& prefix) {
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->path().filename().string().rfind(prefix, 0) == 0) dirs.push_back(it->path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
  };
  for (auto const& d : sorted_dirs(s.installed_root, "cuda"))
    if (executable(d / "bin" / "ptxas"))
      out.push_back({.ptxas = (d / "bin" / "ptxas").string(), .found_by = "installed", .refused = ""});
  if (auto on_path = find_on_path("ptxas", s.path); !on_path.empty())
    out.push_back({.ptxas = on_path, .found_by = "PATH", .refused = ""});
  if (!s.cache.empty())
    for (auto const& d : sorted_dirs(s.cache, "cuda-"))
      if (executable(d / "bin" / "ptxas"))
        out.push_back({.ptxas = (d / "bin" / "ptxas").string(),
                       .found_by = "cache",
                       .refused = not_run_from_cache(d / "bin" / "ptxas")});
  return out;
}

std::vector<FoundToolkit> find_toolkits(const ToolkitSearch& search) {
  std::vector<FoundToolkit> found;
  std::vector<fs::path> files;  // canonical, per entry of `found`
  for (auto const& c : toolkit_candidates(search)) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(c.ptxas, ec);
    if (ec) canonical = c.ptxas;
    if (auto same = std::find(files.begin(), files.end(), canonical); same != files.end()) {
      found[static_cast<std::size_t>(same - files.begin())].also.push_back(c.found_by + " " + c.ptxas);
      continue;
    }
    files.push_back(canonical);
    FoundToolkit f{.where = c, .tc = std::nullopt, .problem = c.refused, .also = {}};
    if (!c.refused.empty()) {  // never run
      found.push_back(std::move(f));
      continue;
    }
    try {
      // One in the cache is checked, not believed: its seal, its folder, what it does.
      f.tc = c.found_by == "cache" ? discover_cached_ptxas(c.ptxas, search.table ? &*search.table : nullptr)
                                   : Toolchain::discover(c.ptxas);
    } catch (const std::exception& e) { f.problem = e.what(); }
    found.push_back(std::move(f));
  }
  // Usable first, by version; one per version.
  std::stable_sort(found.begin(), found.end(), [](const FoundToolkit& a, const FoundToolkit& b) {
    if (a.tc.has_value() != b.tc.has_value()) return a.tc.has_value();
    return a.tc && version_key(a.tc->version) < version_key(b.tc->version);
  });
  std::vector<FoundToolkit> out;
  for (auto& f : found) {
    if (f.tc && !out.empty() && out.back().tc && out.back().tc->version == f.tc->version) {
      out.back().also.push_back(f.where.found_by + " " + f.where.ptxas);
      continue;
    }
    out.push_back(std::move(f));
  }
  return out;
}

Toolchain select_toolkit(const std::vector<FoundToolkit>& found, const std::string& name) {
  if (name.find('/') != std::string::npos) {
    for (auto const& f : found)
      if (f.tc && f.where.ptxas == name) return *f.tc;
    return Toolchain::discover(name);
  }
  std::vector<std::string> known, refused;
  for (auto const& f : found)
    if (f.tc) {
      if (f.tc->release == name || f.tc->version == name) return *f.tc;
      known.push_back(f.tc->release);
    } else if (f.problem.find("CUDA " + name + " ") != std::string::npos ||
               f.where.ptxas.find("cuda-" + name + "/") != std::string::npos) {
      refused.push_back(f.problem);  // there, but not what it says: say so rather than "not found"
    }
  throw std::invalid_argument(
      fmt::format("no toolkit '{}' found; found {} (ptxcts toolkits lists them; ptxcts toolkits fetch {} fetches one){}",
                  name, known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")), name,
                  refused.empty() ? "" : fmt::format("; refused: {}", fmt::join(refused, "; "))));
}

}  // namespace ptxcts

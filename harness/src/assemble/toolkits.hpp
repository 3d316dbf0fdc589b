// Every toolkit (ptxas) the suite can use, side by side: those named on the command line
// (--ptxas, repeatable), in $PTXCTS_TOOLKITS (':'-separated), the installed ones
// (/usr/local/cuda*/bin/ptxas), the one on PATH, and those fetched into the cache
// (assemble/wheel_fetch). Each is asked what it is (Toolchain::discover: version, targets, newest
// PTX ISA version, all read from the binary); one that cannot say is listed with the reason.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "assemble/toolchain.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

struct ToolkitCandidate {
  std::string ptxas;     // path as found
  std::string found_by;  // "--ptxas", "PTXCTS_TOOLKITS", "installed", "PATH", "cache"
  std::string refused;   // why it is never run ("": it may be): one of the cache that others could write
};

struct FoundToolkit {
  ToolkitCandidate where;
  std::optional<Toolchain> tc;  // none: it could not be asked (see `problem`)
  std::string problem;
  std::vector<std::string> also;  // other candidates that are the same file
};

// Where candidates are looked for; `installed_root` and `path` are fields so that tests
// can give their own.
struct ToolkitSearch {
  std::vector<std::string> explicit_ptxas;              // --ptxas, in order
  std::string env;                                      // $PTXCTS_TOOLKITS
  std::filesystem::path installed_root = "/usr/local";  // its cuda*/bin/ptxas
  std::string path;                                     // $PATH
  std::filesystem::path cache;                          // fetched toolkits: cache/cuda-*/bin/ptxas
  // The specs' toolkit table: a cached ptxas is held to it (assemble/toolkit_identity); none: only
  // its seal and its folder's name are checked.
  std::optional<TargetCatalog> table = std::nullopt;
};

// The search as this process sees it (environment, /usr/local), with the given cache and --ptxas,
// and the toolkit table of `specs`/targets.yaml (none where that cannot be read: the command that
// loads the specs says why).
ToolkitSearch default_toolkit_search(const std::vector<std::string>& explicit_ptxas, const std::filesystem::path& cache,
                                     const std::filesystem::path& specs = {});

// The cache of fetched toolkits: $PTXCTS_TOOLKIT_CACHE, else $XDG_CACHE_HOME/ptxcts/toolkits, else
// ~/.cache/ptxcts/toolkits (the password database's home where $HOME is unset), else none (empty:
// never a shared place such as /tmp).
std::filesystem::path default_toolkit_cache();

// Candidates in search order, each file once (the first finder named, the others in `also`).
std::vector<ToolkitCandidate> toolkit_candidates(const ToolkitSearch& search);

// Every candidate asked; the usable ones first, ordered by ptxas version (oldest first), one per
// version (a second file of the same version goes in the first's `also`), then those that failed.
std::vector<FoundToolkit> find_toolkits(const ToolkitSearch& search);

// The toolkit `name` stands for: a path to a ptxas, or a release ("12.4") or version ("12.4.131")
// among `found`. Throws std::invalid_argument naming what there is.
Toolchain select_toolkit(const std::vector<FoundToolkit>& found, const std::string& name);

}  // namespace ptxcts

// A toolkit's ptxas known by what it does, not by what it says. What `--version` claims is checked
// against the toolkit table of specs/targets.yaml (the PTX ISA version each CUDA release speaks,
// the first version that knows each target): the ptxas must refuse a module of the next PTX ISA
// version (a tiny `.version X.Y` module), the newest version it names must be its release's, and it
// must list no target its release does not know. In the cache of fetched toolkits, its folder
// (cuda-<release>) must name the release it says, and the file must still be the one sealed when it
// was fetched or first identified (size and XXH3-128; stat first, the hash only where size or mtime
// changed), re-checked at every use; the verdict is kept beside the seal, so a known file costs no
// probe. Each mismatch is one line naming both sides.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "assemble/toolchain.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// Why `tc` is not what it says, or "" where it is. `table`: the specs' targets.yaml (none: only
// the folder is checked); `folder_release`: "11.8" of a cache folder cuda-11.8 ("": not in the cache).
std::string identity_problem(const Toolchain& tc, const TargetCatalog* table, const std::string& folder_release);

// The seal of a cached ptxas (CACHE/cuda-R/bin/ptxas), kept in CACHE/cuda-R/ptxas.seal.
struct PtxasSeal {
  std::uintmax_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string xxh3;       // of the whole file
  std::string sealed_by;  // "fetch", "first use"
  std::string basis;      // what the verdict was judged against (the table's lines for its release)
  std::optional<std::string> verdict;  // identity_problem's answer for this file and basis
};
std::filesystem::path seal_path(const std::filesystem::path& ptxas);
// Seals `ptxas` as it is now (wheel_fetch: when fetched; else at its first use).
void write_ptxas_seal(const std::filesystem::path& ptxas, const PtxasSeal& seal);
PtxasSeal seal_of(const std::filesystem::path& ptxas, const std::string& sealed_by);

// Why a program of the cache (a fetched ptxas, the disassembler beside it) must not be run: it or a
// folder above it is another user's (not this user's, not root's) or writable by others
// (util/private_path); "" where it may be run.
std::string not_run_from_cache(const std::filesystem::path& program);

// A cached ptxas checked: where it lies (not_run_from_cache: refused before it runs), its seal (a changed file is refused before it runs), then what it says
// and does (Toolchain::discover, identity_problem; the verdict cached by seal). Throws
// std::runtime_error naming the file and both sides of the mismatch.
Toolchain discover_cached_ptxas(const std::filesystem::path& ptxas, const TargetCatalog* table);

}  // namespace ptxcts

// The kernel catalog: every kernel of the suite assembled ahead of time for every real target the
// toolkit knows, with what ptxas said. Kernels of one target go many to a module (one ptxas process
// each; see assembly_batch.hpp), so a cubin holds many entries. Content-addressed (PTX text +
// target + ptxas version), so a rebuild with nothing changed assembles nothing, and relocatable: a
// catalog directory can be copied to another machine and run there.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assemble/catalog_manifest.hpp"
#include "assemble/toolchain.hpp"
#include "kinds/kinds.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

struct CatalogStats {
  int assembled = 0, cached = 0, not_attempted = 0;  // (kernel, target) pairs
  int ptxas_runs = 0;                                // ptxas processes started
  int errors = 0;                                    // of them, ptxas failed on (no verdict; never cached)
};

// What the catalog covers with this toolkit: the real targets of specs/targets.yaml that this
// ptxas knows (in targets.yaml's order, by architecture) and the PTX ISA version it speaks (as the
// binary says; targets.yaml's toolkits: table only for a stand-in that says nothing). Throws
// std::runtime_error if neither says.
struct CatalogScope {
  std::vector<std::string> targets;
  PtxVersion toolkit_ptx;
};
CatalogScope catalog_scope(const Suite& suite, const Toolchain& tc);

// The newest of the minimum PTX ISA versions of a kernel's instructions: what it is assembled at
// (or the target's minimum, if newer), and its documented minimum.
PtxVersion kernel_min_ptx(const KernelPlan& kernel);

// Builds (or brings up to date) the catalog in `dir`, writing dir/manifest.json: every kernel of
// the suite on every target of catalog_scope(), or on those of `targets` only (in catalog_scope's
// order; each must be one the toolkit knows: std::invalid_argument otherwise). Only verdicts
// are cached: what ptxas failed on is in the manifest as an error and tried again next time.
// `progress`, if given, hears (done, total) now and then while assembling.
Catalog build_catalog(const Suite& suite, const Toolchain& tc, const KernelSkeletons& skeletons,
                      const std::filesystem::path& dir, int jobs,
                      CatalogStats* stats = nullptr,
                      const std::function<void(std::size_t, std::size_t)>& progress = {},
                      const std::optional<std::vector<std::string>>& targets = std::nullopt,
                      const CatalogOrigin& origin = {});

// The toolkit that assembled `c`, as its manifest records it, for judging with no ptxas at hand:
// the audit's probes are read from the catalog's warm cache (probes/), and `ptxas` (empty: none)
// runs only for a probe that is not there.
Toolchain catalog_toolchain(const Catalog& c, const std::string& ptxas = "");


}  // namespace ptxcts

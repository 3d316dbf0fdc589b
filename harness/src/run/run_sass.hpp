// What the kernels of a run became: for each (kernel, target) that ran, the catalog's SASS record
// (assemble/catalog_sass), for the run report, where contradicted claims show it beside them.
#pragma once

#include <vector>

#include "assemble/catalog_manifest.hpp"
#include "results/results.hpp"

namespace ptxcts {

// One entry per distinct (kernel, target) of `results` that ran on a target, in their order.
RunSass run_sass(const Catalog& cat, const std::vector<CaseResult>& results);

}  // namespace ptxcts

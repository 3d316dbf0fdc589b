// A catalog without ptxas: every kernel accepted for the given targets, in one stand-in cubin (the
// fake device runner loads none), for running `ptxcts run`'s orchestration in tests.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "assemble/catalog.hpp"
#include "plan/suite.hpp"

namespace ptxcts::test {

using EntryName = std::function<std::string(const KernelPlan&, const std::string& target)>;

inline Catalog fake_catalog(const Suite& suite, std::vector<std::string> targets, PtxVersion ptx,
                            const EntryName& entry) {
  Catalog catalog;
  catalog.cuda_release = "13.0";
  catalog.targets = std::move(targets);
  for (auto const& k : suite.kernels)
    for (auto const& t : catalog.targets)
      catalog.assemblies.push_back({.kernel = k.name,
                                    .target = t,
                                    .ptx = ptx,
                                    .accepted = true,
                                    .attempted = true,
                                    .message = "",
                                    .cubin = "cache/fake.cubin",
                                    .ptx_file = "",
                                    .instruction = "",
                                    .entry = entry(k, t)});
  return catalog;
}

}  // namespace ptxcts::test

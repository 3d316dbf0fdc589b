// A catalog without ptxas: every kernel accepted for the given targets, in one stand-in cubin (the
// fake device runner loads none), for running `ptxcts run`'s orchestration in tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "assemble/assembly_batch.hpp"
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

// Gives each assembly of `catalog` a PTX module in `dir`/cache (for `--toolchain jit`): the module's
// `.version` and `.target` and, as every kernel's own module, the skeleton's entry (kSkeletonEntry),
// which is all the fake device runner's JIT reads.
inline void write_fake_ptx(Catalog& catalog, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "cache");
  for (auto& a : catalog.assemblies) {
    a.ptx_file = "cache/" + a.entry + "-" + a.target + ".ptx";
    std::ofstream(dir / a.ptx_file) << ".version " << a.ptx.str() << "\n.target " << a.target
                                    << "\n.address_size 64\n\n.visible .entry " << kSkeletonEntry
                                    << "(\n)\n{\n  ret;\n}\n";
  }
}

}  // namespace ptxcts::test

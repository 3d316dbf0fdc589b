// Which cubin of the catalog a device runs, given its compute capability: the targets whose code
// can load on it (portable sm_XY: the same major version, minor at most the device's; sm_XYf: the
// same family, arch at most the device's; sm_XYa: exactly the device's), narrowed to those the
// specs document the kernel on, most general first.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "assemble/catalog.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// Whether code for `t` loads on a device of compute capability major.minor.
bool runs_on(const TargetCatalog& targets, const TargetInfo& t, int major, int minor);

struct CubinChoice {
  const Assembly* assembly = nullptr;  // set when the kernel can run
  std::string skip;                    // why it cannot run here (a documented limit)
  bool lacks_form = false;             // skip: the GPU, its targets or the toolkit's PTX ISA lack the form
                                       // (not supported: conformant), rather than anything else
  std::string error;  // why it should run but cannot (a rejected documented form, or ptxas failed on it)
};

CubinChoice select_cubin(const TargetCatalog& targets, const Catalog& catalog, const KernelPlan& kernel, int major,
                         int minor);

// Drops the assemblies of every target that loads on none of the devices (compute capabilities
// major.minor): select_cubin never chooses them, and an all-targets catalog holds ~30,000, which a
// run would otherwise keep in memory and search for each kernel. The catalog's targets stay as
// they are, so select_cubin chooses as it did.
void keep_loadable(Catalog& catalog, const TargetCatalog& targets, const std::vector<std::pair<int, int>>& devices);

}  // namespace ptxcts

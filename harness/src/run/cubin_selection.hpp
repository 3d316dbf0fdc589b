// Which cubin of the catalog a device runs, given its compute capability: the targets whose code
// can load on it (portable sm_XY: the same major version, minor at most the device's; sm_XYf: the
// same family, arch at most the device's; sm_XYa: exactly the device's), narrowed to those the
// specs document the kernel on, most general first.
#pragma once

#include <string>

#include "assemble/catalog.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// Whether code for `t` loads on a device of compute capability major.minor.
bool runs_on(const TargetCatalog& targets, const TargetInfo& t, int major, int minor);

struct CubinChoice {
  const Assembly* assembly = nullptr;  // set when the kernel can run
  std::string skip;                    // why it cannot run here (a documented limit)
  std::string error;  // why it should run but cannot (a rejected documented form, or ptxas failed on it)
};

CubinChoice select_cubin(const TargetCatalog& targets, const Catalog& catalog, const KernelPlan& kernel, int major,
                         int minor);

}  // namespace ptxcts

// What the wmma planner adds to a kernel's plan (KernelPlan::kind_data): where the tiles live, the
// fragments, and which region and fragments each step works on.
#pragma once

#include <any>
#include <string>
#include <vector>

#include "kinds/lanes_shape.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// A fragment is a run of registers (.b32, or .b64 for .f64 fragments) that steps load, compute or
// store; a binding says which memory region and fragments a step works on (load: {dst}; store:
// {src}; mma: {d, a, b, c}).
struct WmmaFragment {
  int registers = 0;
  bool wide = false;
};
struct WmmaBinding {
  int region = 0;
  std::vector<int> fragments;
};

struct WmmaKernel {
  std::string memory;  // "shared" or "global": where the tiles live
  std::vector<WmmaFragment> fragments;
  std::vector<WmmaBinding> bindings;  // one per step
  // A lanes shape's kernel (an undefined case's: kinds/lanes_shape.hpp): lanes 16 to 31 exit, are
  // predicated off or run `other` (the same fragment) around the single instruction; All elsewhere.
  LanesShape lanes = LanesShape::All;
  const Instance* other = nullptr;
};

// Throws std::bad_any_cast for a kernel the wmma kind did not plan.
inline const WmmaKernel& wmma_kernel(const KernelPlan& k) { return std::any_cast<const WmmaKernel&>(k.kind_data); }

}  // namespace ptxcts

// The qualifier names the wmma planner (kinds/wmma/wmma_planner.cpp) pairs kernels by: a wmma.load.c
// with its .col twin and its wmma.store.d forms, and a wmma.mma with the loads and the store that
// feed it. They are a contract between specs/wmma.yaml and the planner, written once, here: the
// planner uses these constants, and the kind's spec reader checks at load time that every wmma
// variant has them (wmma_spec.cpp, KindOperation::check), so that renaming one in the spec is an
// error, not a silent mispairing.
#pragma once

#include <string>
#include <vector>

#include "kinds/wmma/wmma_spec.hpp"

namespace ptxcts {

inline constexpr const char* kWmmaShapeAxis = "shape";    // .m16n16k16, ...: loads, stores and mma
inline constexpr const char* kWmmaStateSpaceAxis = "ss";  // "", .global, .shared, ...: loads and stores
inline constexpr const char* kWmmaLayoutAxis =
    "layout";  // .row or .col, where a load's or store's layout is a qualifier

// The qualifiers a wmma variant of operation `op` must have (none for other operations).
inline std::vector<const char*> wmma_paired_axes(const std::string& op) {
  if (op == kWmmaLoad || op == kWmmaStore) return {kWmmaShapeAxis, kWmmaStateSpaceAxis};
  if (op == kWmmaMmaOperation) return {kWmmaShapeAxis};
  return {};
}

}  // namespace ptxcts

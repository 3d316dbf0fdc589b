// The matrix-move kind's operations (spec/kind_blocks.hpp): load, store and move, whose variants
// give the generic fragment layout that spec/ reads (matrix, row_alignment, address_lanes,
// fragment, fragments), so no block of their own.
#pragma once

#include <vector>

#include "spec/kind_blocks.hpp"

namespace ptxcts {

inline std::vector<KindOperation> matrix_move_operations() {
  return {
      {.name = "load", .addressed = true, .multiplies = false, .stride = false, .block = "", .read = {}, .check = {}},
      {.name = "store", .addressed = true, .multiplies = false, .stride = false, .block = "", .read = {}, .check = {}},
      {.name = "move", .addressed = false, .multiplies = false, .stride = false, .block = "", .read = {}, .check = {}}};
}

}  // namespace ptxcts

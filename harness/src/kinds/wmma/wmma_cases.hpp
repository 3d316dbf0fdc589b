// The wmma kind's own block of cases.yaml ('wmma'), read and checked in its room through the
// describing face (spec/kind_blocks.hpp): its tiles and warps, the state spaces products take in
// turn, and its cases (default or wide stride, overflowing accumulators, its faults).
#pragma once

#include <string>
#include <vector>

#include "spec/kind_blocks.hpp"

namespace ptxcts {

struct WmmaCaseSettings {
  int warps = 4, tile_bytes = 10240, regions = 5;
  std::vector<std::string> product_state_spaces;  // the 'ss' values products take in turn
  SourceLocation product_state_spaces_where;
};

// A wmma case's own fields: matrices at the default stride or inside a wider matrix, and
// accumulators chosen so that integer accumulation overflows.
struct WmmaCaseOptions {
  bool wide_stride = false;
  bool overflow = false;
};

// The block's settings (the defaults above when cases.yaml has no 'wmma' block).
const WmmaCaseSettings& wmma_case_settings(const CaseSet& set);
// A case's own fields (all false for a case of no wmma block).
WmmaCaseOptions wmma_case_options(const CaseSpec& c);

KindCaseBlock wmma_case_block();

}  // namespace ptxcts

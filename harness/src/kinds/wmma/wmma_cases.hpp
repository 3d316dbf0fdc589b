// The wmma kind's own block of cases.yaml ('wmma'), read and checked in its room through the
// describing face (spec/kind_blocks.hpp): its tiles and warps, the state spaces products take in
// turn, and its cases (default or wide stride, overflowing accumulators, its faults).
#pragma once

#include <string>
#include <vector>

#include "kinds/lanes_shape.hpp"
#include "spec/kind_blocks.hpp"

namespace ptxcts {

struct WmmaCaseSettings {
  int warps = 4, tile_bytes = 10240, regions = 5;
  std::vector<std::string> product_state_spaces;  // the 'ss' values products take in turn
  SourceLocation product_state_spaces_where;
};

// A wmma case's own fields: matrices at the default stride or inside a wider matrix, and
// accumulators chosen so that integer accumulation overflows. The cases of what the manual leaves
// undefined (each with its 'undefined' entry; single loads only): a stride below the default (the
// largest that keeps rows aligned to the fragment size), lanes 16 to 31 giving another p (the next
// region's) or another stride (the wide one) than lanes 0 to 15, lanes 16 to 31 leaving the
// instruction (`lanes`: exited, predicated off, another form; kinds/lanes_shape.hpp, a kernel of its
// own), and `variant`: the one variant whose single loads or stores the case takes ("": any load).
struct WmmaCaseOptions {
  enum class Lanes { Same, OtherAddress, OtherStride };
  bool wide_stride = false;
  bool below_default_stride = false;
  bool overflow = false;
  Lanes upper_lanes = Lanes::Same;
  LanesCase lanes;
  std::string variant;
  bool single_load() const {
    return below_default_stride || upper_lanes != Lanes::Same || lanes.lanes != LanesShape::All || !variant.empty();
  }
};

// The block's settings (the defaults above when cases.yaml has no 'wmma' block).
const WmmaCaseSettings& wmma_case_settings(const CaseSet& set);
// A case's own fields (all false for a case of no wmma block).
WmmaCaseOptions wmma_case_options(const CaseSpec& c);

KindCaseBlock wmma_case_block();

}  // namespace ptxcts

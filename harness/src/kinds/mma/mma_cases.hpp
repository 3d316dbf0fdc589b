// The mma kind's own block of cases.yaml ('mma'), read in its room through the describing face
// (spec/kind_blocks.hpp): the warps of a kernel, and its cases (overflowing accumulators); and the
// evaluation of its variants' layouts that check-specs asks for.
#pragma once

#include <string>

#include "spec/kind_blocks.hpp"

namespace ptxcts {

struct MmaCaseSettings {
  int warps = 2;
};

// An mma case's own fields: accumulators chosen so that integer accumulation overflows; and
// (undefined for mma.sp::ordered_metadata, which alone the case takes) every metadata field at the
// instance's selector with its two indices in decreasing order, the larger in the lower bits; and
// `variant`: the one variant whose kernels (not compositions) the case takes ("": any).
struct MmaCaseOptions {
  bool overflow = false;
  bool unsorted_metadata = false;
  std::string variant;
};

// The block's settings (the defaults above when cases.yaml has no 'mma' block).
const MmaCaseSettings& mma_case_settings(const CaseSet& set);
// A case's own fields (false for a case of no mma block).
MmaCaseOptions mma_case_options(const CaseSpec& c);

KindCaseBlock mma_case_block();
// The describing face's layout: the variants with an 'mma' block, each form's operands laid out
// (mma_layout).
KindLayout mma_layout();

}  // namespace ptxcts

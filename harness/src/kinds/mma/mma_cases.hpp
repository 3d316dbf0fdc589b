// The mma kind's own block of cases.yaml ('mma'), read in its room through the describing face
// (spec/kind_blocks.hpp): the warps of a kernel, and its cases (overflowing accumulators, questions
// about arithmetic); and the
// evaluation of its variants' layouts that check-specs asks for.
#pragma once

#include "spec/kind_blocks.hpp"

namespace ptxcts {

struct MmaCaseSettings {
  int warps = 2;
};

// An mma case's own fields: accumulators chosen so that integer accumulation overflows; or a
// question about arithmetic (kinds/mma/mma_numbers.hpp: inputs chosen so that the manual's words on
// precision, rounding and overflow decide the result), "" for none.
struct MmaCaseOptions {
  bool overflow = false;
  std::string numbers;
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

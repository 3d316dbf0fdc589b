// The mma kind's own block of cases.yaml ('mma'), read in its room through the describing face
// (spec/kind_blocks.hpp): the warps of a kernel, and its cases (overflowing accumulators, questions
// about arithmetic); and the
// evaluation of its variants' layouts that check-specs asks for.
#pragma once

#include <map>
#include <string>

#include "plan/suite.hpp"
#include "spec/kind_blocks.hpp"

namespace ptxcts {

struct MmaCaseSettings {
  int warps = 2;
};

// An mma case's own fields: accumulators chosen so that integer accumulation overflows; and
// (undefined for mma.sp::ordered_metadata, which alone the case takes) every metadata field at the
// instance's selector with its two indices in decreasing order, the larger in the lower bits; and
// `variant`: the one variant whose kernels (not compositions) the case takes ("": any); and
// `numbers`: a question about arithmetic (kinds/mma/mma_numbers.hpp: inputs chosen so that the manual's
// words on precision, rounding and overflow decide the result), "" for none.
struct MmaCaseOptions {
  // What lanes 16 to 31 of each warp do (undefined, on a kernel of its own): run the mma as lanes 0
  // to 15 do; `exit` just before it; or skip it under a predicate false for them (`@%p mma`).
  // Or run another form of it on a divergent path (`other_form`: the qualifier values that differ).
  enum class Lanes { All, UpperExited, UpperPredicatedOff, UpperOtherForm };
  bool overflow = false;
  std::string numbers;
  bool unsorted_metadata = false;
  std::string variant;
  Lanes lanes = Lanes::All;
  std::map<std::string, std::string> other_form;  // qualifier -> value, for UpperOtherForm
};

// A kernel planned for the cases of one `lanes` shape (KernelPlan::kind_data): the variant's kernel
// with the early exit or the predicate around its mma; Lanes::All for every other kernel.
struct MmaLanesKernel {
  MmaCaseOptions::Lanes lanes = MmaCaseOptions::Lanes::All;
  const Instance* other = nullptr;  // UpperOtherForm: the form lanes 16 to 31 run (same registers)
};
const MmaLanesKernel* mma_lanes_kernel(const KernelPlan& k);  // nullptr for every other kernel
MmaCaseOptions::Lanes mma_kernel_lanes(const KernelPlan& k);
// The shape's name in kernel names and cases.yaml: "upper-exited", "upper-predicated-off",
// "upper-other-form" ("" for All).
const char* lanes_name(MmaCaseOptions::Lanes lanes);

// The block's settings (the defaults above when cases.yaml has no 'mma' block).
const MmaCaseSettings& mma_case_settings(const CaseSet& set);
// A case's own fields (false for a case of no mma block).
MmaCaseOptions mma_case_options(const CaseSpec& c);

KindCaseBlock mma_case_block();
// The describing face's layout: the variants with an 'mma' block, each form's operands laid out
// (mma_layout).
KindLayout mma_layout();

}  // namespace ptxcts

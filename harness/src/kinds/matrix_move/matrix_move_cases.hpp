// The matrix-move kind's own block of cases.yaml ('matrix_move'), read in its room through the
// describing face (spec/kind_blocks.hpp): the cases of what the manual leaves undefined for
// ldmatrix, stmatrix and movmatrix when lanes 16 to 31 of a warp leave the instruction (exit before
// it, skip it under a predicate, run another form of it: kinds/lanes_shape.hpp), each on a kernel of
// its own. The top-level cases (spec/) are the kind's others.
#pragma once

#include <string>

#include "kinds/lanes_shape.hpp"
#include "plan/suite.hpp"
#include "spec/kind_blocks.hpp"

namespace ptxcts {

// A case of the block: its lanes shape and the one variant whose forms (its 'where' admits) it takes.
struct MatrixMoveCaseOptions {
  LanesCase lanes;
  std::string variant;
};

// A kernel planned for the cases of one lanes shape (KernelPlan::kind_data): the variant's kernel
// with the exit, the predicate or the branch to `other` around its instruction.
struct MatrixMoveLanesKernel {
  LanesShape lanes = LanesShape::All;
  const Instance* other = nullptr;  // UpperOtherForm: the form lanes 16 to 31 run (same registers)
};
const MatrixMoveLanesKernel* matrix_move_lanes_kernel(const KernelPlan& k);  // nullptr for every other kernel

// A case's own fields (lanes All, no variant, for a top-level case).
MatrixMoveCaseOptions matrix_move_case_options(const CaseSpec& c);
inline constexpr const char* kMatrixMoveCaseBlock = "matrix_move";

KindCaseBlock matrix_move_case_block();

}  // namespace ptxcts

// The matrix-move kind's kernels: one per ldmatrix / stmatrix / movmatrix instance (what the audit
// judges and the cases check), and the round trips the claims ask for (a load, then a store).
// The model follows the spec's layouts step by step (reference_model).
#pragma once

#include <deque>
#include <vector>

#include "kinds/matrix_move/reference_model.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

class InstructionKind;

std::vector<KernelPlan> plan_matrix_move_kernels(const InstructionKind& kind, const std::deque<Instance>& instances);
// The kernels of the 'matrix_move' block's cases (lanes 16 to 31 leaving the instruction: exited,
// predicated off, another form; undefined): per (lanes shape, instance of the case's variant its
// 'where' admits), the plain kernel with the code around its instruction, named <plain>.upper_...,
// not audited (the plain kernel is).
std::vector<KernelPlan> plan_matrix_move_lanes_kernels(const InstructionKind& kind,
                                                       const std::deque<Instance>& instances, const SpecSet& specs);
// The round trips the claims ask for (check: roundtrip), a load's kernel then a store's; planned
// after every kind's own kernels (InstructionKind::plan_last), so that they come last in the suite.
std::vector<KernelPlan> plan_matrix_move_roundtrips(const InstructionKind& kind, const std::deque<Instance>& instances,
                                                    const SpecSet& specs);
// Whether a case applies (fault cases: single instructions; 'only' by the first step's qualifiers;
// the 'matrix_move' block's cases on their lanes shape's kernels alone, and those kernels no other).
bool matrix_move_takes(const KernelPlan& kernel, const CaseSpec& c);
// Each step with its layout, computed from the spec's formulas.
std::vector<ModelStep> matrix_move_model_steps(const KernelPlan& kernel);

}  // namespace ptxcts

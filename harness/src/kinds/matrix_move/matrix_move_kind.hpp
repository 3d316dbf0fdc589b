// The matrix-move kind: ldmatrix, stmatrix and movmatrix, whose fragment layouts the manual gives
// lane by lane (the spec's formulas). Its pieces: matrix_move_planner (kernels, cases), matrix_move_emitter
// (kernels/warp_matrix.ptx.in), case_data (inputs), reference_model and compare (the check).
// May call: spec/, plan/, emit/, model/.
#pragma once

#include "kinds/instruction_kind.hpp"

namespace ptxcts {

const InstructionKind& matrix_move_kind();

}  // namespace ptxcts

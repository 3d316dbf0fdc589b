// The layouts the specs give for ldmatrix, stmatrix and movmatrix forms, as data for the run page
// (kinds/kind_figures.hpp): each matrix element with the lane and register that hold it, as the
// manual's figures draw them (spec/layout), one figure per distinct layout with the forms that have
// it. The report draws them (report/layout_svg).
// May call: spec/, kinds/instruction_kind.hpp.
#pragma once

#include "kinds/instruction_kind.hpp"
#include "kinds/kind_figures.hpp"

namespace ptxcts {

// The figures of the variants `kind` owns that give a layout. Forms whose layout cannot be
// evaluated are left out (check-specs names them).
KindFigures matrix_move_figures(const SpecSet& specs, const InstructionKind& kind);

}  // namespace ptxcts

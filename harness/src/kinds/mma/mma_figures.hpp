// The mma.sync fragments as the manual's figures draw them (PTX ISA 9.7.14.5.1-13, whose drawings
// are images missing from every text copy), as data for the run page (kinds/kind_figures.hpp): for
// each distinct layout of an operand, its matrix (rows x cols; one per MMA computation for m8n8k4
// .f16) with each element's lane and element (a3), evaluated from the spec's formulas
// (kinds/mma/mma_layout); the manual's sections and figures, the forms, and, where the spec evaluates a
// reading of a printed formula, the printed text and why. The report draws them
// (report/element_figure_svg).
// May call: spec/.
#pragma once

#include "kinds/kind_figures.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// One figure per distinct (operand, layout, readings), in the specs' order: A, B, C/D per variant; a
// form links to its operands' figures (A, B, C/D; or C and D where their layouts differ). Forms
// whose layouts cannot be evaluated are left out (check-specs names them).
KindFigures mma_figures(const SpecSet& specs);

}  // namespace ptxcts

// Figures of the mma.sync fragments, as the manual's figures draw them (PTX ISA 9.7.14.5.1-13, whose
// drawings are images missing from every text copy): for each distinct layout of an operand, its
// matrix (rows x cols; one per MMA computation for m8n8k4 .f16) with each element labelled by the lane
// (T5) and the element (a3) that hold it, evaluated from the spec's formulas (kinds/mma/mma_layout). A
// box holds the neighbouring elements of one register (a0–1); one <g class="lr"> per (lane,
// register), with data-lane and data-reg. The caption gives the manual's section and figure, the
// forms, and, where the spec evaluates a reading of a printed formula, the printed text and why.
#pragma once

#include <pugixml.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "kinds/mma/mma_layout.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// A formula of the layout that the spec reads otherwise than printed (MmaFormula).
struct MmaReadingNote {
  std::string line;  // "row" or "col"
  std::string manual, reading, why;
};

struct MmaLayoutFigure {
  std::string operand;  // "A", "B", or "C/D" (the manual's "Accumulators (C or D)")
  char letter = 'a';    // its elements' names: a0, b0, c0
  int computations = 1;
  MmaOperandLayout layout;
  std::vector<std::string> sources;  // the manual's sections and figures that give it
  std::vector<std::string> forms;    // mnemonics; "... (C)" / "... (D)" where only that operand has it
  std::vector<MmaReadingNote> readings;
};

struct MmaFigureOf {
  std::string operand;  // "A", "B", "C/D", "C" or "D"
  std::size_t figure = 0;
};

struct MmaLayoutFigures {
  std::vector<MmaLayoutFigure> figures;                       // in the specs' order: A, B, C/D per variant
  std::map<std::string, std::vector<MmaFigureOf>> figures_of;  // mnemonic -> its operands' figures, A first
};

// Forms whose layouts cannot be evaluated are left out (check-specs names them).
MmaLayoutFigures mma_layout_figures(const SpecSet& specs);

// The figure's drawing, its key and its <figcaption> (sources, forms, readings), into <figure>.
void draw_mma_layout(pugi::xml_node figure, const MmaLayoutFigure& f);

}  // namespace ptxcts

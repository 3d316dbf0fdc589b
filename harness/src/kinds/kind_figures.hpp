// The describing face's figures: what a kind gives the run page to draw of its fragments, as data
// the report draws without knowing the kind (report/layout_svg, report/element_figure_svg). A
// figure is a grid of matrices whose every element names the lane and the register part holding it
// (spec/layout's Layout, lane by lane); the kind says which forms have it, and the words around it.
// May call: spec/.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "spec/layout.hpp"

namespace ptxcts {

// A formula of the figure's layout that the spec reads otherwise than printed.
struct FigureReading {
  std::string line;  // "row" or "col"
  std::string manual, reading, why;
};

// One figure: its grid, and the forms (mnemonics) that have it.
struct FragmentFigure {
  Layout layout;  // registers, elements per register, matrices, rows, cols and where each element sits
  std::vector<std::string> forms;
  // Boxes labelled by the register (T5 r1.0–1) where letter is 0; else by the fragment's element, as
  // the manual names it (T5 a0–1), with what follows:
  char letter = 0;
  std::string operand;  // "A", "B", "C/D": the matrix's title, and the figure's summary
  std::string dims;     // "m x k": the matrix's dimensions, in the title
  std::vector<std::string> sources;     // the documents' sections and figures that give it
  std::vector<FigureReading> readings;  // formulas drawn from a reading, not the printed text
  std::string origin;                   // the caption's "Computed from ..." sentence
  std::string note;                     // a sentence the key adds ("" none)
};

// A link from a form to one of its figures ("" label: its one figure, "A": its operand A's).
struct FigureOf {
  std::string label;
  std::size_t figure = 0;
};

// A kind's figures on the run page, under a heading of their own: one per distinct layout.
struct KindFigures {
  std::string heading, words;  // the section's <h3> and the paragraph under it
  std::string anchor;          // each figure's id: anchor + its index ("spec-layout-")
  std::vector<FragmentFigure> figures;
  std::map<std::string, std::vector<FigureOf>> figures_of;  // mnemonic -> its figures, in order
};

}  // namespace ptxcts

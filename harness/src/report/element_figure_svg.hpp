// A kind's figure whose boxes name the fragment's elements (kinds/kind_figures.hpp, letter set: the
// mma operands' figures, as the manual's figures draw them): its matrices (one per computation where
// a warp computes several) with each element labelled by the lane (T5) and the element (a3) that
// hold it, as the kind evaluated them. A box holds the neighbouring elements of one register (a0–1);
// one <g class="lr"> per (lane, register), with data-lane and data-reg. The key says what a box is,
// with the kind's note; the caption gives the documents' sections and figures, the kind's words on
// where the figure comes from, the forms, and each reading of a printed formula with why.
#pragma once

#include <pugixml.hpp>

#include "kinds/kind_figures.hpp"

namespace ptxcts {

// The figure's drawing, its key and its <figcaption>, into <figure>.
void draw_element_figure(pugi::xml_node figure, const FragmentFigure& f);

}  // namespace ptxcts

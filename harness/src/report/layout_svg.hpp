// Figures of fragment layouts, drawn as inline SVG from data: the layout a spec gives for a form, as
// its kind gives it (kinds/kind_figures.hpp: each matrix element with the lane and register that
// hold it, as the manual's figures draw them), and the register layout a GPU was seen to use for a
// fragment the documents leave unspecified (each lane's registers with the element each holds;
// elements held twice marked), with what changed since an earlier report highlighted. Every figure
// has one <g class="lr"> per (lane, register), with data-lane and data-reg.
#pragma once

#include <pugixml.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kinds/kind_figures.hpp"
#include "spec/layout.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// One element slot of an observed layout: "lane 3: r1.hi=(8,7)" is lane 3, register 1, part 1.
struct ObservedSlot {
  int lane = 0, reg = 0, part = 0;
  bool known = false;  // "?": the register held no element of the matrix
  int row = 0, col = 0;
};

struct ObservedLayout {
  int lanes = 0, registers = 0, parts = 1;  // parts: elements per register
  std::vector<ObservedSlot> slots;
  const ObservedSlot* find(int lane, int reg, int part) const;
};

// The report's observed_layout text (reports/README.md); nullopt if it is not in that format.
std::optional<ObservedLayout> parse_observed_layout(std::string_view text);

void draw_spec_layout(pugi::xml_node parent, const Layout& layout);
// `before`: an earlier report's layout of the same fragment; slots that differ are highlighted.
void draw_observed_layout(pugi::xml_node parent, const ObservedLayout& now, const ObservedLayout* before = nullptr);

// The figures of the kinds' fragments as the specs give them, kind by kind (kinds/kind_figures.hpp:
// InstructionKind::figures); figures whose boxes name the fragment's elements are drawn by
// report/element_figure_svg, the others by draw_spec_layout.
struct SpecLayouts {
  std::vector<KindFigures> kinds;
};
SpecLayouts spec_layouts(const SpecSet& specs);  // forms whose layout cannot be evaluated are left out

}  // namespace ptxcts

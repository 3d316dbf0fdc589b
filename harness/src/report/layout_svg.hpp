// Figures of fragment layouts, drawn as inline SVG from data: the layout a spec gives for an
// ldmatrix/stmatrix/movmatrix form (each matrix element with the lane and register that hold it,
// as the manual's figures draw them), and the register layout a GPU was seen to use for a wmma
// fragment (each lane's registers with the element each holds; elements held twice marked), with
// what changed since an earlier report highlighted. Every figure has one <g class="lr"> per
// (lane, register), with data-lane and data-reg.
#pragma once

#include <pugixml.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/mma_layout_svg.hpp"
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

// The layouts the specs give, one figure per distinct layout, with the forms (mnemonics) that have it
// (mma: per distinct layout of an operand).
struct SpecLayoutFigure {
  std::vector<std::string> forms;
  Layout layout;
};
struct SpecLayouts {
  std::vector<SpecLayoutFigure> figures;
  std::map<std::string, std::size_t> figure_of;  // mnemonic -> index in figures
  MmaLayoutFigures mma;                           // mma.sync: a figure per distinct operand layout
};
SpecLayouts spec_layouts(const SpecSet& specs);  // forms whose layout cannot be evaluated are left out

}  // namespace ptxcts

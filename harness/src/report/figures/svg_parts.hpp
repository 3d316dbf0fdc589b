// The pieces the layout figures are drawn with (layout_svg, element_figure_svg): the <svg> element, groups
// placed by translate(x,y), cells, labels, the <g class="lr"> of one (lane, register), and the cells'
// backgrounds drawn as one <path> per fill class.
#pragma once

#include <pugixml.hpp>

#include <map>
#include <string>
#include <string_view>

namespace ptxcts::svg_parts {

std::string num(int v);
// Text is 12 px monospace (the page's style): a character is about 7.3 px wide.
int text_width(std::string_view s);
// Fills are classes of the page's style (.k0 ... .k11: pastel hues that tell neighbouring rows or
// registers apart), never an attribute per cell.
std::string fill(int k);

// Width and height in pixels as well as the viewBox: a figure inside a collapsed <details> has its
// size when it is opened, and keeps it in a figure narrower than itself (the figure then scrolls).
pugi::xml_node svg(pugi::xml_node parent, const char* cls, int width, int height);
pugi::xml_node group(pugi::xml_node parent, int x, int y, const char* cls = "");
pugi::xml_node rect(pugi::xml_node g, int x, int y, int w, int h, const std::string& cls);
// Text anchored in its middle (the page's style; a group or `cls` "end"/"start" says otherwise);
// a coordinate of 0 is left out (its group's origin).
pugi::xml_node label(pugi::xml_node g, int x, int y, std::string_view s, const char* cls = "");
// <g class="lr" data-lane data-reg>: what one lane holds in one register.
pugi::xml_node lr_group(pugi::xml_node parent, int lane, int reg);

// The cells' backgrounds: one <path> per fill, a closed rectangle per cell, each placed relative to
// the one before it (a page of thousands of cells stays small).
class Fills {
 public:
  void add(const std::string& cls, int x, int y, int w, int h);
  void draw(pugi::xml_node parent) const;

 private:
  struct Path {
    std::string d;
    int x = 0, y = 0;
  };
  std::map<std::string, Path> paths_;
};

}  // namespace ptxcts::svg_parts

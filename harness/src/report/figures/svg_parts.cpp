#include "report/figures/svg_parts.hpp"

#include <fmt/format.h>

#include "report/pages/html_document.hpp"

namespace ptxcts::svg_parts {

std::string num(int v) { return std::to_string(v); }

int text_width(std::string_view s) {
  int chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;  // UTF-8: count code points ("–" is one)
  return static_cast<int>(chars * 7.3 + 0.5);
}

std::string fill(int k) { return fmt::format("k{}", k % 12); }

pugi::xml_node svg(pugi::xml_node parent, const char* cls, int width, int height) {
  return el(parent, "svg",
            {{"xmlns", "http://www.w3.org/2000/svg"},
             {"class", cls},
             {"width", num(width)},
             {"height", num(height)},
             {"viewBox", fmt::format("0 0 {} {}", width, height)}});
}

pugi::xml_node group(pugi::xml_node parent, int x, int y, const char* cls) {
  pugi::xml_node g = parent.append_child("g");
  if (*cls) g.append_attribute("class").set_value(cls);
  g.append_attribute("transform").set_value(fmt::format("translate({},{})", x, y).c_str());
  return g;
}

pugi::xml_node rect(pugi::xml_node g, int x, int y, int w, int h, const std::string& cls) {
  pugi::xml_node r = g.append_child("rect");
  if (x) r.append_attribute("x").set_value(x);
  if (y) r.append_attribute("y").set_value(y);
  r.append_attribute("width").set_value(w);
  r.append_attribute("height").set_value(h);
  if (!cls.empty()) r.append_attribute("class").set_value(cls.c_str());
  return r;
}

pugi::xml_node label(pugi::xml_node g, int x, int y, std::string_view s, const char* cls) {
  pugi::xml_node t = g.append_child("text");
  if (*cls) t.append_attribute("class").set_value(cls);
  if (x) t.append_attribute("x").set_value(x);
  if (y) t.append_attribute("y").set_value(y);
  text(t, s);
  return t;
}

pugi::xml_node lr_group(pugi::xml_node parent, int lane, int reg) {
  pugi::xml_node g = parent.append_child("g");
  g.append_attribute("class").set_value("lr");
  g.append_attribute("data-lane").set_value(lane);
  g.append_attribute("data-reg").set_value(reg);
  return g;
}

void Fills::add(const std::string& cls, int x, int y, int w, int h) {
  Path& p = paths_[cls];
  p.d += fmt::format("{}{} {}h{}v{}h{}z", p.d.empty() ? 'M' : 'm', x - p.x, y - p.y, w, h, -w);
  p.x = x;
  p.y = y;
}

void Fills::draw(pugi::xml_node parent) const {
  for (auto const& [cls, p] : paths_) el(parent, "path", {{"class", cls}, {"d", p.d}});
}

}  // namespace ptxcts::svg_parts

#include "report/layout_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "report/html_document.hpp"
#include "spec/instance.hpp"

namespace ptxcts {

const ObservedSlot* ObservedLayout::find(int lane, int reg, int part) const {
  for (auto const& s : slots)
    if (s.lane == lane && s.reg == reg && s.part == part) return &s;
  return nullptr;
}

namespace {

// A small cursor over the observed_layout text: each reader consumes what it matched.
struct Cursor {
  std::string_view s;
  bool eat(std::string_view w) {
    if (!s.starts_with(w)) return false;
    s.remove_prefix(w.size());
    return true;
  }
  std::optional<int> number() {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 0) return std::nullopt;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
    return v;
  }
};

std::optional<ObservedSlot> parse_slot(Cursor& c, int lane) {
  ObservedSlot slot{.lane = lane};
  auto reg = c.eat("r") ? c.number() : std::nullopt;
  if (!reg) return std::nullopt;
  slot.reg = *reg;
  if (c.eat(".lo")) slot.part = 0;
  else if (c.eat(".hi")) slot.part = 1;
  else if (c.eat(".")) {
    auto part = c.number();
    if (!part) return std::nullopt;
    slot.part = *part;
  }
  if (!c.eat("=")) return std::nullopt;
  if (c.eat("?")) return slot;
  if (!c.eat("(")) return std::nullopt;
  auto row = c.number();
  if (!row || !c.eat(",")) return std::nullopt;
  auto col = c.number();
  if (!col || !c.eat(")")) return std::nullopt;
  slot.known = true;
  slot.row = *row;
  slot.col = *col;
  return slot;
}

std::string num(int v) { return std::to_string(v); }

// Pastel fills that tell neighbouring rows (observed) or registers (spec) apart.
std::string fill(int k) { return fmt::format("hsl({},70%,{}%)", (k * 67) % 360, 82 + (k / 6) % 2 * 8); }

pugi::xml_node svg(pugi::xml_node parent, int width, int height) {
  return el(parent, "svg",
            {{"xmlns", "http://www.w3.org/2000/svg"},
             {"width", num(width)},
             {"height", num(height)},
             {"viewBox", fmt::format("0 0 {} {}", width, height)}});
}

void rect(pugi::xml_node g, int x, int y, int w, int h, const std::string& color, const char* cls = "") {
  pugi::xml_node r =
      el(g, "rect", {{"x", num(x)}, {"y", num(y)}, {"width", num(w)}, {"height", num(h)}, {"fill", color}});
  if (*cls) r.append_attribute("class").set_value(cls);
}

void label(pugi::xml_node g, int x, int y, std::string_view s) { el(g, "text", {{"x", num(x)}, {"y", num(y)}}, s); }

}  // namespace

std::optional<ObservedLayout> parse_observed_layout(std::string_view text) {
  ObservedLayout L;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    Cursor c{text.substr(0, nl)};
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    auto lane = c.eat("lane ") ? c.number() : std::nullopt;
    if (!lane || !c.eat(":")) return std::nullopt;
    while (c.eat(" ")) {
      auto slot = parse_slot(c, *lane);
      if (!slot) return std::nullopt;
      L.slots.push_back(*slot);
      L.registers = std::max(L.registers, slot->reg + 1);
      L.parts = std::max(L.parts, slot->part + 1);
    }
    if (!c.s.empty()) return std::nullopt;
    L.lanes = std::max(L.lanes, *lane + 1);
  }
  if (L.slots.empty()) return std::nullopt;
  return L;
}

void draw_spec_layout(pugi::xml_node parent, const Layout& L) {
  constexpr int kW = 34, kH = 24, kGap = 24, kTitle = 14, kPerLine = 2;
  const int mw = L.cols * kW, mh = L.rows * kH;
  const int across = std::min(L.matrices, kPerLine), down = (L.matrices + kPerLine - 1) / kPerLine;
  pugi::xml_node s = svg(parent, across * (mw + kGap), down * (mh + kTitle + kGap));
  auto origin = [&](int m) {
    return std::pair{(m % kPerLine) * (mw + kGap), (m / kPerLine) * (mh + kTitle + kGap) + kTitle};
  };
  for (int m = 0; m < L.matrices; ++m) {
    auto [x, y] = origin(m);
    label(s, x, y - 4, fmt::format("matrix {} ({}x{}, {}-bit elements)", m, L.rows, L.cols, L.element_bits));
  }
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int r = 0; r < L.registers; ++r) {
      pugi::xml_node g = el(s, "g", {{"class", "lr"}, {"data-lane", num(lane)}, {"data-reg", num(r)}});
      std::string title = fmt::format("lane {}, register {}:", lane, r);
      for (int i = 0; i < L.elements_per_register; ++i) {
        const ElementPos& p = L.at(lane, r, i);
        auto [x0, y0] = origin(p.matrix);
        int x = x0 + p.col * kW, y = y0 + p.row * kH;
        rect(g, x, y, kW, kH, fill(r));
        label(g, x + 2, y + 10, fmt::format("T{}", lane));
        label(g, x + 2, y + 20, L.elements_per_register > 1 ? fmt::format("r{}.{}", r, i) : fmt::format("r{}", r));
        title += fmt::format(" element {} = matrix {} ({},{});", i, p.matrix, p.row, p.col);
      }
      el(g, "title", {}, title);
    }
}

void draw_observed_layout(pugi::xml_node parent, const ObservedLayout& now, const ObservedLayout* before) {
  const int part_w = std::clamp(64 / now.parts, 6, 32), reg_w = part_w * now.parts + 4;
  constexpr int kH = 14, kLeft = 44, kTop = 14;
  pugi::xml_node s = svg(parent, kLeft + now.registers * reg_w, kTop + now.lanes * kH);
  label(s, 0, 10, "lane");
  for (int r = 0; r < now.registers; ++r) label(s, kLeft + r * reg_w, 10, fmt::format("r{}", r));
  for (int lane = 0; lane < now.lanes; ++lane) label(s, 0, kTop + lane * kH + 10, num(lane));
  // Elements that more than one slot holds: the fragment repeats them.
  std::map<std::pair<int, int>, int> holders;
  for (auto const& slot : now.slots)
    if (slot.known) ++holders[{slot.row, slot.col}];
  std::map<std::pair<int, int>, std::vector<const ObservedSlot*>> by_lane_reg;
  for (auto const& slot : now.slots) by_lane_reg[{slot.lane, slot.reg}].push_back(&slot);
  for (auto const& [lr, slots] : by_lane_reg) {
    auto [lane, r] = lr;
    pugi::xml_node g = el(s, "g", {{"class", "lr"}, {"data-lane", num(lane)}, {"data-reg", num(r)}});
    std::string title = fmt::format("lane {}, register {}:", lane, r);
    bool say = part_w < 30;  // a tooltip where the cell has no room for its text, or has news
    for (const ObservedSlot* slot : slots) {
      int x = kLeft + r * reg_w + slot->part * part_w, y = kTop + lane * kH;
      std::string what = slot->known ? fmt::format("({},{})", slot->row, slot->col) : "?";
      bool repeated = slot->known && holders[{slot->row, slot->col}] > 1;
      const ObservedSlot* old = before ? before->find(lane, r, slot->part) : nullptr;
      bool changed = before && (!old || old->known != slot->known ||
                                (slot->known && (old->row != slot->row || old->col != slot->col)));
      rect(g, x, y, part_w, kH, slot->known ? fill(slot->row) : "#fff", changed ? "changed" : repeated ? "repeat" : "");
      if (part_w >= 30) label(g, x + 1, y + 10, slot->known ? fmt::format("{},{}", slot->row, slot->col) : "?");
      say = say || repeated || changed;
      title += fmt::format(" part {} = {}{}", slot->part, what, repeated ? " (repeated)" : "");
      if (changed)
        title +=
            old ? fmt::format(" (was {})", old->known ? fmt::format("({},{})", old->row, old->col) : "?") : " (new)";
      title += ";";
    }
    if (say) el(g, "title", {}, title);
  }
}

SpecLayouts spec_layouts(const SpecSet& specs) {
  SpecLayouts out;
  std::map<std::string, std::size_t> by_key;  // the layout as text -> figure
  for (auto const& v : specs.variants) {
    if (!v.has_layout) continue;
    for (auto const& inst : expand(v)) {
      if (out.figure_of.contains(inst.mnemonic())) continue;
      Layout L;
      try {
        L = compute_layout(inst);
      } catch (const std::exception&) {
        continue;  // check-specs names it; a page draws what can be drawn
      }
      std::string key = fmt::format("{} {} {} {} {} {}:", L.registers, L.elements_per_register, L.matrices, L.rows,
                                    L.cols, L.element_bits);
      for (auto const& p : L.element) key += fmt::format("{},{},{};", p.matrix, p.row, p.col);
      auto [it, fresh] = by_key.emplace(key, out.figures.size());
      if (fresh) out.figures.push_back({{}, std::move(L)});
      out.figures[it->second].forms.push_back(inst.mnemonic());
      out.figure_of[inst.mnemonic()] = it->second;
    }
  }
  return out;
}

}  // namespace ptxcts

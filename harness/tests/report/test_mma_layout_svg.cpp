// The mma fragment figures: each element drawn at the cell the manual's formulas give (points worked
// out here from the manual's formulas, PTX ISA 9.0, 9.7.14.5.8 and 9.7.14.5.13, never from the code
// under test), one <g class="lr"> per (lane, register), one figure per distinct layout, the reading
// the spec takes of a printed formula said under its figure, and a run page's mma kernel linked to
// its operands' figures.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "report/layout_svg.hpp"
#include "report/element_figure_svg.hpp"
#include "report/run/report_html.hpp"
#include "report/run/report_json.hpp"
#include "spec/spec_loader.hpp"

using namespace ptxcts;

namespace {

const SpecLayouts& layouts() {
  static const SpecSet specs = load_spec_dir(std::string(PTXCTS_SOURCE_DIR) + "/specs");
  static const SpecLayouts L = spec_layouts(specs);
  return L;
}

// The mma kind's figures (kinds/mma/mma_figures: those whose ids start "mma-layout-").
const KindFigures& mma() {
  for (auto const& k : layouts().kinds)
    if (k.anchor == "mma-layout-") return k;
  throw std::runtime_error("no figures of the mma kind");
}

// The figure of `operand` ("A", "B", "C/D") of `form`.
const FragmentFigure* figure(const std::string& form, const std::string& operand) {
  auto it = mma().figures_of.find(form);
  if (it == mma().figures_of.end()) return nullptr;
  for (auto const& ref : it->second)
    if (ref.label == operand) return &mma().figures[ref.figure];
  return nullptr;
}

std::size_t figure_index(const std::string& form, const std::string& operand) {
  const FragmentFigure* f = figure(form, operand);
  return f ? static_cast<std::size_t>(f - mma().figures.data()) : ~std::size_t{0};
}

std::size_t svg_count(const pugi::xml_node& n, const char* xpath) { return n.select_nodes(xpath).size(); }

// Where a figure's text is drawn: its x and y plus every enclosing group's translate(x,y).
std::pair<double, double> text_position(pugi::xml_node t) {
  double x = t.attribute("x").as_double(), y = t.attribute("y").as_double();
  for (pugi::xml_node n = t.parent(); n; n = n.parent()) {
    double dx = 0, dy = 0;
    if (std::sscanf(n.attribute("transform").value(), "translate(%lf,%lf)", &dx, &dy) == 2) x += dx, y += dy;
  }
  return {x, y};
}

// The axes of a drawn figure of one matrix: the centre of column c and of row r, from the numbers
// along its edges (a number every `step` columns or rows where the cells are narrow).
struct Axes {
  double x0 = 0, dx = 0, y0 = 0, dy = 0;
  double col(double c) const { return x0 + c * dx; }
  double row(double r) const { return y0 + r * dy; }
};

Axes axes(const pugi::xml_document& doc, int col_step, int row_step) {
  pugi::xml_node m = doc.select_node("//svg/g[text[.='col']]").node();
  EXPECT_TRUE(m);
  pugi::xml_node cols = m.select_node("g[not(@class)]").node(), rows = m.select_node("g[@class='end']").node();
  auto at = [](pugi::xml_node g, int n) {
    return text_position(g.select_node(fmt::format("text[.='{}']", n).c_str()).node());
  };
  Axes a;
  a.x0 = at(cols, 0).first;
  a.dx = (at(cols, col_step).first - a.x0) / col_step;
  a.y0 = at(rows, 0).second;
  a.dy = (at(rows, row_step).second - a.y0) / row_step;
  return a;
}

pugi::xml_node box(const pugi::xml_document& doc, int lane, int reg, const std::string& text) {
  return doc.select_node(fmt::format("//g[@class='lr'][@data-lane='{}'][@data-reg='{}']/text[.='{}']", lane, reg, text)
                             .c_str())
      .node();
}

constexpr const char* kF16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
constexpr const char* kB1 = "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc";

}  // namespace

TEST(MmaLayoutReport, M16n8k16F16AIsDrawnWhereTheManualsFormulasPutEachElement) {
  const FragmentFigure* f = figure(kF16, "A");
  ASSERT_TRUE(f);
  pugi::xml_document doc;
  draw_element_figure(doc.append_child("figure"), *f);
  // 9.7.14.5.8, A (.f16x2): four registers a lane, a0..a7.
  EXPECT_EQ(svg_count(doc, "//g[@class='lr']"), 32u * 4u);
  // groupID = %laneid >> 2, threadID_in_group = %laneid % 4; lane 5: 1 and 1.
  // row = groupID for a0, a1, a4, a5, groupID + 8 for a2, a3, a6, a7;
  // col = threadID_in_group * 2 + (i & 0x1) for i < 4, + 8 for i >= 4.
  // a2 and a3 (register 1): row 9, columns 2 and 3, one box between them.
  Axes a = axes(doc, 1, 1);
  pugi::xml_node t = box(doc, 5, 1, "T5 a2–3");
  ASSERT_TRUE(t) << "lane 5, register 1 holds a2 and a3, side by side";
  EXPECT_DOUBLE_EQ(text_position(t).first, (a.col(2) + a.col(3)) / 2);
  EXPECT_DOUBLE_EQ(text_position(t).second, a.row(9));
  // a6 and a7 (register 3) of lane 30 (groupID 7, threadID_in_group 2): row 15, columns 12 and 13.
  t = box(doc, 30, 3, "T30 a6–7");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(text_position(t).first, (a.col(12) + a.col(13)) / 2);
  EXPECT_DOUBLE_EQ(text_position(t).second, a.row(15));
  // The caption: the manual's figure, and that the drawing is computed.
  std::string cap = doc.select_node("//figcaption").node().text().get();
  EXPECT_NE(cap.find("Figure 79"), std::string::npos) << cap;
  EXPECT_NE(cap.find("formulas"), std::string::npos) << cap;
  EXPECT_EQ(svg_count(doc, "//*[@class='reading']"), 0u);
}

TEST(MmaLayoutReport, AccumulatorsOfM16n8kShapesShareOneFigure) {
  const FragmentFigure* f = figure(kF16, "C/D");
  ASSERT_TRUE(f);
  pugi::xml_document doc;
  draw_element_figure(doc.append_child("figure"), *f);
  // .f32 accumulators: four registers, one element each.
  EXPECT_EQ(svg_count(doc, "//g[@class='lr']"), 32u * 4u);
  // row = groupID for c0, c1, groupID + 8 for c2, c3; col = threadID_in_group * 2 + (i & 0x1).
  // Lane 5, c3: row 9, col 3.
  Axes a = axes(doc, 1, 1);
  pugi::xml_node t = box(doc, 5, 3, "T5 c3");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(text_position(t).first, a.col(3));
  EXPECT_DOUBLE_EQ(text_position(t).second, a.row(9));
  // The manual gives this layout for m16n8k8 (Figure 77), m16n8k16 (83) and m16n8k32 (92) alike.
  EXPECT_EQ(figure_index("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "C/D"), figure_index(kF16, "C/D"));
  EXPECT_EQ(figure_index("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "C/D"), figure_index(kF16, "C/D"));
  // .f16 accumulators pack two a register: another figure. m8n8k4's .row and .col A differ.
  EXPECT_NE(figure_index("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "C/D"), figure_index(kF16, "C/D"));
  EXPECT_NE(figure_index("mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32", "A"),
            figure_index("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32", "A"));
}

TEST(MmaLayoutReport, M16n8k256B1AIsDrawnFromItsReadingAndSaysSo) {
  const FragmentFigure* f = figure(kB1, "A");
  ASSERT_TRUE(f);
  pugi::xml_document doc;
  draw_element_figure(doc.append_child("figure"), *f);
  EXPECT_EQ(svg_count(doc, "//g[@class='lr']"), 32u * 4u);  // four .b32 registers of 32 .b1 elements
  // The reading: col = (threadID_in_group * 32) + (i & 0x1F) for i < 64, + 128 for i >= 64; row =
  // groupID for i < 32 and 64 <= i < 96. Lane 5 (groupID 1, threadID_in_group 1): a0..a31 in row 1,
  // columns 32..63, one box; a64..a95 in row 1, columns 160..191.
  Axes a = axes(doc, 16, 1);  // 256 narrow columns: numbered every 16th
  pugi::xml_node t = box(doc, 5, 0, "T5 a0–31");
  ASSERT_TRUE(t);
  EXPECT_NEAR(text_position(t).first, (a.col(32) + a.col(63)) / 2, 1.0);
  EXPECT_DOUBLE_EQ(text_position(t).second, a.row(1));
  t = box(doc, 5, 2, "T5 a64–95");
  ASSERT_TRUE(t);
  EXPECT_NEAR(text_position(t).first, (a.col(160) + a.col(191)) / 2, 1.0);
  EXPECT_DOUBLE_EQ(text_position(t).second, a.row(1));
  // Under the drawing: the printed col formula, quoted, the reading, and why.
  pugi::xml_node note = doc.select_node("//figcaption/div[@class='reading']").node();
  ASSERT_TRUE(note);
  std::string text;
  for (auto const& n : note.select_nodes(".//text()")) text += n.node().value();
  EXPECT_NE(text.find("(threadID_in_group * 32) + i for ai where i < 64"), std::string::npos) << text;
  EXPECT_NE(text.find("(threadID_in_group * 32) + (i & 0x1F) for ai where i < 64"), std::string::npos) << text;
  EXPECT_NE(text.find("Why: "), std::string::npos) << text;
  // B has no reading.
  ASSERT_TRUE(figure(kB1, "B"));
  EXPECT_TRUE(figure(kB1, "B")->readings.empty());
}

TEST(MmaLayoutReport, RunPageLinksAnMmaKernelToItsOperandsFigures) {
  std::string path = std::string(PTXCTS_TEST_DATA) + "/reports/html-page.json";
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  RunReport report = parse_report_json(ss.str(), path);
  ASSERT_FALSE(report.results.empty());
  CaseResult r = report.results.front();
  r.kernel = "mma_m16n8k16_f32_f16";
  r.family = "mma";
  r.instruction = kF16;
  r.observed_layout.clear();
  report.results.push_back(r);
  RunPageInputs inputs;
  inputs.layouts = &layouts();
  std::string html = report_html(report, inputs);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  pugi::xml_node kernel = doc.select_node("//details[@id='k-mma_m16n8k16_f32_f16']").node();
  ASSERT_TRUE(kernel);
  // 9.7.14.5.8: A four .f16x2 registers, B two, C/D (.f32) four.
  for (auto [operand, registers] : {std::pair{"A", 4u}, std::pair{"B", 2u}, std::pair{"C/D", 4u}}) {
    const std::string id = fmt::format("mma-layout-{}", figure_index(kF16, operand));
    EXPECT_EQ(svg_count(kernel, fmt::format(".//a[@href='#{}'][.='{}']", id, operand).c_str()), 1u) << operand;
    pugi::xml_node d = doc.select_node(fmt::format("//section[@id='layouts']/details[@id='{}']", id).c_str()).node();
    ASSERT_TRUE(d) << id;
    EXPECT_EQ(svg_count(d, ".//svg//g[@class='lr']"), 32u * registers) << id;
  }
  // Every mma figure once, under the layouts.
  EXPECT_EQ(svg_count(doc, "//section[@id='layouts']/details[starts-with(@id, 'mma-layout-')]"), mma().figures.size());
}

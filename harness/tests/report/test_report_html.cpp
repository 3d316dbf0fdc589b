// The pages: well-formed, in the documented order, text escaped by the DOM library, layout figures
// with a cell per (lane, register) at the places the manual's formulas put them, repeats and
// changes marked, the fleet's differences first. Expected values come from the manual and from the
// inputs written here, never from the writer.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/layout_svg.hpp"
#include "report/run/report_diff_html.hpp"
#include "report/run/report_html.hpp"
#include "report/run/report_merge.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"
#include "spec/spec_loader.hpp"

using namespace ptxcts;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunReport test_report(const std::string& name = "html-page.json") {
  std::string path = std::string(PTXCTS_TEST_DATA) + "/reports/" + name;
  return parse_report_json(read(path), path);
}

// The page parsed back as XML: the writer's output must be well-formed.
pugi::xml_document parse(const std::string& html) {
  pugi::xml_document doc;
  auto at = html.find("<html");
  auto ok = doc.load_string(html.substr(at).c_str());
  EXPECT_TRUE(ok) << ok.description() << " at " << ok.offset;
  return doc;
}

std::size_t count(const pugi::xml_node& n, const char* xpath) { return n.select_nodes(xpath).size(); }

}  // namespace

TEST(ReportHtml, SectionsInTheDocumentedOrder) {
  auto doc = parse(report_html(test_report()));
  std::vector<std::string> ids;
  for (auto s : doc.select_nodes("//section")) ids.push_back(s.node().attribute("id").value());
  std::vector<std::string> want = {"run", "findings", "claims", "sentences", "matrix-section", "layouts", "kernels"};
  EXPECT_EQ(ids, want);
  EXPECT_EQ(count(doc, "//head/script"), 1u);
  EXPECT_EQ(count(doc, "//*[@src or @href[starts-with(., 'http')]]"), 0u) << "nothing fetched";
}

TEST(ReportHtml, FindingsAreTheContradictedClaimAndTheFailedCasesOnly) {
  auto doc = parse(report_html(test_report()));
  auto findings = doc.select_node("//section[@id='findings']").node();
  // html-page.json: one contradicted claim; a fail (ldmatrix) and a crash that is not a fault case
  // (stmatrix): a family group each, a row per form; the fault case's crash is not among them.
  EXPECT_EQ(count(findings, ".//details[contains(@class, 'claim')]"), 1u);
  EXPECT_EQ(count(findings, ".//details[contains(@class, 'claim')][@data-id='blog-consecutive-rows-stored-consecutively']"), 1u);
  EXPECT_EQ(count(findings, ".//details[@class='group']"), 2u);
  EXPECT_EQ(count(findings, ".//details[@class='group'][@data-family='ldmatrix']//tr[@data-outcome='fail']"), 1u);
  EXPECT_EQ(count(findings, ".//details[@class='group'][@data-family='stmatrix']//tr[@data-outcome='crash']"), 1u);
  EXPECT_EQ(count(findings, ".//tr[contains(., 'fault-misaligned-rows')]"), 0u);
  EXPECT_EQ(count(findings, ".//pre[contains(., 'expected <&\"quoted\"> 0x5e6f')]"), 1u);
}

// The verdict is the first thing under the page's title, in the suite's words, coloured by its tone.
TEST(ReportHtml, TheVerdictComesFirst) {
  auto doc = parse(report_html(test_report()));
  auto body = doc.select_node("//body").node();
  auto first_p = body.select_node("./p").node();
  EXPECT_STREQ(first_p.attribute("id").value(), "verdict");
  EXPECT_STREQ(first_p.attribute("class").value(), "verdict needs-action");  // a fail and a crash
  EXPECT_EQ(std::string(first_p.child_value()).rfind("Does not conform: 2 of 8 cases need action (1 failed, 1 crashed)", 0),
            0u)
      << first_p.child_value();
  EXPECT_EQ(std::string(body.first_child().name()), "h1");
  // A report where nothing needs action reads "Conforms", green.
  RunReport ok = test_report();
  std::erase_if(ok.results, [](const CaseResult& r) { return !r.fault_case && (r.status == Status::Fail || r.status == Status::Crash); });
  auto good = parse(report_html(ok));
  auto v = good.select_node("//p[@id='verdict']").node();
  EXPECT_STREQ(v.attribute("class").value(), "verdict conforms");
  EXPECT_EQ(std::string(v.child_value()).rfind("Conforms: 4 cases as documented, 1 not supported on sm_90; 1 fault case "
                                               "faulted as the rule says",
                                               0),
            0u)
      << v.child_value();
}

// A fault case that faulted as its rule says is never called a crash, anywhere on the page; its row
// and the kernel's badge say what it was.
TEST(ReportHtml, AnExpectedFaultIsNotACrash) {
  RunReport r = test_report();
  std::erase_if(r.results, [](const CaseResult& x) { return !x.fault_case && x.status == Status::Crash; });
  auto doc = parse(report_html(r));
  EXPECT_EQ(count(doc, "//*[contains(concat(' ', @class, ' '), ' crash ')]"), 0u);
  EXPECT_EQ(count(doc, "//td[.='crashed'] | //span[contains(., 'crash')][not(contains(@class, 'zero'))]"), 0u);
  EXPECT_EQ(count(doc, "//tr[@data-outcome='faulted']/td[@class='faulted'][.='faulted as the rule says']"), 1u);
  EXPECT_EQ(count(doc, "//details[@id='k-ldmatrix.sync.aligned.m8n8.x4.b16_a64']/summary/span[.='1 faulted as the rule says']"),
            1u);
}

// The kernel list's items carry what the filter reads (family, words, outcomes), and every case row
// its outcome; the filter box offers the outcomes and counts kernels.
TEST(ReportHtml, TheKernelListIsFilteredByFamilyWordsAndOutcome) {
  auto doc = parse(report_html(test_report()));
  auto box = doc.select_node("//div[@class='filters'][@data-for='kernel-list']").node();
  ASSERT_TRUE(box);
  EXPECT_STREQ(box.attribute("data-noun").value(), "kernels");
  EXPECT_EQ(count(box, ".//select[@class='outcome']/option"), 2u + 11u);  // any, needs action, the eleven outcomes
  EXPECT_EQ(count(doc, "//div[@id='kernel-list']/details[@data-family][@data-name][@data-outcomes]"), 6u);
  EXPECT_EQ(count(doc, "//div[@id='kernel-list']//tr[@data-outcome]"), 8u);  // a row per case
  EXPECT_EQ(count(doc, "//details[@id='k-ldmatrix.sync.aligned.m8n8.x4.b16_a64'][@data-outcomes='pass fail faulted']"), 1u);
}

// The driver JIT's page is titled as such (its file lies beside the cubin run's).
TEST(ReportHtml, TheJitPagesTitleSaysJit) {
  RunReport r = test_report();
  r.info.toolchain = jit_toolchain("580.159.04", "13.0");
  auto doc = parse(report_html(r));
  EXPECT_NE(std::string(doc.select_node("//title").node().child_value()).find("driver JIT"), std::string::npos);
  EXPECT_NE(std::string(doc.select_node("//h1").node().child_value()).find("driver JIT"), std::string::npos);
}

// A fault case another GPU of the host ran for this report says which, in its row's reason.
TEST(ReportHtml, ACaseAnotherGpuRanNamesItInItsRow) {
  RunReport r = test_report();
  ASSERT_FALSE(r.results.empty());
  r.results.front().ran_on = "GPU 1 (GPU-11111111-1111-1111-1111-111111111111, PCI 0000:1a:00.0)";
  auto doc = parse(report_html(r));
  EXPECT_EQ(count(doc, "//section[@id='kernels']//td/p[@class='ran-on'][.='ran on GPU 1 "
                       "(GPU-11111111-1111-1111-1111-111111111111, PCI 0000:1a:00.0)']"),
            1u);
}

TEST(ReportHtml, TextIsEscapedNotMarkup) {
  std::string html = report_html(test_report());
  EXPECT_EQ(html.find("<b>not bold</b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;&lt;b&gt;not bold&lt;/b&gt;"), std::string::npos);
  auto doc = parse(html);
  EXPECT_EQ(count(doc, "//b"), 0u);
  EXPECT_EQ(html.find("/>"), std::string::npos) << "an empty-element tag opens an element in HTML";
}

TEST(ReportHtml, AnAuditBesideJoinsTheMatrix) {
  const std::string path = std::string(PTXCTS_TEST_DATA) + "/reports/audit-excerpt.json";
  const AuditSummary audit = parse_audit_report(read(path), path);
  auto doc = parse(report_html(test_report(), {.layouts = nullptr, .audit = &audit}));
  // The audit asked about 23 targets, sm_90 among them: a column each.
  EXPECT_EQ(count(doc, "//table[@id='matrix']/thead/tr/th"), 1u + audit.targets.size());
  // The audit excerpt has ldmatrix.sync.aligned.m8n8.x1.b16 (accepted from sm_75 on), not .trans.
  auto row = doc.select_node("//table[@id='matrix']/tbody/tr[@data-name='ldmatrix.sync.aligned.m8n8.x1.trans.b16']");
  ASSERT_TRUE(row);
}

TEST(LayoutSvg, ParsesTheReportsObservedLayout) {
  auto L = parse_observed_layout(
      "lane 0: r0.lo=(0,0) r0.hi=(0,1) r1.lo=? r1.hi=(0,1)\nlane 1: r0.lo=(1,0) r0.hi=(1,1) "
      "r1.lo=(2,0) r1.hi=(2,1)");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->lanes, 2);
  EXPECT_EQ(L->registers, 2);
  EXPECT_EQ(L->parts, 2);
  ASSERT_EQ(L->slots.size(), 8u);
  EXPECT_FALSE(L->slots[2].known);
  EXPECT_EQ(L->slots[7].row, 2);
  EXPECT_EQ(L->slots[7].col, 1);
  EXPECT_FALSE(parse_observed_layout("lane 0: r0.lo=(0,0"));
  EXPECT_FALSE(parse_observed_layout("lane x: r0=(0,0)"));
  EXPECT_FALSE(parse_observed_layout(""));
}

// A class among an element's classes.
static std::string has_class(const char* cls) { return fmt::format("contains(concat(' ', @class, ' '), ' {} ')", cls); }

TEST(LayoutSvg, ObservedFigureHasACellPerLaneAndRegisterAndMarksRepeats) {
  auto L = parse_observed_layout(
      "lane 0: r0.lo=(0,0) r0.hi=(0,1) r1.lo=? r1.hi=(0,1)\nlane 1: r0.lo=(1,0) r0.hi=(1,1) "
      "r1.lo=(2,0) r1.hi=(2,1)");
  pugi::xml_document doc;
  draw_observed_layout(doc.append_child("figure"), *L);
  EXPECT_EQ(count(doc, "//g[@class='lr']"), 4u);
  // (0,1) in r0.hi and r1.hi of lane 0: some elements are held twice and some once, so the two are marked.
  EXPECT_EQ(count(doc, ("//rect[" + has_class("repeat") + "]").c_str()), 2u);
  EXPECT_EQ(count(doc, "//g[@data-lane='0'][@data-reg='1']/rect[contains(@class, 'repeat')]"), 1u);
  EXPECT_NE(std::string(doc.select_node("//p[@class='key']").node().child_value()).find("Red outline"),
            std::string::npos)
      << "the caption says what the outline marks";
}

// Where the fragment holds every element twice, an outline on every cell says nothing: none is drawn,
// and the caption says why.
TEST(LayoutSvg, NoOutlineWhereEveryElementIsRepeated) {
  auto L = parse_observed_layout("lane 0: r0=(0,0) r1=(0,1) r2=(0,0) r3=(0,1)\nlane 1: r0=(1,0) r1=(1,1) r2=(1,0) "
                                 "r3=(1,1)");
  pugi::xml_document doc;
  draw_observed_layout(doc.append_child("figure"), *L);
  EXPECT_EQ(count(doc, "//g[@class='lr']"), 8u);
  EXPECT_EQ(count(doc, ("//rect[" + has_class("repeat") + "]").c_str()), 0u);
  EXPECT_NE(std::string(doc.select_node("//p[@class='key']").node().child_value()).find("held by 2 registers"),
            std::string::npos);
}

// The axes: the register names across the top, the lane numbers down the side, with their titles;
// every cell's element written in it.
TEST(LayoutSvg, ObservedFigureHasAxes) {
  auto L = parse_observed_layout("lane 0: r0=(0,0) r1=(0,1)\nlane 1: r0=(1,0) r1=(1,1)\nlane 2: r0=(2,0) r1=(2,1)");
  pugi::xml_document doc;
  draw_observed_layout(doc.append_child("figure"), *L);
  for (const char* t : {"lane", "register", "r0", "r1", "0", "1", "2"})
    EXPECT_EQ(count(doc, fmt::format("//svg/text[.='{0}'] | //svg/g/text[.='{0}']", t).c_str()), 1u) << t;
  EXPECT_EQ(count(doc, "//g[@data-lane='2'][@data-reg='1']/text[.='2,1']"), 1u);
}

TEST(LayoutSvg, ChangedSlotsAreHighlightedWithWhatTheyHeld) {
  auto before = parse_observed_layout("lane 0: r0=(0,0) r1=(0,1)");
  auto after = parse_observed_layout("lane 0: r0=(0,0) r1=(1,1)");
  pugi::xml_document doc;
  draw_observed_layout(doc.append_child("figure"), *after, &*before);
  ASSERT_EQ(count(doc, "//rect[@class='changed']"), 1u);
  auto changed = doc.select_node("//g[@data-reg='1']").node();
  EXPECT_NE(std::string(changed.child("title").child_value()).find("was (0,1)"), std::string::npos);
  // What it held, on the page and not only in the tooltip: struck through under what it holds now.
  EXPECT_EQ(std::string(changed.select_node("text[@class='now']").node().child_value()), "1,1");
  EXPECT_EQ(std::string(changed.select_node("text[@class='was']").node().child_value()), "0,1");
  // Drawn after every other cell, so that no neighbour's outline covers its marker.
  EXPECT_EQ(std::string(doc.select_node("(//g[@class='lr'])[last()]").node().attribute("data-reg").value()), "1");
}

namespace {

// Where a figure's text is drawn: its x and y plus every enclosing group's translate(x,y).
std::pair<double, double> position(pugi::xml_node t) {
  double x = t.attribute("x").as_double(), y = t.attribute("y").as_double();
  for (pugi::xml_node n = t.parent(); n; n = n.parent()) {
    double dx = 0, dy = 0;
    if (std::sscanf(n.attribute("transform").value(), "translate(%lf,%lf)", &dx, &dy) == 2) x += dx, y += dy;
  }
  return {x, y};
}

}  // namespace

TEST(LayoutSvg, SpecFigureOfLdmatrixX4PlacesEachElementWhereTheManualDoes) {
  SpecSet specs = load_spec_dir(std::string(PTXCTS_SOURCE_DIR) + "/specs");
  SpecLayouts layouts = spec_layouts(specs);
  ASSERT_FALSE(layouts.kinds.empty());
  const KindFigures& figures = layouts.kinds.front();  // ldmatrix, stmatrix, movmatrix: the first kind
  auto it = figures.figures_of.find("ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  ASSERT_NE(it, figures.figures_of.end());
  pugi::xml_document doc;
  draw_spec_layout(doc.append_child("figure"), figures.figures[it->second.front().figure].layout);
  EXPECT_EQ(count(doc, "//g[@class='lr']"), 32u * 4u);  // .x4: four registers per lane
  // Manual, Figure 104: lane 5 holds row 1, columns 2 and 3 of each matrix (row lane/4, col 2*(lane%4)+i),
  // register r of matrix r. Its label sits over those columns of matrix 1's axes and beside its row 1.
  pugi::xml_node m1 = doc.select_node("//svg/g[text[starts-with(., 'matrix 1 ')]]").node();
  ASSERT_TRUE(m1);
  EXPECT_EQ(count(m1, "text[.='col']"), 1u);
  EXPECT_EQ(count(m1, "text[.='row']"), 1u);
  auto col2 = position(m1.select_node("g/text[.='2']").node()), col3 = position(m1.select_node("g/text[.='3']").node());
  auto row1 = position(m1.select_node("g[@class='end']/text[.='1']").node());
  pugi::xml_node t = doc.select_node("//g[@data-lane='5'][@data-reg='1']/text").node();
  EXPECT_EQ(std::string(t.child_value()), "T5 r1");
  EXPECT_DOUBLE_EQ(position(t).first, (col2.first + col3.first) / 2);
  EXPECT_DOUBLE_EQ(position(t).second, row1.second);
  // Forms with one layout share a figure: the state space and address width do not change it.
  EXPECT_EQ(figures.figures_of.at("ldmatrix.sync.aligned.m8n8.x4.b16").front().figure, it->second.front().figure);
  EXPECT_NE(figures.figures_of.at("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16").front().figure,
            it->second.front().figure);
}

TEST(DiffHtml, DrawsTheChangedLayout) {
  RunReport a = test_report(), b = test_report("html-page-later.json");
  auto doc = parse(diff_html(a, b, diff_reports(a, b)));
  // html-page-later.json swaps lane 0's r0.lo and r0.hi of the wmma.load.a layout.
  EXPECT_EQ(count(doc, "//figure//rect[@class='changed']"), 2u);
}

TEST(Fleet, DifferencesFirstAndAColumnPerMachine) {
  RunReport a = test_report(), b = test_report("html-page-later.json");
  Fleet f = merge_reports({a, b});
  ASSERT_EQ(f.machines.size(), 2u);
  EXPECT_NE(f.machines[0], f.machines[1]);  // the later report names another driver
  // One case fail -> pass and one layout changed.
  EXPECT_EQ(f.differing(), 2);
  EXPECT_TRUE(f.rows[0].differs && f.rows[1].differs && !f.rows[2].differs);
  EXPECT_EQ(f.rows[0].values, (std::vector<std::string>{"fail", "pass"}));
  auto doc = parse(fleet_html(f));
  EXPECT_EQ(count(doc, "//div[@id='fleet']//table/tbody/tr[@class='differs']"), 2u);
  auto j = nlohmann::json::parse(fleet_json(f));
  EXPECT_EQ(j["differing"], 2);
}

// Grouped as the report's results are (a group per family, then the claims and the layouts), the
// groups with a row that differs first and open, the others closed; the columns under their GPU model.
TEST(Fleet, GroupedByFamilyDifferencesFirstColumnsByModel) {
  RunReport a = test_report(), b = test_report("html-page-later.json"), c = test_report();
  c.info.gpu_name = "AAA Test GPU";  // sorts first: its column leads, under a model of its own
  Fleet f = merge_reports({a, b, c});
  auto doc = parse(fleet_html(f));
  std::set<std::string> families{"claims"};
  std::map<std::string, int> differ;
  for (auto const& r : a.results) families.insert(r.family);
  for (std::size_t k = 0; k < a.results.size(); ++k)
    differ[a.results[k].family] += outcome_of(a.results[k]) != outcome_of(b.results[k]);
  if (std::any_of(a.results.begin(), a.results.end(), [](auto const& r) { return !r.observed_layout.empty(); }))
    families.insert("layouts");
  std::vector<std::string> groups;
  bool closed_seen = false, open_after_closed = false;
  for (auto g : doc.select_nodes("//div[@id='fleet']/details")) {
    groups.push_back(g.node().attribute("data-family").value());
    const bool open = g.node().attribute("open");
    open_after_closed = open_after_closed || (open && closed_seen);
    closed_seen = closed_seen || !open;
    const long long differing = count(g.node(), ".//tr[@class='differs']");
    EXPECT_EQ(open, differing > 0) << groups.back();
    if (differ.count(groups.back())) {
      EXPECT_EQ(differing, differ[groups.back()]) << groups.back();
    }
  }
  EXPECT_EQ(std::set<std::string>(groups.begin(), groups.end()), families);
  EXPECT_EQ(groups.size(), families.size());
  EXPECT_FALSE(open_after_closed);
  auto models = doc.select_nodes("(//div[@id='fleet']//table)[1]/thead/tr[1]/th[@class='model']");
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(std::string(models[0].node().text().get()).rfind("AAA Test GPU", 0), 0u);
  EXPECT_EQ(std::string(models[0].node().attribute("colspan").value()), "1");
  EXPECT_EQ(std::string(models[1].node().attribute("colspan").value()), "2");
  auto numbers = doc.select_nodes("(//div[@id='fleet']//table)[1]/thead/tr[2]/th");
  ASSERT_EQ(numbers.size(), 3u);
  EXPECT_EQ(std::string(numbers[0].node().text().get()), "3");
  // A value the same on neighbouring columns is one cell across them: every row spans the 3 columns,
  // and the case that passes on b alone (columns c, a, b) is two cells, the first across c and a.
  for (auto tr : doc.select_nodes("//div[@id='fleet']//tbody/tr")) {
    std::size_t span = 0;
    for (pugi::xml_node td = tr.node().child("td").next_sibling("td"); td; td = td.next_sibling("td"))
      span += td.attribute("colspan") ? std::stoul(td.attribute("colspan").value()) : 1;
    EXPECT_EQ(span, 3u) << tr.node().attribute("data-name").value();
  }
  auto cells = doc.select_nodes("//div[@id='fleet']//tr[@class='differs'][td[contains(@class,'pass')]]/td[position() > 1]");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(std::string(cells[0].node().attribute("colspan").value()), "2");
  EXPECT_EQ(std::string(cells[1].node().attribute("class").value()), "pass");
}

// The fleet speaks the outcome vocabulary: a fault case that faulted reads "faulted as the rule says"
// in a neutral colour, never a crash; each run's verdict line first; zero counts grey.
TEST(Fleet, OutcomesInWordsVerdictsFirst) {
  RunReport a = test_report(), b = test_report("html-page-later.json");
  const CaseResult* fault = nullptr;
  for (auto const& r : a.results)
    if (r.fault_case && r.status == Status::Crash) fault = &r;
  ASSERT_TRUE(fault) << "html-page.json has a fault case that faulted";
  Fleet f = merge_reports({a, b});
  auto doc = parse(fleet_html(f));
  const std::string row = case_id(*fault);
  // The same on both machines: one cell across both columns.
  auto cells = doc.select_nodes(fmt::format("//div[@id='fleet']//tr[@data-name='{}']/td[position() > 1]", row).c_str());
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(std::string(cells[0].node().attribute("colspan").value()), "2");
  for (auto c : cells) {
    EXPECT_EQ(std::string(c.node().attribute("class").value()), "faulted");
    EXPECT_EQ(std::string(c.node().text().get()), "faulted as the rule says");
  }
  EXPECT_EQ(nlohmann::json::parse(fleet_json(f))["rows"][0]["values"].size(), 2u);
  // The verdict first, then a line per run, its report's own.
  pugi::xml_node first = doc.select_node("//body/*[not(self::h1)][1]").node();
  EXPECT_EQ(std::string(first.attribute("id").value()), "verdict");
  auto lines = doc.select_nodes("//ol[@class='run-verdicts']/li");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(std::string(lines[0].node().text().get()).find(verdict_line(a)), std::string::npos);
  EXPECT_NE(std::string(lines[1].node().text().get()).find(verdict_line(b)), std::string::npos);
  // html-page.json timed nothing out: a grey zero, not a red one.
  auto timeouts = doc.select_node("//table[@id='outcomes']/tbody/tr[1]/td[8]").node();
  EXPECT_EQ(std::string(timeouts.text().get()), "0");
  EXPECT_EQ(std::string(timeouts.attribute("class").value()), "zero");
  auto j = nlohmann::json::parse(fleet_json(f));
  EXPECT_EQ(j["fleet_schema_version"], 4);
  EXPECT_EQ(j["machines"][0]["verdict"], verdict_line(a));
}

namespace {
// The audit's page, of a report as report/audit/audit_report_reader reads it back.
std::string audit_page(const nlohmann::json& audit) {
  return audit_html(parse_audit_report(audit.dump(), "audit-excerpt.json"));
}
}  // namespace

TEST(AuditHtml, FindingsByClassAndTheMatrix) {
  nlohmann::json audit = nlohmann::json::parse(read(std::string(PTXCTS_TEST_DATA) + "/reports/audit-excerpt.json"));
  auto doc = parse(audit_page(audit));
  EXPECT_EQ(count(doc, "//section[@id='findings']//*[@data-id]"), audit["findings"].size());
  // Each class of findings a collapsed group of its own, each finding a collapsed card in it.
  for (auto const& f : audit["findings"]) {
    std::string cls = f["class"], id = f["id"];
    EXPECT_EQ(count(doc, fmt::format("//section[@id='findings']/details[@data-class='{}']//details[@data-id='{}']", cls,
                                     id)
                             .c_str()),
              1u)
        << id;
  }
  EXPECT_EQ(count(doc, "//table[@id='matrix']/tbody/tr"), audit["grammar"].size());
  // The page is drawn from the report as its reader gives it back: a report without its grammar is
  // refused there, with its place, before any page is drawn.
  nlohmann::json broken = audit;
  broken.erase("grammar");
  EXPECT_THROW(audit_page(broken), JsonInputError);
}

// The verdict first, in the tone of what `ptxcts audit` exits with: the excerpt has no finding the
// specs do not expect and no ptxas failure (green); one unexpected finding makes it red.
TEST(AuditHtml, TheVerdictFirst) {
  nlohmann::json audit = nlohmann::json::parse(read(std::string(PTXCTS_TEST_DATA) + "/reports/audit-excerpt.json"));
  ASSERT_EQ(audit["summary"]["contradictions"], 0);
  ASSERT_EQ(audit["summary"]["ptxas_failures"], 0);
  auto doc = parse(audit_page(audit));
  pugi::xml_node first = doc.select_node("//body/*[not(self::h1)][1]").node();
  EXPECT_EQ(std::string(first.attribute("id").value()), "verdict");
  EXPECT_EQ(std::string(first.attribute("class").value()), "verdict conforms");
  EXPECT_TRUE(std::string(first.child_value()).starts_with("As the specs expect: "));
  audit["summary"]["contradictions"] = 1;
  audit["findings"][0]["fails_audit"] = true;
  auto red = parse(audit_page(audit));
  EXPECT_EQ(std::string(red.select_node("//p[@id='verdict']").node().attribute("class").value()),
            "verdict needs-action");
  // The unexpected finding's card and its class's group are open; the others stay collapsed.
  std::string id = audit["findings"][0]["id"];
  EXPECT_EQ(count(red, fmt::format("//details[@open][@data-id='{}']", id).c_str()), 1u);
  EXPECT_EQ(count(red, "//section[@id='findings']//details[@data-id][@open]"), 1u);
}

// Long lists of targets read folded ("sm_75 … sm_121f (23 targets)"), the whole list in the tooltip;
// a document cited by its id reads by its name.
TEST(AuditHtml, TargetListsFoldedDocumentsNamed) {
  nlohmann::json audit = nlohmann::json::parse(read(std::string(PTXCTS_TEST_DATA) + "/reports/audit-excerpt.json"));
  auto doc = parse(audit_page(audit));
  const std::size_t targets = audit["run"]["targets"].size();
  ASSERT_GE(targets, 5u);
  auto fold = doc.select_node("//section[@id='run']//abbr[@class='targets']").node();
  ASSERT_TRUE(fold);
  EXPECT_EQ(std::string(fold.child_value()),
            fmt::format("{} \u2026 {} ({} targets)", audit["run"]["targets"].front().get<std::string>(),
                        audit["run"]["targets"].back().get<std::string>(), targets));
  // The report's `documents` (specs/documents.yaml) name the study notes: the finding's subject reads
  // by their title, author and address, and the page lists every document with its address.
  std::string html = audit_page(audit);
  EXPECT_EQ(html.find("(xuwh-2025-ldmatrix-notes)"), std::string::npos) << "a document cited by its id";
  const nlohmann::json& notes = audit["documents"][3];
  ASSERT_EQ(notes["id"], "xuwh-2025-ldmatrix-notes");
  auto card = doc.select_node("//details[@data-id='documents-disagree/example/ldmatrix-notes-x1']/summary").node();
  ASSERT_TRUE(card);
  EXPECT_NE(std::string(card.text().get()).find(fmt::format("ldmatrix-notes-x1 (\"{}\" ({}, {})), but",
                                                            notes["title"].get<std::string>(),
                                                            notes["author"].get<std::string>(),
                                                            notes["address"].get<std::string>())),
            std::string::npos)
      << card.text().get();
  for (auto const& d : audit["documents"])
    EXPECT_EQ(count(doc, fmt::format("//section[@id='documents']//td[.='{}']", d["address"].get<std::string>()).c_str()),
              1u);
  // A report written before `documents` keeps its ids, and has no section of them.
  audit.erase("documents");
  auto old = parse(audit_page(audit));
  EXPECT_EQ(count(old, "//section[@id='documents']"), 0u);
  EXPECT_NE(audit_page(audit).find("(xuwh-2025-ldmatrix-notes)"), std::string::npos);
}

// Only aligned runs are compared: a third report of another suite commit is shown, marked not
// aligned, and its differences count for nothing; runs expected and missing are listed first.
TEST(Fleet, ARunOfAnotherCommitIsMarkedAndLeftOutOfTheComparison) {
  RunReport a = test_report(), b = test_report(), c = test_report("html-page-later.json");
  c.info.suite_commit = "0000000";
  Fleet f = merge_reports({a, b, c}, {{.task = "3", .host = "n7", .reason = "ended with exit 2 and wrote no report"}});
  EXPECT_TRUE(f.aligned(0) && f.aligned(1));
  EXPECT_FALSE(f.aligned(2));
  EXPECT_EQ(f.aligned_count(), 2u);
  EXPECT_EQ(f.differing(), 0);  // c's fail -> pass and layout change are not compared
  EXPECT_NE(alignment_note(f, 2).find("not aligned: suite commit 0000000"), std::string::npos);
  auto j = nlohmann::json::parse(fleet_json(f));
  EXPECT_EQ(j["machines"][2]["aligned"], false);
  EXPECT_EQ(j["missing"][0]["task"], "3");
  auto doc = parse(fleet_html(f));
  EXPECT_EQ(count(doc, "//section[@id='missing']//tr[@class='missing']"), 1u);
  EXPECT_EQ(count(doc, "//section[@id='run']//tr[@class='not-aligned']"), 1u);
}

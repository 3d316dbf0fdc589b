// The history page: a column per GPU model x driver x toolkit in time order, a row per form, each
// cell the counts of its column's latest run; a cell that changed since the model's previous column
// opens on its transitions with their evidence, unchanged neighbours are one cell. The runs are
// written here; every expected value comes from them, never from the writer.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "history/history_page.hpp"
#include "history/history_page_runs.hpp"
#include "report/run/report_json.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;

namespace {

HistoryRun run(const std::string& model, const std::string& driver, const std::string& date,
               std::vector<HistoryCase> cases) {
  return {model, driver, "CUDA 13.0", date, "host", "abc123", std::move(cases)};
}

HistoryCase ok(const std::string& id, const std::string& form) { return {id, "ldmatrix", form, Outcome::Pass, ""}; }

pugi::xml_document parse(const std::string& html) {
  pugi::xml_document doc;
  auto r = doc.load_string(html.substr(html.find("<html")).c_str());
  EXPECT_TRUE(r) << r.description();
  return doc;
}

// The cells of the form's row, as (text, class, colspan).
struct CellSeen {
  std::string text, cls;
  int span;
};
std::vector<CellSeen> row_of(const pugi::xml_document& doc, const std::string& form) {
  std::vector<CellSeen> out;
  for (auto tr : doc.select_nodes(("//table[@id='history']/tbody/tr[@data-name='" + form + "']").c_str())) {
    bool first = true;
    for (auto td : tr.node().children("td")) {
      if (first) { first = false; continue; }
      out.push_back({td.child("details") ? td.child("details").child_value("summary") : td.text().get(),
                     td.attribute("class").value(), td.attribute("colspan").as_int(1)});
    }
  }
  return out;
}

}  // namespace

TEST(HistoryPage, ColumnsInTimeOrderAndChangesMarkedWithEvidence) {
  const std::string x1 = "ldmatrix.sync.aligned.m8n8.x1.b16", x2 = "ldmatrix.sync.aligned.m8n8.x2.b16";
  std::vector<HistoryRun> runs{
      // Given out of order: the page orders a model's columns by date.
      run("GPU A (sm_90)", "590.1", "2026-03-01T00:00:00Z",
          {ok("k1/a", x1), {"k1/b", "ldmatrix", x1, Outcome::Fail, "wrong values; lane 3 reg 0: got 7, expected 5"},
           ok("k2/a", x2)}),
      run("GPU A (sm_90)", "570.1", "2026-01-01T00:00:00Z", {ok("k1/a", x1), ok("k1/b", x1), ok("k2/a", x2)}),
      run("GPU A (sm_90)", "580.1", "2026-02-01T00:00:00Z", {ok("k1/a", x1), ok("k1/b", x1), ok("k2/a", x2)}),
      run("GPU B (sm_80)", "570.1", "2026-01-02T00:00:00Z", {ok("k1/a", x1), ok("k1/b", x1)}),
  };
  const std::string html = history_page_html(runs);
  const pugi::xml_document doc = parse(html);
  // The configuration heading row: A's three drivers in time order, then B's.
  std::vector<std::string> heads;
  for (auto th : doc.select_nodes("//table[@id='history']/thead/tr[2]/th")) heads.push_back(th.node().text().get());
  EXPECT_EQ(heads, (std::vector<std::string>{"driver 570.1, CUDA 13.0", "driver 580.1, CUDA 13.0",
                                             "driver 590.1, CUDA 13.0", "driver 570.1, CUDA 13.0"}));
  // x1: 570 and 580 the same (one cell across two), 590 changed and worse (one case now fails), B alone.
  auto x1_cells = row_of(doc, x1);
  ASSERT_EQ(x1_cells.size(), 3u);
  EXPECT_EQ(x1_cells[0].text, "2 pass");
  EXPECT_EQ(x1_cells[0].span, 2);
  EXPECT_EQ(x1_cells[1].text, "1 pass, 1 fail (1 changed, 1 worse)");
  EXPECT_NE(x1_cells[1].cls.find("changed worse"), std::string::npos);
  EXPECT_EQ(x1_cells[2].text, "2 pass");
  // The transition with its evidence, behind the click.
  auto li = doc.select_node(("//tr[@data-name='" + x1 + "']//details//li").c_str()).node();
  EXPECT_EQ(std::string(li.child_value("code")), "k1/b");
  EXPECT_NE(std::string(li.text().get()).find("passed"), std::string::npos) << li.text().get();
  std::string all;
  for (auto t : li.children()) all += t.text().get(), all += t.value();
  EXPECT_NE(all.find("lane 3 reg 0: got 7, expected 5"), std::string::npos) << all;
  // x2: never changed on A (one cell across A's three columns), and absent on B.
  auto x2_cells = row_of(doc, x2);
  ASSERT_EQ(x2_cells.size(), 2u);
  EXPECT_EQ(x2_cells[0].span, 3);
  EXPECT_EQ(x2_cells[1].text, "-");
  // The verdict line counts the changed cell and the worse one.
  EXPECT_NE(html.find("1 cells changed since their model's previous column, 1 of them worse"), std::string::npos);
}

TEST(HistoryPage, LatestRunOfAColumnIsShownAndACaseThatWentAwayIsATransition) {
  const std::string f = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
  std::vector<HistoryRun> runs{
      run("GPU A (sm_90)", "570.1", "2026-01-01T00:00:00Z", {ok("m/a", f), ok("m/b", f)}),
      // The same column again, later: its cells are this run's.
      run("GPU A (sm_90)", "570.1", "2026-01-05T00:00:00Z", {ok("m/a", f), {"m/b", "mma", f, Outcome::Skipped, "no"}}),
      run("GPU A (sm_90)", "580.1", "2026-02-01T00:00:00Z", {ok("m/a", f)}),
  };
  for (auto& r : runs)
    for (auto& c : r.cases) c.family = "mma";
  const pugi::xml_document doc = parse(history_page_html(runs));
  auto cells = row_of(doc, f);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].text, "1 pass, 1 skipped");
  EXPECT_EQ(cells[1].text, "1 pass (1 changed)");
  auto li = doc.select_node(("//tr[@data-name='" + f + "']//details//li").c_str()).node();
  std::string all;
  for (auto t : li.children()) all += t.text().get(), all += t.value();
  EXPECT_NE(all.find("m/b"), std::string::npos);
  EXPECT_NE(all.find("absent"), std::string::npos) << all;
}

// The runs the page draws from a history (history_page_runs): every run, one Slurm job's, the latest N,
// oldest first, each read back from the report the history keeps (its cases and their evidence).
TEST(HistoryPage, RunsFromTheHistoryBySlurmJobAndLatest) {
  const std::string path = std::string(PTXCTS_TEST_DATA) + "/reports/html-page.json";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const RunReport base = parse_report_json(text.str(), path);
  ptxcts::test::TempDir t("history-page-runs");
  HistoryStore store((t.dir / "history.sqlite").string());
  // Recorded out of date order: 3 runs of job 41 (drivers 570, 580, 590), one outside Slurm.
  const std::vector<std::tuple<std::string, std::string, std::string>> runs{
      {"590.1", "2026-03-01T00:00:00Z", "41"}, {"570.1", "2026-01-01T00:00:00Z", "41"},
      {"575.1", "2026-01-15T00:00:00Z", ""}, {"580.1", "2026-02-01T00:00:00Z", "41"}};
  for (auto const& [driver, date, job] : runs) {
    RunReport r = base;
    r.info.driver_version = driver, r.info.date = date, r.info.slurm_job = job, r.info.slurm_task = job.empty() ? "" : "0";
    ASSERT_TRUE(store.record(r, "test").added);
  }
  auto drivers = [](const std::vector<HistoryRun>& rs) {
    std::vector<std::string> d;
    for (auto const& r : rs) d.push_back(r.driver);
    return d;
  };
  EXPECT_EQ(drivers(history_page_runs(store, {})), (std::vector<std::string>{"570.1", "575.1", "580.1", "590.1"}));
  EXPECT_EQ(drivers(history_page_runs(store, {.slurm_job = "41"})), (std::vector<std::string>{"570.1", "580.1", "590.1"}));
  EXPECT_EQ(drivers(history_page_runs(store, {.last = 2})), (std::vector<std::string>{"580.1", "590.1"}));
  EXPECT_TRUE(history_page_runs(store, {.slurm_job = "42"}).empty());
  // Each run's cases as the report has them, with their family and form.
  const std::vector<HistoryRun> all = history_page_runs(store, {});
  ASSERT_EQ(all[0].cases.size(), base.results.size());
  EXPECT_EQ(all[0].cases[0].id, case_id(base.results[0]));
  EXPECT_EQ(all[0].cases[0].form, base.results[0].instruction);
  EXPECT_EQ(all[0].gpu_model, base.info.gpu_name + " (" + base.info.sm + ")");
}

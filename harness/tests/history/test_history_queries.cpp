// The history's questions (harness/src/history/history_queries) and `ptxcts history` itself, on small
// runs whose transitions the test names, and on the committed reports.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "history/history_queries.hpp"
#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"
#include "history_fixture.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;
using ptxcts::test::small_run;
using ptxcts::test::TempDir;

namespace {

// Three runs of one GPU: driver 1 all pass; driver 2: b fails (a regression), c not supported now;
// driver 3 (the same CUDA): b passes again. And one run of another GPU model.
void three_drivers(HistoryStore& s) {
  s.record(small_run("1.0", {{"a", Status::Pass}, {"b", Status::Pass}, {"c", Status::Pass}}, "2026-01-01T00:00:00Z"), "t");
  s.record(small_run("2.0", {{"a", Status::Pass}, {"b", Status::Fail}, {"c", Status::NotSupported}},
                     "2026-02-01T00:00:00Z", Verdict::Contradicted),
           "t");
  s.record(small_run("3.0", {{"a", Status::Pass}, {"b", Status::Pass}, {"c", Status::NotSupported}},
                     "2026-03-01T00:00:00Z"),
           "t");
  s.record(small_run("2.0", {{"a", Status::Pass}}, "2026-02-15T00:00:00Z", Verdict::Confirmed, "13.0", "Other GPU"), "t");
}

const std::string kB = "ldmatrix.sync.aligned.m8n8.x1.b16/b";

}  // namespace

TEST(HistoryQueries, ChangesBetweenTwoDriversNameTheRegression) {
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  three_drivers(s);
  const auto pairs = history_changes(s, {.gpu = "test gpu", .axis = "driver", .from = "1.0", .to = "2.0"});
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].before.driver, "1.0");
  EXPECT_EQ(pairs[0].after.driver, "2.0");
  EXPECT_EQ(pairs[0].regressions, 1);
  ASSERT_EQ(pairs[0].changes.size(), 3u);  // b pass -> fail, c pass -> not-supported, the claim
  EXPECT_EQ(pairs[0].changes[0].item, kB);  // the regression first
  EXPECT_EQ(pairs[0].changes[0].before, "pass");
  EXPECT_EQ(pairs[0].changes[0].after, "fail");
  EXPECT_TRUE(pairs[0].changes[0].regression);
  // No arguments: each model's latest run against the one before it: 2.0 -> 3.0 fixed b (no regression);
  // the other model has one run: nothing to compare.
  const auto latest = history_changes(s, {});
  ASSERT_EQ(latest.size(), 1u);
  EXPECT_EQ(latest[0].before.driver, "2.0");
  EXPECT_EQ(latest[0].after.driver, "3.0");
  EXPECT_EQ(latest[0].regressions, 0);
  EXPECT_TRUE(history_regressions(s).empty());
  // Since the last driver: "--between driver" alone compares the latest run with the latest of another driver.
  EXPECT_EQ(history_changes(s, {.gpu = "", .axis = "driver", .from = "", .to = "2.0"}).at(0).before.driver, "1.0");
}

TEST(HistoryQueries, ACaseOrClaimSaysWhereItFailedAndSinceWhen) {
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  three_drivers(s);
  const ItemHistory b = history_of_item(s, kB);
  EXPECT_EQ(b.runs_seen, 3);
  ASSERT_EQ(b.failures.size(), 1u);
  EXPECT_EQ(b.failures[0].gpu_name, "NVIDIA Test GPU");
  EXPECT_EQ(b.failures[0].driver, "2.0");
  EXPECT_EQ(b.failures[0].outcome, "fail");
  EXPECT_EQ(b.failures[0].first_date, "2026-02-01T00:00:00Z");
  const ItemHistory claim = history_of_item(s, "claim ldmatrix.rows");
  EXPECT_EQ(claim.runs_seen, 4);
  ASSERT_EQ(claim.failures.size(), 1u);
  EXPECT_EQ(claim.failures[0].outcome, "contradicted");
  EXPECT_TRUE(history_of_item(s, "ldmatrix.sync.aligned.m8n8.x1.b16/a").failures.empty());
  EXPECT_THROW(history_of_item(s, "no/such-case"), HistoryError);
}

TEST(HistoryQueries, TheLatestVerdictPerModelDriverAndToolkit) {
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  three_drivers(s);
  const auto latest = history_latest(s);
  ASSERT_EQ(latest.size(), 4u);  // (Test, 1.0), (Test, 2.0), (Test, 3.0), (Other, 2.0)
  EXPECT_EQ(latest[0].driver, "3.0");  // newest first
}

// The command on the committed reports: 6 H100 run reports, 2 of the H200 pair's GPUs, 2 of one H200
// (cubin and JIT, issues 40-41), 2 of the release of 1b40953 on one H200, unpacked and installed with dpkg (reports/logs/issue43-h200), 6
// audits; the SASS reports, the toolkit matrix and the JSON Schemas are no run or audit and are skipped.
TEST(HistoryCommand, ImportsTheCommittedReportsOnceAndAnswers) {
  TempDir t("history");
  const std::string h = (t.dir / "h.sqlite").string();
  const std::string reports = (fs::path(PTXCTS_SOURCE_DIR) / "reports").string();
  const ProcessResult first = run_process({PTXCTS_COMMAND, "history", "import", "--history", h, reports, "--json"}, 600);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto j = nlohmann::json::parse(first.output);
  EXPECT_EQ(j["added"], 18) << first.output;
  EXPECT_EQ(j["failed"], 0);
  const ProcessResult again = run_process({PTXCTS_COMMAND, "history", "import", "--history", h, reports, "--json"}, 600);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(nlohmann::json::parse(again.output)["added"], 0);
  EXPECT_EQ(nlohmann::json::parse(again.output)["already"], 18);
  const ProcessResult latest = run_process({PTXCTS_COMMAND, "history", "latest", "--history", h, "--json"}, 120);
  ASSERT_EQ(latest.exit_code, 0) << latest.output;
  EXPECT_EQ(nlohmann::json::parse(latest.output).size(), 14u);  // the H200 pair and one H200's cubin run: one model, driver, toolkit
  const ProcessResult bad = run_process({PTXCTS_COMMAND, "history", "case", "--history", h, "no/such-case"}, 120);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("no/such-case: no case (KERNEL/CASE) or claim of that name"), std::string::npos) << bad.output;
  const ProcessResult missing = run_process({PTXCTS_COMMAND, "history", "latest", "--history", h + ".none"}, 120);
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("no history there yet"), std::string::npos) << missing.output;
}

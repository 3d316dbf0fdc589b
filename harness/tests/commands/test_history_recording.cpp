// Recording from `ptxcts run` and `ptxcts audit` (commands/history_recording): a history that fails
// costs no report and no exit status, and says so in one line; `ptxcts run` records by default.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "commands/history_recording.hpp"
#include "history/history_store.hpp"
#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"
#include "history/history_fixture.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

TEST(HistoryRecording, ADamagedHistoryIsSaidOnceAndRecordsNothing) {
  ptxcts::test::TempDir t("history-recording");
  const fs::path junk = t.dir / "junk.sqlite";
  std::ofstream(junk) << std::string(4096, 'x');
  testing::internal::CaptureStderr();
  const auto store = open_history_for_recording({.location = junk.string(), .off = false});
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(store, nullptr);
  EXPECT_NE(said.find("history: not recorded: " + junk.string()), std::string::npos) << said;
  EXPECT_NE(said.find("`ptxcts history import` them later"), std::string::npos) << said;
  EXPECT_EQ(ptxcts::test::file_bytes(junk), std::string(4096, 'x'));
  EXPECT_EQ(open_history_for_recording({.location = "", .off = true}), nullptr);  // --no-history
}

TEST(HistoryRecording, AFailureWhileRecordingNamesTheReportToImportAndThrowsNothing) {
  ptxcts::test::TempDir t("history-recording");
  const std::string file = (t.dir / "h.sqlite").string();
  auto failing = std::make_unique<ptxcts::test::FailingDatabase>(open_database(file));
  ptxcts::test::FailingDatabase* f = failing.get();
  HistoryStore store(std::move(failing));
  f->fail_at(3);
  testing::internal::CaptureStderr();
  EXPECT_NO_THROW(record_run(&store, ptxcts::test::small_run("1.0", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z"),
                             t.dir / "reports" / "run.json"));
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("history: not recorded: "), std::string::npos) << said;
  EXPECT_NE(said.find("(the report is written: " + (t.dir / "reports" / "run.json").string()), std::string::npos) << said;
  EXPECT_TRUE(store.runs().empty());
}

// `ptxcts run` of every case (the fake GPU) records into the default history, its folder private;
// the report files are there whatever the history did.
TEST(HistoryRecording, ARunRecordsIntoTheDefaultHistory) {
  if (!fs::exists(fs::path(PTXCTS_CATALOG_DIR) / "manifest.json")) GTEST_SKIP() << "the build has no catalog";
  ptxcts::test::TempDir t("history-recording");
  const fs::path data = t.dir / "data";
  const ProcessResult r = run_process(
      {"env", "-u", "PTXCTS_HISTORY", "XDG_DATA_HOME=" + data.string(), "PTXCTS_FAKE_MODE=model", PTXCTS_COMMAND, "run",
       "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR, "--runner", PTXCTS_FAKE_RUNNER, "--reports",
       (t.dir / "reports").string()},
      600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("history: recorded in " + (data / "ptxcts" / "history.sqlite").string()), std::string::npos)
      << r.output;
  HistoryStore s((data / "ptxcts" / "history.sqlite").string());
  ASSERT_EQ(s.runs().size(), 1u);
  EXPECT_EQ(fs::status(data / "ptxcts").permissions() & fs::perms::all, fs::perms::owner_all);
}

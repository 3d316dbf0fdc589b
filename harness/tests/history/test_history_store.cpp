// The history store (harness/src/history): recording, reading back, the schema and its migrations,
// and every failure leaving the history as it was (issue 44).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>

#include "history/history_schema.hpp"
#include "history/history_store.hpp"
#include "report/report_reader.hpp"
#include "report/run/report_json.hpp"
#include "support/temp_dir.hpp"
#include "history_fixture.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;
using ptxcts::test::FailingDatabase;
using ptxcts::test::file_bytes;
using ptxcts::test::small_run;
using ptxcts::test::TempDir;

namespace {

// Every test of this binary runs with no history of the user's (CTest sets PTXCTS_HISTORY=off for the
// tests it runs by name; this covers the GoogleTest ones, whose `ptxcts run`s would record otherwise).
const bool kNoUserHistory = [] { return setenv("PTXCTS_HISTORY", "off", 0) == 0; }();

std::int64_t count(HistoryStore& s, const char* table) {
  return as_int(s.db().query(std::string("SELECT COUNT(*) FROM ") + table).at(0).at(0));
}

const RunReport& committed_h100() {
  static const RunReport r = read_run_report_file(
      fs::path(PTXCTS_SOURCE_DIR) / "reports" / "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz");
  return r;
}

}  // namespace

TEST(HistoryStore, RecordsARunAndGivesBackItsOutcomesVerdictsAndReport) {
  ASSERT_TRUE(kNoUserHistory);
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  const RunReport r = small_run("580.1", {{"a", Status::Pass}, {"b", Status::Fail}, {"c", Status::NotSupported}},
                                "2026-01-01T00:00:00Z", Verdict::Contradicted);
  const RecordResult got = s.record(r, "test");
  EXPECT_TRUE(got.added);
  ASSERT_EQ(s.runs().size(), 1u);
  const StoredRun run = s.runs()[0];
  EXPECT_EQ(run.gpu_name, "NVIDIA Test GPU");
  EXPECT_EQ(run.driver, "580.1");
  EXPECT_EQ(run.toolchain, "cubin");
  EXPECT_EQ(run.cases, 3);
  EXPECT_EQ(run.needing_action, 1);  // b failed
  EXPECT_EQ(run.findings, 1);        // the contradicted claim
  const std::vector<std::pair<std::string, std::string>> want = {
      {"ldmatrix.sync.aligned.m8n8.x1.b16/a", "pass"},
      {"ldmatrix.sync.aligned.m8n8.x1.b16/b", "fail"},
      {"ldmatrix.sync.aligned.m8n8.x1.b16/c", "not-supported"}};
  EXPECT_EQ(s.outcomes(run.id), want);
  EXPECT_EQ(s.claim_verdicts(run.id), (std::vector<std::pair<std::string, std::string>>{{"ldmatrix.rows", "contradicted"}}));
  EXPECT_EQ(s.report_text(run.id), report_json(r));
}

TEST(HistoryStore, TheSameReportTwiceIsOneRun) {
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  const RunReport r = small_run("580.1", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z");
  EXPECT_TRUE(s.record(r, "first").added);
  const RecordResult again = s.record(r, "second");
  EXPECT_FALSE(again.added);
  EXPECT_EQ(again.run.source, "first");
  EXPECT_EQ(s.runs().size(), 1u);
  RunReport later = r;
  later.info.date = "2026-01-02T00:00:00Z";  // another run with the same outcomes is another run
  EXPECT_TRUE(s.record(later, "third").added);
  EXPECT_EQ(s.runs().size(), 2u);
}

// A committed report (5,415 cases) comes back as the same text, and a second run with the same
// outcomes (another date) grows the file by far less than the 200 KB: its parts are stored once.
TEST(HistoryStore, ACommittedReportRoundTripsAndARepeatRunGrowsLittle) {
  TempDir t("history");
  const fs::path file = t.dir / "h.sqlite";
  HistoryStore s(file.string());
  const RunReport& r = committed_h100();
  ASSERT_EQ(r.results.size(), 5415u);
  const RecordResult first = s.record(r, "committed");
  EXPECT_EQ(s.report_text(first.run.id), report_json(r));
  s.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const auto one = fs::file_size(file);
  RunReport again = r;
  again.info.date = "2026-12-01T00:00:00Z";
  ASSERT_TRUE(s.record(again, "again").added);
  s.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const auto two = fs::file_size(file);
  EXPECT_LT(two - one, 200u * 1024) << one << " then " << two;
}

TEST(HistorySchema, MigratesFromEveryEarlierVersionInOneTransaction) {
  TempDir t("history");
  const std::string file = (t.dir / "h.sqlite").string();
  {
    auto db = open_database(file);
    EXPECT_EQ(history_schema_version(*db), 0);
    EXPECT_EQ(migrate_history(*db), 0);  // from nothing (version 0) to 1
    EXPECT_EQ(history_schema_version(*db), kHistorySchemaVersion);
  }
  HistoryStore(file).record(small_run("580.1", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z"), "v1");
  // A version 2 of the test's own: the path from 1 is taken, and what 1 held is kept.
  std::vector<Migration> with_v2 = history_migrations();
  with_v2.push_back({.to = 2, .what = "a note per run", .apply = [](Database& db) {
                       db.exec("ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT ''");
                     }});
  std::vector<Migration> failing_v2 = history_migrations();
  failing_v2.push_back({.to = 2, .what = "a step that fails halfway", .apply = [](Database& db) {
                          db.exec("ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT ''");
                          db.exec("CREATE TABLE runs (id INTEGER)");  // exists: fails
                        }});
  auto db = open_database(file);
  EXPECT_THROW(migrate_history(*db, failing_v2), HistoryError);
  EXPECT_EQ(history_schema_version(*db), 1);
  EXPECT_TRUE(db->query("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'note'").empty());  // rolled back
  EXPECT_EQ(migrate_history(*db, with_v2), 1);
  EXPECT_EQ(history_schema_version(*db), 2);
  EXPECT_EQ(as_text(db->query("SELECT driver || '/' || note FROM runs").at(0).at(0)), "580.1/");
}

TEST(HistorySchema, ANewerSchemaIsRefusedUntouched) {
  TempDir t("history");
  const std::string file = (t.dir / "h.sqlite").string();
  HistoryStore(file).record(small_run("580.1", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z"), "v1");
  open_database(file)->exec("UPDATE history_schema SET version = 7; PRAGMA wal_checkpoint(TRUNCATE)");
  const std::string before = file_bytes(file);
  try {
    HistoryStore s(file);
    FAIL() << "a history of schema 7 was opened";
  } catch (const HistoryError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("schema version 7, newer than this ptxcts knows (1)"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(file_bytes(file), before);
}

TEST(HistoryStore, ACorruptOrForeignFileIsRefusedUntouched) {
  TempDir t("history");
  const fs::path junk = t.dir / "junk.sqlite";
  std::ofstream(junk) << std::string(8192, 'x');
  const std::string before = file_bytes(junk);
  try {
    HistoryStore s(junk.string());
    FAIL() << "a file of x's was opened as a history";
  } catch (const HistoryError& e) {
    EXPECT_NE(std::string(e.what()).find(junk.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not an SQLite database or it is damaged"), std::string::npos) << e.what();
  }
  EXPECT_EQ(file_bytes(junk), before);
  const fs::path foreign = t.dir / "foreign.sqlite";
  open_database(foreign.string())->exec("CREATE TABLE notes (x TEXT); PRAGMA wal_checkpoint(TRUNCATE)");
  const std::string foreign_before = file_bytes(foreign);
  EXPECT_THROW(
      {
        try {
          HistoryStore s(foreign.string());
        } catch (const HistoryError& e) {
          EXPECT_NE(std::string(e.what()).find("not a ptxcts history"), std::string::npos) << e.what();
          throw;
        }
      },
      HistoryError);
  EXPECT_EQ(file_bytes(foreign), foreign_before);
}

// A full disk, as SQLite meets it (the database may grow no further: max_page_count): one clear message,
// and the history as it was.
TEST(HistoryStore, AFullDiskLeavesTheHistoryAsItWas) {
  TempDir t("history");
  HistoryStore s((t.dir / "h.sqlite").string());
  s.record(small_run("580.1", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z"), "before");
  const auto pages = as_int(s.db().query("PRAGMA page_count").at(0).at(0));
  s.db().query("PRAGMA max_page_count = " + std::to_string(pages + 2));
  try {
    s.record(committed_h100(), "too big");
    FAIL() << "a report larger than the room left was recorded";
  } catch (const HistoryError& e) {
    EXPECT_NE(std::string(e.what()).find("the disk is full"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s.runs().size(), 1u);
  EXPECT_EQ(count(s, "case_names"), 1);
  EXPECT_EQ(count(s, "report_parts"), 3);  // the first run's result, claim and SASS
}

// A failure at any statement of a recording leaves nothing of it; a process killed there too.
TEST(HistoryStore, ARecordingStoppedAtAnyStatementLeavesNothing) {
  TempDir t("history");
  const std::string file = (t.dir / "h.sqlite").string();
  HistoryStore(file).record(small_run("580.1", {{"a", Status::Pass}}, "2026-01-01T00:00:00Z"), "before");
  const RunReport next = small_run("580.2", {{"a", Status::Fail}, {"b", Status::Pass}}, "2026-01-02T00:00:00Z",
                                   Verdict::Contradicted);
  for (int at = 1; at <= 12; ++at) {
    auto failing = std::make_unique<FailingDatabase>(open_database(file));
    FailingDatabase* f = failing.get();
    HistoryStore s(std::move(failing));
    f->fail_at(at);
    EXPECT_THROW(s.record(next, "stopped"), HistoryError) << "at statement " << at;
    EXPECT_EQ(s.runs().size(), 1u) << "at statement " << at;
    EXPECT_EQ(count(s, "findings"), 0) << "at statement " << at;
  }
  const pid_t child = fork();
  if (child == 0) {  // killed by SIGKILL at its 9th statement, mid-transaction
    auto failing = std::make_unique<FailingDatabase>(open_database(file));
    FailingDatabase* f = failing.get();
    HistoryStore s(std::move(failing));
    f->fail_at(9, true);
    s.record(next, "killed");
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  HistoryStore after(file);
  EXPECT_EQ(after.runs().size(), 1u);
  EXPECT_EQ(as_text(after.db().query("PRAGMA integrity_check").at(0).at(0)), "ok");
  EXPECT_TRUE(after.record(next, "again").added);  // and the next recording goes through
}

// Writers in several processes at once: each report recorded, none lost, no "database is locked".
TEST(HistoryStore, ConcurrentWritersEachRecord) {
  TempDir t("history");
  const std::string file = (t.dir / "h.sqlite").string();
  HistoryStore(file).runs();  // made (a first writer would make it too; here the test measures writers)
  std::vector<pid_t> children;
  for (int w = 0; w < 4; ++w) {
    const pid_t c = fork();
    if (c == 0) {
      try {
        HistoryStore s(file);
        for (int k = 0; k < 5; ++k)
          s.record(small_run(fmt::format("580.{}", w), {{"a", Status::Pass}, {fmt::format("w{}", w), Status::Pass}},
                             fmt::format("2026-01-0{}T00:00:0{}Z", w + 1, k)),
                   "writer");
        _exit(0);
      } catch (const std::exception& e) {
        fprintf(stderr, "writer %d: %s\n", w, e.what());
        _exit(1);
      }
    }
    children.push_back(c);
  }
  for (pid_t c : children) {
    int status = 0;
    waitpid(c, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  HistoryStore s(file);
  EXPECT_EQ(s.runs().size(), 20u);
  EXPECT_EQ(count(s, "case_names"), 5);  // a, w0..w3: each once, whoever wrote it first
}

TEST(HistoryStore, TheDefaultPlaceIsTheUsersDataFolderAndPrivate) {
  TempDir t("history");
  const char* saved = std::getenv("PTXCTS_HISTORY");
  const std::string keep = saved ? saved : "";
  unsetenv("PTXCTS_HISTORY");
  setenv("XDG_DATA_HOME", (t.dir / "data").c_str(), 1);
  EXPECT_EQ(default_history_location(), (t.dir / "data" / "ptxcts" / "history.sqlite").string());
  prepare_history_folder(default_history_location());
  EXPECT_EQ(fs::status(t.dir / "data" / "ptxcts").permissions() & fs::perms::all, fs::perms::owner_all);
  fs::create_directories(t.dir / "shared");
  fs::permissions(t.dir / "shared", fs::perms::all);  // anyone may write there
  EXPECT_THROW(prepare_history_folder((t.dir / "shared" / "h.sqlite").string()), HistoryError);
  unsetenv("XDG_DATA_HOME");
  setenv("PTXCTS_HISTORY", "off", 1);
  EXPECT_EQ(default_history_location(), "");
  if (saved) setenv("PTXCTS_HISTORY", keep.c_str(), 1);
}

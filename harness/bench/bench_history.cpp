// The history (issue 44): recording a run of 5,415 cases (the committed H100 report): the first of its
// suite (every result, claim and SASS new) and a repeat (another date, the same outcomes: what a
// conforming run on a new driver mostly is); target <= 0.2 s and <= 200 KB of growth per conforming
// run (counter bytes_per_run). The questions over 1,000 stored runs (target <= 1 s each), with the naive
// way beside them: reading the JSON reports again (one report here: 1,000 of them cost 1,000 times it).
// Measured (2-core VM under other builds, -O1; CPU time, wall 2-3x): repeat run 103 ms and 43.7 KB;
// first run of a suite 313 ms and 1.9 MB (every case name, part and its hash, once); the questions over
// 1,000 runs 7-67 ms; the naive way 422 ms per report read, so some 420 s for 1,000.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>

#include "history/history_queries.hpp"
#include "history/history_store.hpp"
#include "report/report_reader.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

const std::string kH100 = PTXCTS_SOURCE_DIR "/reports/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz";

const RunReport& h100() {
  static const RunReport r = read_run_report_file(kH100);
  return r;
}

std::uintmax_t db_bytes(HistoryStore& s, const fs::path& file) {
  s.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return fs::file_size(file);
}

// 1,000 runs: 10 recorded (five GPU models x two drivers, a few cases failing on the second driver),
// then each copied 99 times under later dates and other drivers (its outcome codes, claims, problems,
// report rows), so that every question reads what 1,000 real runs would hold.
struct ThousandRuns {
  test::TempDir dir{"bench-history"};
  std::string file = (dir.dir / "h.sqlite").string();
  ThousandRuns() {
    HistoryStore s(file);
    for (int m = 0; m < 5; ++m)
      for (int d = 0; d < 2; ++d) {
        RunReport r = h100();
        r.info.gpu_name = fmt::format("GPU model {}", m);
        r.info.driver_version = fmt::format("58{}.0", d);
        r.info.date = fmt::format("2026-01-0{}T00:00:0{}Z", d + 1, m);
        if (d == 1)
          for (std::size_t i = m; i < r.results.size(); i += 997) r.results[i].status = Status::Fail;
        s.record(r, "bench");
      }
    Database& db = s.db();
    Transaction tx(db);
    for (int k = 1; k < 100; ++k)
      for (std::int64_t base = 1; base <= 10; ++base) copy_run(db, base, k);
    tx.commit();
  }
  static void copy_run(Database& db, std::int64_t base, int k) {
    const std::int64_t id = as_int(db.query(
        "INSERT INTO runs (key, kind, gpu_name, sm, driver, cuda_release, ptxas_version, toolchain, suite_commit, specs, "
        "date, host, gpu_uuid, verdict, cases, needing_action, findings, source, case_list, outcomes) SELECT key || ?2, "
        "kind, gpu_name, sm, driver || ?2, cuda_release, ptxas_version, toolchain, suite_commit, specs, "
        "'2026-' || ?3 || substr(date, 11), host, gpu_uuid, verdict, cases, needing_action, findings, source, case_list, "
        "outcomes FROM runs WHERE id = ?1 RETURNING id",
        {base, fmt::format(".{}", k), fmt::format("{:02}-{:02}", 2 + k / 28, 1 + k % 28)})
                                           .at(0)
                                           .at(0));
    db.query("INSERT INTO claim_verdicts SELECT ?2, claim, verdict FROM claim_verdicts WHERE run_id = ?1", {base, id});
    db.query("INSERT INTO case_problems SELECT ?2, case_id, outcome FROM case_problems WHERE run_id = ?1", {base, id});
    db.query("INSERT INTO findings SELECT ?2, id, subject, text FROM findings WHERE run_id = ?1", {base, id});
    db.query("INSERT INTO reports SELECT ?2, body, parts FROM reports WHERE run_id = ?1", {base, id});
  }
};

ThousandRuns& thousand() {
  static ThousandRuns t;
  return t;
}

}  // namespace

// The first run of a suite: every part new. A fresh history per iteration (not timed).
static void BM_HistoryRecord_FirstRun(benchmark::State& state) {
  const RunReport& r = h100();
  std::uintmax_t bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    test::TempDir dir("bench-history");
    {
      HistoryStore s((dir.dir / "h.sqlite").string());
      state.ResumeTiming();
      s.record(r, "bench");
      state.PauseTiming();
      bytes = db_bytes(s, dir.dir / "h.sqlite");
    }
    state.ResumeTiming();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_HistoryRecord_FirstRun)->Unit(benchmark::kMillisecond)->UseRealTime();

// A conforming run again (another date): what each run of a lab's upgrade costs; the growth per run.
static void BM_HistoryRecord_RepeatRun(benchmark::State& state) {
  test::TempDir dir("bench-history");
  const fs::path file = dir.dir / "h.sqlite";
  HistoryStore s(file.string());
  RunReport r = h100();
  s.record(r, "bench");
  const std::uintmax_t first = db_bytes(s, file);
  int n = 0;
  for (auto _ : state) {
    r.info.date = fmt::format("2027-01-01T00:00:{:02}.{}Z", n % 60, n);
    ++n;
    s.record(r, "bench");
  }
  state.counters["bytes_per_run"] = static_cast<double>(db_bytes(s, file) - first) / n;
}
BENCHMARK(BM_HistoryRecord_RepeatRun)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HistoryQuestion_ChangesOf1000Runs(benchmark::State& state) {
  HistoryStore s(thousand().file);
  for (auto _ : state) benchmark::DoNotOptimize(history_changes(s, {}));
  state.counters["runs"] = static_cast<double>(s.runs().size());
}
BENCHMARK(BM_HistoryQuestion_ChangesOf1000Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HistoryQuestion_ChangesBetweenDrivers(benchmark::State& state) {
  HistoryStore s(thousand().file);
  for (auto _ : state)
    benchmark::DoNotOptimize(history_changes(s, {.gpu = "model 3", .axis = "driver", .from = "580.0", .to = "581.0"}));
}
BENCHMARK(BM_HistoryQuestion_ChangesBetweenDrivers)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HistoryQuestion_CaseOf1000Runs(benchmark::State& state) {
  HistoryStore s(thousand().file);
  const std::string item = case_id(h100().results[3]);
  for (auto _ : state) benchmark::DoNotOptimize(history_of_item(s, item));
}
BENCHMARK(BM_HistoryQuestion_CaseOf1000Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HistoryQuestion_LatestOf1000Runs(benchmark::State& state) {
  HistoryStore s(thousand().file);
  for (auto _ : state) benchmark::DoNotOptimize(history_latest(s));
}
BENCHMARK(BM_HistoryQuestion_LatestOf1000Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HistoryQuestion_RegressionsOf1000Runs(benchmark::State& state) {
  HistoryStore s(thousand().file);
  for (auto _ : state) benchmark::DoNotOptimize(history_regressions(s));
}
BENCHMARK(BM_HistoryQuestion_RegressionsOf1000Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

// The naive way: each question reads every report again; one report's reading here (x 1,000).
static void BM_HistoryNaive_ReadOneReport(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(read_run_report_file(kH100));
}
BENCHMARK(BM_HistoryNaive_ReadOneReport)->Unit(benchmark::kMillisecond)->UseRealTime();

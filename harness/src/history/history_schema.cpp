// history/history_schema: version 1's tables and the migration framework.
#include "history/history_schema.hpp"

#include <fmt/format.h>

namespace ptxcts {

namespace {

// Version 1. A run's cases are a list of case names shared by every run of the same cases
// (case_lists.names: 4-byte little-endian case_names ids) and one outcome code per case
// (runs.outcomes: results/outcome's Outcome, in kOutcomes order, +128 where it needs action);
// case_problems repeats the cases that need action, for the questions about one case. The full
// report is kept as parts: each result, claim and the SASS is stored once whatever number of runs
// have it (report_parts, by content, their text compressed a chunk per run that brought new ones),
// and a run's report row lists its parts (4-byte ids) beside the rest of it, compressed.
void create_v1(Database& db) {
  const auto id = db.auto_id();
  const auto blob = db.blob_type();
  db.exec(fmt::format(R"(
CREATE TABLE history_schema (version INTEGER NOT NULL);
CREATE TABLE case_names (id {0}, name TEXT NOT NULL UNIQUE, family TEXT NOT NULL);
CREATE TABLE case_lists (id {0}, digest TEXT NOT NULL UNIQUE, names {1} NOT NULL);
CREATE TABLE runs (
  id {0}, key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
  gpu_name TEXT NOT NULL, sm TEXT NOT NULL, driver TEXT NOT NULL, cuda_release TEXT NOT NULL,
  ptxas_version TEXT NOT NULL, toolchain TEXT NOT NULL, suite_commit TEXT NOT NULL, specs TEXT NOT NULL,
  date TEXT NOT NULL, host TEXT NOT NULL, gpu_uuid TEXT NOT NULL, verdict TEXT NOT NULL,
  cases BIGINT NOT NULL, needing_action BIGINT NOT NULL, findings BIGINT NOT NULL, source TEXT NOT NULL,
  case_list BIGINT REFERENCES case_lists(id), outcomes {1});
CREATE INDEX runs_series ON runs (kind, gpu_name, toolchain, date);
CREATE TABLE case_problems (run_id BIGINT NOT NULL REFERENCES runs(id), case_id BIGINT NOT NULL
  REFERENCES case_names(id), outcome INTEGER NOT NULL);
CREATE INDEX case_problems_case ON case_problems (case_id);
CREATE TABLE claim_verdicts (run_id BIGINT NOT NULL REFERENCES runs(id), claim TEXT NOT NULL, verdict TEXT NOT NULL);
CREATE INDEX claim_verdicts_run ON claim_verdicts (run_id);
CREATE INDEX claim_verdicts_claim ON claim_verdicts (claim, verdict);
CREATE TABLE findings (run_id BIGINT NOT NULL REFERENCES runs(id), id TEXT NOT NULL, subject TEXT NOT NULL,
  text TEXT NOT NULL);
CREATE INDEX findings_run ON findings (run_id);
CREATE TABLE report_chunks (id {0}, data {1} NOT NULL);
CREATE TABLE report_parts (id {0}, hash TEXT NOT NULL UNIQUE, chunk BIGINT NOT NULL REFERENCES report_chunks(id),
  position INTEGER NOT NULL);
CREATE TABLE reports (run_id BIGINT PRIMARY KEY REFERENCES runs(id), body {1} NOT NULL, parts {1} NOT NULL);
)",
                      id, blob));
}

}  // namespace

const std::vector<Migration>& history_migrations() {
  static const std::vector<Migration> all = {
      {.to = 1, .what = "the first history schema", .apply = create_v1},
  };
  return all;
}

int history_schema_version(Database& db) {
  if (!db.has_table("history_schema")) {
    if (db.has_any_table())
      throw HistoryError(fmt::format("{}: not a ptxcts history (it has tables, but no history_schema): left as it "
                                     "is; give another with --history",
                                     db.where()));
    return 0;
  }
  const auto rows = db.query("SELECT version FROM history_schema");
  if (rows.size() != 1)
    throw HistoryError(fmt::format("{}: damaged history: history_schema has {} rows, expected 1", db.where(),
                                   rows.size()));
  return static_cast<int>(as_int(rows[0].at(0)));
}

int migrate_history(Database& db, const std::vector<Migration>& migrations) {
  const int newest = migrations.empty() ? 0 : migrations.back().to;
  Transaction tx(db);  // also waits for another ptxcts migrating the same database
  const int had = history_schema_version(db);
  if (had > newest)
    throw HistoryError(fmt::format(
        "{}: the history has schema version {}, newer than this ptxcts knows ({}): left untouched; record with a "
        "newer ptxcts, or give another history with --history (or --no-history)",
        db.where(), had, newest));
  if (had == newest) return had;  // the transaction ends unchanged
  for (auto const& m : migrations) {
    if (m.to <= had) continue;
    try {
      m.apply(db);
    } catch (const HistoryError& e) {
      throw HistoryError(fmt::format("migrating to schema {} ({}): {}", m.to, m.what, e.what()));
    }
  }
  if (had == 0) db.query("INSERT INTO history_schema (version) VALUES (?1)", {std::int64_t{newest}});
  else db.query("UPDATE history_schema SET version = ?1", {std::int64_t{newest}});
  tx.commit();
  return had;
}

}  // namespace ptxcts

// The history's schema, one for SQLite and PostgreSQL, versioned: a table `history_schema` holds its
// version, and each migration takes a database from one version to the next, all of them in one
// transaction (a failure, a kill or a full disk leaves it at the version it had). A database of a
// newer version than this build knows is refused, untouched; a database with tables but no
// `history_schema` is not a history and is refused too.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "history/database.hpp"

namespace ptxcts {

// Version 1: runs, case_names, case_lists, case_problems, claim_verdicts, findings, report_parts,
// report_chunks, reports (docs: harness/src/history/README.md).
inline constexpr int kHistorySchemaVersion = 1;

struct Migration {
  int to = 0;            // the version it makes (from to - 1)
  std::string what;      // in a sentence, for messages
  std::function<void(Database&)> apply;
};
// Every migration of this build, in order: migrations()[i].to == i + 1.
const std::vector<Migration>& history_migrations();

// The database's version: 0 where it has no table at all (a new file). Throws HistoryError where it has
// tables but is no history.
int history_schema_version(Database& db);

// Brings `db` to version `migrations.back().to` (or refuses a newer one), in one transaction; returns
// the version it had. HistoryError names the database and the version.
int migrate_history(Database& db, const std::vector<Migration>& migrations = history_migrations());

}  // namespace ptxcts

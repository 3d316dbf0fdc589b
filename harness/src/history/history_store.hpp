// The history: every run and audit report kept in one database (history/database: SQLite by default,
// PostgreSQL for a team or a fleet), in one versioned schema (history/history_schema), compactly: a
// run's identity, each case's outcome (a code per case against the run's list of case names, shared by
// every run of the same cases), each claim's verdict, the findings, and the full report compressed
// beside them. A report is one run however often it is recorded or imported (its content key).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "history/database.hpp"
#include "judge/toolkit_matrix.hpp"
#include "results/results.hpp"

namespace ptxcts {

// What identifies a stored run: the report's own words, and where it came from.
struct StoredRun {
  std::int64_t id = 0;
  std::string key;                 // the content key: SHA-256 of the report's canonical JSON
  std::string kind;                // "run" or "audit"
  std::string gpu_name;            // "NVIDIA H100 80GB HBM3" ("" for an audit)
  std::string sm;                  // "sm_90"
  std::string driver;              // "580.159.04"
  std::string cuda_release;        // "13.0"
  std::string ptxas_version;       // "13.0.88"
  std::string toolchain;           // "cubin" or "jit" (an audit: "ptxas")
  std::string suite_commit;        // "4e93c44"
  std::string specs;               // the specs' identity
  std::string date;                // ISO 8601 UTC, as the report says
  std::string host;
  std::string gpu_uuid;
  std::string verdict;             // the report's verdict line
  std::int64_t cases = 0, needing_action = 0, findings = 0;
  std::string source;              // the file it was imported from, or "ptxcts run"/"ptxcts audit"
};

// What recording did.
struct RecordResult {
  StoredRun run;
  bool added = false;  // false: the same report was already there (nothing written)
};

class HistoryStore {
 public:
  // Opens (creating where missing, and migrating an older schema, in one transaction) the history at
  // `location` (history/database). A newer schema than this build's: HistoryError, the database
  // untouched.
  explicit HistoryStore(const std::string& location);
  explicit HistoryStore(std::unique_ptr<Database> db);
  ~HistoryStore();
  HistoryStore(HistoryStore&&) noexcept;

  Database& db() { return *db_; }
  const std::string& where() const { return db_->where(); }

  // One transaction per report: all of it, or nothing (a kill, a full disk, a busy database).
  RecordResult record(const RunReport& report, const std::string& source);
  RecordResult record(const AuditSummary& audit, const std::string& report_json, const std::string& source);

  // Every stored run, oldest first (by date, then id).
  std::vector<StoredRun> runs();
  // A run's outcomes: case id ("KERNEL/CASE") and outcome token (results/outcome), in the run's order.
  std::vector<std::pair<std::string, std::string>> outcomes(std::int64_t run_id);
  // A run's claim verdicts: claim id and verdict word.
  std::vector<std::pair<std::string, std::string>> claim_verdicts(std::int64_t run_id);
  // The full report as it was recorded (JSON text): a run report as this build writes it (made again
  // from its stored parts, the same text `ptxcts run` wrote), an audit report as it was.
  std::string report_text(std::int64_t run_id);

  // The compact form the questions read: a run's case name ids and outcome codes (an Outcome's index in
  // kOutcomes, +0x80 where the case needs action), and every case name with its family.
  struct Codes {
    std::vector<std::int64_t> cases;
    Blob codes;
  };
  Codes outcome_codes(std::int64_t run_id);
  struct CaseName {
    std::string name, family;
  };
  const std::unordered_map<std::int64_t, CaseName>& case_names();

 private:
  std::unique_ptr<Database> db_;
  std::unordered_map<std::int64_t, CaseName> names_;  // loaded when first asked, again after a record
};

// What an outcome code says.
inline constexpr std::uint8_t kNeedsActionBit = 0x80;
std::string outcome_token_of_code(std::uint8_t code);

// Where the history lives unless told: $PTXCTS_HISTORY, else $XDG_DATA_HOME/ptxcts/history.sqlite,
// else ~/.local/share/ptxcts/history.sqlite; "" where there is no home (nothing is recorded then).
// The folder is made private (util/private_path): never a place another user can write.
std::string default_history_location();
// Makes the folder of an SQLite `location` where it is missing, private (mode 0700, util/private_path);
// throws HistoryError where another user could write there. A postgresql:// location: nothing to do.
void prepare_history_folder(const std::string& location);

}  // namespace ptxcts

// One small interface over the two databases a history lives in: SQLite (a file, through the C API of
// libsqlite3, linked statically) and PostgreSQL (a server, through libpq, loaded with dlopen only when
// a postgresql:// history is asked for). The store (history_store) speaks SQL both understand, with
// numbered parameters ?1, ?2, ... (the PostgreSQL backend writes them $1, $2, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptxcts {

// Every failure of a history: one clear message naming the file or server and what to do.
struct HistoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Blob = std::vector<std::uint8_t>;
// A parameter or a column: NULL, an integer, a text, bytes.
using DbValue = std::variant<std::monostate, std::int64_t, std::string, Blob>;
using DbRow = std::vector<DbValue>;

std::int64_t as_int(const DbValue& v);        // NULL: 0; a text is parsed (PostgreSQL's text results)
std::string as_text(const DbValue& v);        // NULL: ""
const Blob& as_blob(const DbValue& v);        // throws HistoryError for anything but bytes

enum class DbKind { Sqlite, Postgres };

class Database {
 public:
  virtual ~Database() = default;
  virtual DbKind kind() const = 0;
  // The file or the server (its password never shown), as every message names it.
  virtual const std::string& where() const = 0;
  // Statements without results (several, ';'-separated, without parameters).
  virtual void exec(std::string_view sql) = 0;
  // One statement with parameters ?1..?N; its rows. Statements are prepared once and kept.
  virtual std::vector<DbRow> query(std::string_view sql, const std::vector<DbValue>& params = {}) = 0;
  // The same statement for many parameter lists (a run's cases), as fast as the backend allows.
  virtual void run_many(std::string_view sql, const std::vector<std::vector<DbValue>>& params) = 0;
  // One writing transaction: begin takes the write lock at once (SQLite BEGIN IMMEDIATE, waiting for
  // another writer up to the busy timeout); rollback is safe to call after a failed commit.
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  // "INTEGER PRIMARY KEY" / "BIGSERIAL PRIMARY KEY", "BLOB" / "BYTEA": the two spellings of the schema.
  virtual std::string_view auto_id() const = 0;
  virtual std::string_view blob_type() const = 0;
  // Whether the database has a table of that name (SQLite's sqlite_master, PostgreSQL's to_regclass).
  virtual bool has_table(std::string_view name) = 0;
  // Whether it has any table at all (a file of another program's is never taken for an empty history).
  virtual bool has_any_table() = 0;
};

// A history location: a file path (SQLite) or a postgresql:// (or postgres://) URL. SQLite: opened
// (created where missing, `create`), WAL, a busy timeout of 10 s, foreign keys on; a file that is not
// an SQLite database or is damaged throws HistoryError naming it and leaves it as it is.
// PostgreSQL: libpq.so.5 loaded with dlopen; absent: HistoryError saying which package gives it.
std::unique_ptr<Database> open_database(const std::string& location, bool create = true);
bool is_postgres_location(std::string_view location);

// One transaction, rolled back unless committed (a throw on the way out leaves the history as it was).
class Transaction {
 public:
  explicit Transaction(Database& db) : db_(db) { db_.begin(); }
  ~Transaction() {
    if (!done_) db_.rollback();
  }
  void commit() {
    db_.commit();
    done_ = true;
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace ptxcts

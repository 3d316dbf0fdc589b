// The SQLite backend of history/database: libsqlite3's C API (linked statically, harness/CMakeLists.txt),
// a file in WAL mode with a busy timeout, statements prepared once and kept.
#include <sqlite3.h>

#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "history/database.hpp"
#include "history/database_backends.hpp"

namespace ptxcts {

namespace {

namespace fs = std::filesystem;

class SqliteDatabase final : public Database {
 public:
  SqliteDatabase(const std::string& path, bool create);
  ~SqliteDatabase() override;
  DbKind kind() const override { return DbKind::Sqlite; }
  const std::string& where() const override { return where_; }
  void exec(std::string_view sql) override;
  std::vector<DbRow> query(std::string_view sql, const std::vector<DbValue>& params) override;
  void run_many(std::string_view sql, const std::vector<std::vector<DbValue>>& params) override;
  void begin() override { exec("BEGIN IMMEDIATE"); }
  void commit() override { exec("COMMIT"); }
  void rollback() noexcept override {
    if (db_ && !sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  std::string_view auto_id() const override { return "INTEGER PRIMARY KEY"; }
  std::string_view blob_type() const override { return "BLOB"; }
  bool has_table(std::string_view name) override {
    return !query("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", {std::string(name)}).empty();
  }
  bool has_any_table() override { return !query("SELECT 1 FROM sqlite_master WHERE type='table'", {}).empty(); }

 private:
  [[noreturn]] void fail(int rc, std::string_view doing) const;
  sqlite3_stmt* prepared(std::string_view sql);
  void bind(sqlite3_stmt* st, const std::vector<DbValue>& params);
  void step_all(sqlite3_stmt* st, std::vector<DbRow>* rows);

  std::string where_;
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements_;
};

// What a failure means to the user, in words, for the codes a history meets.
std::string advice(int rc) {
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return "it is not an SQLite database or it is damaged; it was left as it is (move it away to start a new "
             "history, or give another with --history)";
    case SQLITE_FULL:
      return "the disk is full; nothing of this report was recorded and the history is as it was";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "another ptxcts held it for longer than 10 s; nothing of this report was recorded";
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      return "it cannot be opened for writing (permissions, or its folder is missing)";
    default:
      return "nothing of this report was recorded";
  }
}

SqliteDatabase::SqliteDatabase(const std::string& path, bool create) : where_(path) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (create) flags |= SQLITE_OPEN_CREATE;
  if (int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr); rc != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw HistoryError(fmt::format("{}: the history (SQLite) cannot be opened: {}: {}", where_, msg, advice(rc)));
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, 10000);
  // The first read of the file: a damaged or foreign file says so here, before anything is written.
  exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
}

SqliteDatabase::~SqliteDatabase() {
  for (auto& [sql, st] : statements_) sqlite3_finalize(st);
  if (db_) sqlite3_close_v2(db_);
}

void SqliteDatabase::fail(int rc, std::string_view doing) const {
  const char* msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  throw HistoryError(fmt::format("{}: the history (SQLite) failed {}: {}: {}", where_, doing, msg, advice(rc)));
}

void SqliteDatabase::exec(std::string_view sql) {
  const std::string text(sql);
  char* err = nullptr;
  if (int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
    sqlite3_free(err);
    fail(rc, fmt::format("at '{}'", text.substr(0, 40)));
  }
}

sqlite3_stmt* SqliteDatabase::prepared(std::string_view sql) {
  if (auto it = statements_.find(sql); it != statements_.end()) {
    sqlite3_reset(it->second);
    sqlite3_clear_bindings(it->second);
    return it->second;
  }
  sqlite3_stmt* st = nullptr;
  if (int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st,
                                  nullptr);
      rc != SQLITE_OK)
    fail(rc, fmt::format("preparing '{}'", sql.substr(0, 40)));
  statements_.emplace(std::string(sql), st);
  return st;
}

void SqliteDatabase::bind(sqlite3_stmt* st, const std::vector<DbValue>& params) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int at = static_cast<int>(i + 1);
    int rc = SQLITE_OK;
    if (auto n = std::get_if<std::int64_t>(&params[i])) rc = sqlite3_bind_int64(st, at, *n);
    else if (auto s = std::get_if<std::string>(&params[i]))
      rc = sqlite3_bind_text64(st, at, s->data(), s->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    else if (auto b = std::get_if<Blob>(&params[i]))  // no bytes are bytes still, never NULL
      rc = b->empty() ? sqlite3_bind_zeroblob(st, at, 0) : sqlite3_bind_blob64(st, at, b->data(), b->size(), SQLITE_TRANSIENT);
    else rc = sqlite3_bind_null(st, at);
    if (rc != SQLITE_OK) fail(rc, "binding a value");
  }
}

void SqliteDatabase::step_all(sqlite3_stmt* st, std::vector<DbRow>* rows) {
  for (;;) {
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      sqlite3_reset(st);
      fail(rc, fmt::format("at '{}'", std::string_view(sqlite3_sql(st)).substr(0, 40)));
    }
    if (!rows) continue;
    DbRow row;
    const int n = sqlite3_column_count(st);
    for (int c = 0; c < n; ++c) switch (sqlite3_column_type(st, c)) {
        case SQLITE_INTEGER: row.emplace_back(std::int64_t{sqlite3_column_int64(st, c)}); break;
        case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
        case SQLITE_BLOB: {
          auto p = static_cast<const std::uint8_t*>(sqlite3_column_blob(st, c));
          row.emplace_back(Blob(p, p + sqlite3_column_bytes(st, c)));
          break;
        }
        default: {
          auto p = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
          row.emplace_back(std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(st, c))));
        }
      }
    rows->push_back(std::move(row));
  }
  sqlite3_reset(st);
}

std::vector<DbRow> SqliteDatabase::query(std::string_view sql, const std::vector<DbValue>& params) {
  sqlite3_stmt* st = prepared(sql);
  bind(st, params);
  std::vector<DbRow> rows;
  step_all(st, &rows);
  return rows;
}

void SqliteDatabase::run_many(std::string_view sql, const std::vector<std::vector<DbValue>>& params) {
  for (auto const& p : params) {
    sqlite3_stmt* st = prepared(sql);
    bind(st, p);
    step_all(st, nullptr);
  }
}

}  // namespace

std::unique_ptr<Database> open_sqlite_database(const std::string& path, bool create) {
  if (!create && !fs::exists(path)) throw HistoryError(fmt::format("{}: no history there", path));
  return std::make_unique<SqliteDatabase>(path, create);
}

}  // namespace ptxcts

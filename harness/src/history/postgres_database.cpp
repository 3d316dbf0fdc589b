// The PostgreSQL backend of history/database: libpq (libpq.so.5) loaded with dlopen when a
// postgresql:// history is asked for, so that a release runs without it everywhere else. Results are
// read as text (bytea as hex), bytes sent as binary parameters; one writer at a time holds a
// transaction-scoped advisory lock, as SQLite's BEGIN IMMEDIATE does.
#include <dlfcn.h>
#include <libpq-fe.h>

#include <fmt/format.h>

#include "history/database.hpp"
#include "history/database_backends.hpp"

namespace ptxcts {

namespace {

// The functions of libpq this backend calls, looked up once.
struct Libpq {
  decltype(&PQconnectdb) connectdb = nullptr;
  decltype(&PQstatus) status = nullptr;
  decltype(&PQerrorMessage) error_message = nullptr;
  decltype(&PQfinish) finish = nullptr;
  decltype(&PQexec) exec = nullptr;
  decltype(&PQexecParams) exec_params = nullptr;
  decltype(&PQresultStatus) result_status = nullptr;
  decltype(&PQresultErrorMessage) result_error = nullptr;
  decltype(&PQclear) clear = nullptr;
  decltype(&PQntuples) ntuples = nullptr;
  decltype(&PQnfields) nfields = nullptr;
  decltype(&PQgetvalue) getvalue = nullptr;
  decltype(&PQgetlength) getlength = nullptr;
  decltype(&PQgetisnull) getisnull = nullptr;
  decltype(&PQftype) ftype = nullptr;
};

const Libpq& libpq() {
  static const Libpq lib = [] {
    void* h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!h)
      throw HistoryError(fmt::format(
          "a postgresql:// history needs libpq (libpq.so.5, Debian's package libpq5), which cannot be loaded: {}",
          dlerror()));
    Libpq l;
    auto get = [h](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      if (!fn) throw HistoryError(fmt::format("libpq.so.5 lacks {}: too old a libpq", name));
    };
    get(l.connectdb, "PQconnectdb"), get(l.status, "PQstatus"), get(l.error_message, "PQerrorMessage");
    get(l.finish, "PQfinish"), get(l.exec, "PQexec"), get(l.exec_params, "PQexecParams");
    get(l.result_status, "PQresultStatus"), get(l.result_error, "PQresultErrorMessage"), get(l.clear, "PQclear");
    get(l.ntuples, "PQntuples"), get(l.nfields, "PQnfields"), get(l.getvalue, "PQgetvalue");
    get(l.getlength, "PQgetlength"), get(l.getisnull, "PQgetisnull"), get(l.ftype, "PQftype");
    return l;
  }();
  return lib;
}

// The URL without its password, as messages name the server.
std::string without_password(const std::string& url) {
  const auto scheme = url.find("://");
  const auto at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + ":***" + url.substr(at);
}

// ?1 -> $1: the store's parameters in PostgreSQL's spelling (its SQL holds no '?' in a literal).
std::string numbered(std::string_view sql) {
  std::string out(sql);
  for (auto& c : out)
    if (c == '?') c = '$';
  return out;
}

Blob from_hex_bytea(const char* text, int length) {
  Blob b;
  if (length < 2 || text[0] != '\\' || text[1] != 'x') return Blob(text, text + length);
  auto nibble = [](char c) { return static_cast<std::uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10); };
  b.reserve(static_cast<std::size_t>(length - 2) / 2);
  for (int i = 2; i + 1 < length; i += 2) b.push_back(static_cast<std::uint8_t>(nibble(text[i]) << 4 | nibble(text[i + 1])));
  return b;
}

class PostgresDatabase final : public Database {
 public:
  explicit PostgresDatabase(const std::string& url) : where_(without_password(url)) {
    conn_ = libpq().connectdb(url.c_str());
    if (libpq().status(conn_) != CONNECTION_OK) {
      const std::string msg = libpq().error_message(conn_);
      libpq().finish(conn_);
      conn_ = nullptr;
      throw HistoryError(fmt::format("{}: the history (PostgreSQL) cannot be reached: {}", where_, trimmed(msg)));
    }
    exec("SET client_min_messages = warning");
  }
  ~PostgresDatabase() override {
    if (conn_) libpq().finish(conn_);
  }
  DbKind kind() const override { return DbKind::Postgres; }
  const std::string& where() const override { return where_; }
  void exec(std::string_view sql) override {
    PGresult* r = libpq().exec(conn_, std::string(sql).c_str());
    check(r, sql);
    libpq().clear(r);
  }
  std::vector<DbRow> query(std::string_view sql, const std::vector<DbValue>& params) override;
  void run_many(std::string_view sql, const std::vector<std::vector<DbValue>>& params) override {
    for (auto const& p : params) query(sql, p);
  }
  void begin() override { exec("BEGIN; SELECT pg_advisory_xact_lock(4404)"); }
  void commit() override { exec("COMMIT"); }
  void rollback() noexcept override {
    if (conn_) libpq().clear(libpq().exec(conn_, "ROLLBACK"));
  }
  std::string_view auto_id() const override { return "BIGSERIAL PRIMARY KEY"; }
  std::string_view blob_type() const override { return "BYTEA"; }
  bool has_table(std::string_view name) override {
    return as_text(query("SELECT to_regclass(?1)::text", {std::string(name)}).at(0).at(0)) == name;
  }
  bool has_any_table() override {
    return !query("SELECT 1 FROM pg_tables WHERE schemaname = current_schema()", {}).empty();
  }

 private:
  static std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }
  void check(PGresult* r, std::string_view sql) {
    const auto st = libpq().result_status(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return;
    const std::string msg = r ? libpq().result_error(r) : libpq().error_message(conn_);
    libpq().clear(r);
    throw HistoryError(fmt::format("{}: the history (PostgreSQL) failed at '{}': {}; nothing of this report was recorded",
                                   where_, sql.substr(0, 40), trimmed(msg)));
  }
  DbRow row_of(PGresult* r, int i);

  std::string where_;
  PGconn* conn_ = nullptr;
};

DbRow PostgresDatabase::row_of(PGresult* r, int i) {
  const auto& pq = libpq();
  DbRow row;
  for (int c = 0; c < pq.nfields(r); ++c) {
    if (pq.getisnull(r, i, c)) {
      row.emplace_back(std::monostate{});
      continue;
    }
    const char* v = pq.getvalue(r, i, c);
    const int n = pq.getlength(r, i, c);
    switch (pq.ftype(r, c)) {
      case 17: row.emplace_back(from_hex_bytea(v, n)); break;                       // bytea
      case 20: case 21: case 23: row.emplace_back(as_int(std::string(v, n))); break;  // int8, int2, int4
      default: row.emplace_back(std::string(v, static_cast<std::size_t>(n)));
    }
  }
  return row;
}

std::vector<DbRow> PostgresDatabase::query(std::string_view sql, const std::vector<DbValue>& params) {
  std::vector<std::string> texts(params.size());
  std::vector<const char*> values(params.size(), nullptr);
  std::vector<int> lengths(params.size(), 0), formats(params.size(), 0);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (auto b = std::get_if<Blob>(&params[i])) {
      values[i] = reinterpret_cast<const char*>(b->data());
      lengths[i] = static_cast<int>(b->size());
      formats[i] = 1;
    } else if (!std::holds_alternative<std::monostate>(params[i])) {
      texts[i] = as_text(params[i]);
      values[i] = texts[i].c_str();
    }
  }
  PGresult* r = libpq().exec_params(conn_, numbered(sql).c_str(), static_cast<int>(params.size()), nullptr,
                                    values.data(), lengths.data(), formats.data(), 0);
  check(r, sql);
  std::vector<DbRow> rows;
  for (int i = 0; i < libpq().ntuples(r); ++i) rows.push_back(row_of(r, i));
  libpq().clear(r);
  return rows;
}

}  // namespace

std::unique_ptr<Database> open_postgres_database(const std::string& url) {
  return std::make_unique<PostgresDatabase>(url);
}

}  // namespace ptxcts

// history/database: the values, and which backend a location names.
#include "history/database.hpp"

#include <charconv>

#include "history/database_backends.hpp"

namespace ptxcts {

std::int64_t as_int(const DbValue& v) {
  if (auto n = std::get_if<std::int64_t>(&v)) return *n;
  if (auto s = std::get_if<std::string>(&v)) {
    std::int64_t n = 0;
    std::from_chars(s->data(), s->data() + s->size(), n);
    return n;
  }
  return 0;
}

std::string as_text(const DbValue& v) {
  if (auto s = std::get_if<std::string>(&v)) return *s;
  if (auto n = std::get_if<std::int64_t>(&v)) return std::to_string(*n);
  if (auto b = std::get_if<Blob>(&v)) return std::string(b->begin(), b->end());
  return "";
}

const Blob& as_blob(const DbValue& v) {
  if (auto b = std::get_if<Blob>(&v)) return *b;
  throw HistoryError("the history holds a value that should be bytes and is not");
}

bool is_postgres_location(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::unique_ptr<Database> open_database(const std::string& location, bool create) {
  if (is_postgres_location(location)) return open_postgres_database(location);
  return open_sqlite_database(location, create);
}

}  // namespace ptxcts

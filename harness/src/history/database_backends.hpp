// The two backends of history/database, for its open_database alone.
#pragma once

#include <memory>
#include <string>

#include "history/database.hpp"

namespace ptxcts {

std::unique_ptr<Database> open_sqlite_database(const std::string& path, bool create);
std::unique_ptr<Database> open_postgres_database(const std::string& url);

}  // namespace ptxcts

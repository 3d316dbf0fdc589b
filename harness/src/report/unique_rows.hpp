#pragma once

#include <fmt/format.h>

#include <climits>
#include <cstdint>
#include <map>
#include <string>

#include "util/json_document.hpp"

namespace ptxcts {

// The largest count a report's reader takes: beyond any real report, far from overflow.
constexpr std::int64_t kMaxReportCount = INT64_MAX / 2;

// Each row once: the audit's and the matrix's readers refuse a key seen before, naming both places
// (the matrix matches rows of two reports by key; the page shows a row per key).
struct UniqueRows {
  std::map<std::string, std::string> first;  // key -> path of its first row
  void check(const JsonNode& n, const std::string& key, const char* what) {
    auto [at, fresh] = first.emplace(key, n.path());
    if (!fresh) n.fail(fmt::format("duplicate {} {} (first at {})", what, key, at->second));
  }
};

}  // namespace ptxcts

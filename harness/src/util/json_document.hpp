// A JSON file read with places: every value's path ("findings[3].id") and FILE:LINE:COLUMN, so that a
// reader says where an input is wrong and what it expected. The limits of util/json_text hold
// (nesting, numbers too large for a double); duplicate keys are refused. Generic: it knows nothing
// of what the file means.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxcts {

// Bad input: "FILE:LINE:COLUMN: PATH: what was expected".
struct JsonInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonNode;

// The parsed text and where each value starts. Throws JsonInputError for text that is not JSON
// (placed), too deep, with a number out of range or a duplicate key.
class JsonDocument {
 public:
  JsonDocument(std::string text, std::string file);
  JsonNode root() const;
  [[noreturn]] void fail(const std::string& path, const std::string& what) const;
  // "FILE:LINE:COLUMN" of the value at `path` (or the nearest recorded one above it).
  std::string where(const std::string& path) const;
  const std::string& file() const { return file_; }

 private:
  std::string text_, file_;
  nlohmann::ordered_json json_;
  mutable std::optional<std::map<std::string, std::size_t>> starts_;  // found when first asked for
  const std::map<std::string, std::size_t>& starts() const;
  [[noreturn]] void fail_at(std::size_t offset, const std::string& path, const std::string& what) const;
  std::size_t offset(const std::string& path) const;
};

// One value, with its path: every accessor says what it expected when it fails.
class JsonNode {
 public:
  JsonNode(const JsonDocument& doc, const nlohmann::ordered_json& j, std::string path)
      : doc_(&doc), j_(&j), path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& what) const { doc_->fail(path_, what); }
  const std::string& path() const { return path_; }
  // An object with these keys (each required) and perhaps those of `optional`; any other key fails.
  const JsonNode& object(const std::vector<const char*>& keys, const std::vector<const char*>& optional = {}) const;
  bool has(const char* key) const { return j_->is_object() && j_->contains(key); }
  bool is_null() const { return j_->is_null(); }
  // Its type, and a scalar's value (cut at 80 characters), as the errors quote what they got.
  std::string describe() const;
  JsonNode at(const char* key) const;
  std::string str() const;
  bool boolean() const;
  std::int64_t integer(std::int64_t min, std::int64_t max) const;
  std::vector<JsonNode> items() const;
  std::vector<std::string> strings() const;
  // The string read by `from_string`, which throws std::invalid_argument saying what it expected.
  template <class F>
  auto convert(F&& from_string) const {
    const std::string s = str();
    try {
      return from_string(s);
    } catch (const std::invalid_argument& e) { fail(e.what()); }
  }
  const nlohmann::ordered_json& json() const { return *j_; }

 private:
  const JsonDocument* doc_;
  const nlohmann::ordered_json* j_;
  std::string path_;
};

}  // namespace ptxcts

// Strict reading of YAML nodes: every access names what was expected, every map is checked for
// unknown keys, and every error carries file:line:column.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "spec/spec_error.hpp"

namespace ptxcts {

class YamlReader {
 public:
  YamlReader(std::string file, YAML::Node node, std::string what)
      : file_(std::move(file)), node_(std::move(node)), what_(std::move(what)) {}

  SourceLocation where() const;
  [[noreturn]] void fail(const std::string& message) const;
  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }

  // Maps. `keys` lists every key allowed here; any other key is an error.
  YamlReader& expect_map(std::initializer_list<const char*> keys);
  YamlReader& expect_map(const std::vector<std::string>& keys);  // keys known only at run time
  bool has(const char* key) const;
  YamlReader at(const char* key) const;                                                   // required
  std::vector<std::pair<YamlReader, YamlReader>> entries(const std::string& what) const;  // any map

  // Sequences.
  std::vector<YamlReader> items(const std::string& what) const;

  // Scalars.
  std::string str() const;
  std::int64_t integer(std::int64_t min, std::int64_t max) const;
  bool boolean() const;
  // Column of character `offset` of this scalar's text (quoted scalars start one later).
  SourceLocation where_in_scalar(std::size_t offset) const;

 private:
  void check_unique_keys() const;
  std::string file_;
  YAML::Node node_;
  std::string what_;
};

// Parses YAML text; a syntax error becomes a SpecError at the parser's position.
YAML::Node parse_yaml(const std::string& file, const std::string& text);

// A name in a spec (variant, case, claim, ...): letters, digits, '.', '-' and '_', at most 64.
std::string read_identifier(const YamlReader& r, const std::string& what);

}  // namespace ptxcts

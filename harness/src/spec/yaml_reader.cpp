#include "spec/yaml_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/depthguard.h>

#include <map>
#include <string_view>

#include "util/utf8_text.hpp"

namespace ptxcts {

static const char* kind_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "nothing (null)";
    default: return "nothing";
  }
}

SourceLocation YamlReader::where() const {
  YAML::Mark m = node_.Mark();
  if (m.is_null()) return {.file = file_, .line = 0, .column = 0};
  return {.file = file_, .line = m.line + 1, .column = m.column + 1};
}

void YamlReader::fail(const std::string& message) const { throw SpecError(where(), message); }

YamlReader& YamlReader::expect_map(std::initializer_list<const char*> keys) {
  return expect_map(std::vector<std::string>(keys.begin(), keys.end()));
}

YamlReader& YamlReader::expect_map(const std::vector<std::string>& keys) {
  if (!node_.IsMap()) fail(fmt::format("expected {} (a map) but found {}", what_, kind_name(node_)));
  check_unique_keys();
  for (auto const& kv : node_) {
    YamlReader key(file_, kv.first, what_ + " key");
    if (!kv.first.IsScalar()) key.fail(fmt::format("expected a plain key in {}", what_));
    std::string k = kv.first.Scalar();
    bool known = false;
    for (auto const& allowed : keys) known = known || k == allowed;
    if (!known) key.fail(fmt::format("unknown key '{}' in {}; expected one of: {}", k, what_, fmt::join(keys, ", ")));
  }
  return *this;
}

// yaml-cpp keeps a repeated key and answers lookups with the first: refuse it instead.
void YamlReader::check_unique_keys() const {
  std::map<std::string, SourceLocation> seen;
  for (auto const& kv : node_) {
    if (!kv.first.IsScalar()) continue;
    YamlReader key(file_, kv.first, what_ + " key");
    auto [it, fresh] = seen.emplace(kv.first.Scalar(), key.where());
    if (!fresh)
      key.fail(fmt::format("duplicate key '{}' in {} (first at {})", kv.first.Scalar(), what_, it->second.str()));
  }
}

bool YamlReader::has(const char* key) const { return node_.IsMap() && node_[key].IsDefined(); }

YamlReader YamlReader::at(const char* key) const {
  if (!node_.IsMap()) fail(fmt::format("expected {} (a map) but found {}", what_, kind_name(node_)));
  YAML::Node child = node_[key];
  if (!child.IsDefined()) fail(fmt::format("{} is missing required key '{}'", what_, key));
  return YamlReader(file_, child, fmt::format("'{}' of {}", key, what_));
}

std::vector<std::pair<YamlReader, YamlReader>> YamlReader::entries(const std::string& what) const {
  if (!node_.IsMap()) fail(fmt::format("expected {} (a map) but found {}", what, kind_name(node_)));
  check_unique_keys();
  std::vector<std::pair<YamlReader, YamlReader>> out;
  for (auto const& kv : node_) {
    YamlReader key(file_, kv.first, what + " key");
    if (!kv.first.IsScalar()) key.fail(fmt::format("expected a plain key in {}", what));
    out.emplace_back(key, YamlReader(file_, kv.second, fmt::format("'{}' of {}", kv.first.Scalar(), what)));
  }
  return out;
}

std::vector<YamlReader> YamlReader::items(const std::string& what) const {
  if (!node_.IsSequence()) fail(fmt::format("expected {} (a list) but found {}", what, kind_name(node_)));
  std::vector<YamlReader> out;
  std::size_t index = 0;
  for (auto const& item : node_) out.emplace_back(file_, item, fmt::format("item {} of {}", index++, what));
  return out;
}

std::string YamlReader::str() const {
  if (!node_.IsScalar()) fail(fmt::format("expected {} (a string) but found {}", what_, kind_name(node_)));
  return node_.Scalar();
}

std::int64_t YamlReader::integer(std::int64_t min, std::int64_t max) const {
  std::string s = str();
  std::int64_t v = 0;
  bool ok = !s.empty() && s.size() <= 12;
  for (std::size_t k = 0; ok && k < s.size(); ++k)
    ok = (s[k] >= '0' && s[k] <= '9') || (k == 0 && s[k] == '-' && s.size() > 1);
  if (ok) v = std::stoll(s);
  if (!ok || v < min || v > max)
    fail(fmt::format("expected {} to be an integer from {} to {} but found '{}'", what_, min, max, s));
  return v;
}

bool YamlReader::boolean() const {
  std::string s = str();
  if (s == "true") return true;
  if (s == "false") return false;
  fail(fmt::format("expected {} to be true or false but found '{}'", what_, s));
}

SourceLocation YamlReader::where_in_scalar(std::size_t offset) const {
  SourceLocation w = where();
  bool quoted = node_.Tag() == "!";
  w.column += static_cast<int>(offset) + (quoted ? 1 : 0);
  return w;
}

namespace {

// Moves `i` from the opening quote of a quoted scalar (" or ') to its closing quote (or the text's
// end), counting the lines and columns it passes.
void skip_quoted(const std::string& text, std::size_t& i, int& line, int& column) {
  const char c = text[i];
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\n') ++line, column = 0;
    else ++column;
    if (c == '"' && text[i] == '\\') {
      ++i, ++column;
    } else if (text[i] == c) {
      if (c == '\'' && i + 1 < text.size() && text[i + 1] == '\'') ++i, ++column;  // '' inside '...'
      else break;
    }
  }
}

// yaml-cpp parses nested flow collections recursively: absurd depth is refused before it does.
// Only brackets that open flow collections count: not those in comments, quoted scalars, block
// scalars (| and >) or plain text (a[0]). Outside a flow collection a bracket opens one only where a
// value starts (line start, after "- ", ": " or "? "); inside one, every unquoted bracket does.
void refuse_deep_flow(const std::string& file, const std::string& text) {
  constexpr int kMaxDepth = 64;
  int depth = 0, line = 1, column = 0, indent = 0;
  int block_indent = -1;  // inside a block scalar: the indentation of the line that began it
  bool line_start = true, gap = false;
  char prev = '\n';  // the last character on this line that was not a space ('\n': none yet)
  auto skip_line = [&](std::size_t& i) { i = std::min(text.find('\n', i), text.size()) - 1; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++column;
    if (c == '\n') {
      ++line, column = 0, indent = 0, line_start = true, gap = false, prev = '\n';
      continue;
    }
    if (c == ' ' || c == '\t') {
      indent += line_start;
      gap = true;
      continue;
    }
    if (line_start) {
      line_start = false;
      if (block_indent >= 0 && indent > block_indent) {  // a block scalar's line: text, not YAML
        skip_line(i);
        continue;
      }
      block_indent = -1;
    }
    const bool after_indicator = prev == '\n' || (gap && (prev == ':' || prev == '-' || prev == '?'));
    const bool value_start =
        depth > 0 ? prev == '\n' || gap || prev == ',' || prev == '[' || prev == '{' || prev == ':' : after_indicator;
    gap = false;
    if (c == '#' && (prev == '\n' || text[i - 1] == ' ' || text[i - 1] == '\t')) {  // a comment
      skip_line(i);
      continue;
    }
    if ((c == '"' || c == '\'') && value_start) {  // a quoted scalar, perhaps over several lines
      skip_quoted(text, i, line, column);
      prev = c;
      continue;
    }
    if ((c == '|' || c == '>') && depth == 0 && after_indicator) {
      block_indent = indent;
      skip_line(i);
      continue;
    }
    if ((c == '[' || c == '{') && (depth > 0 || value_start)) {
      if (++depth > kMaxDepth)
        throw SpecError({.file = file, .line = line, .column = column},
                        fmt::format("flow collections nested more than {} deep", kMaxDepth));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    prev = c;
  }
}

}  // namespace

YAML::Node parse_yaml(const std::string& file, const std::string& text) {
  if (auto bad = first_invalid_utf8(text)) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < *bad; ++i) text[i] == '\n' ? (++line, column = 1) : ++column;
    throw SpecError({.file = file, .line = line, .column = column},
                    fmt::format("byte 0x{:02x} is not UTF-8; expected a spec file in UTF-8",
                                static_cast<unsigned char>(text[*bad])));
  }
  refuse_deep_flow(file, text);
  int line = 1;
  // One document per file, and nothing after its end: YAML::Load reads the first document and drops
  // the rest silently. (Found by line rather than with YAML::LoadAll, which loops forever on some
  // inputs in yaml-cpp 0.7, e.g. a top-level '"a",' — found by the fuzzer.)
  bool started = false;  // the document has begun: a '---' or a line of content
  int ended = 0;         // the line of the '...' that ended it
  line = 1;
  for (std::size_t at = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; at < text.size(); ++line) {
    std::size_t nl = text.find('\n', at);
    std::string_view l(text.data() + at, (nl == std::string::npos ? text.size() : nl) - at);
    auto marker = [&](std::string_view m) {
      return l.substr(0, 3) == m && (l.size() == 3 || l[3] == ' ' || l[3] == '\r' || l[3] == '\t');
    };
    std::size_t first = l.find_first_not_of(" \t\r");
    bool blank = first == std::string_view::npos || l[first] == '#';
    if (ended && !blank)
      throw SpecError(
          {.file = file, .line = line, .column = static_cast<int>(first) + 1},
          fmt::format("a spec file must hold one YAML document; this line comes after its end ('...' on line {})",
                      ended));
    if (marker("---")) {
      if (started)
        throw SpecError({.file = file, .line = line, .column = 1},
                        "a spec file must hold one YAML document; found another here");
      started = true;
    } else if (marker("...")) {
      ended = line;
    } else if (!blank && !(l[0] == '%' && !started)) {  // directives (%YAML) come before the document
      started = true;
    }
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  try {
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {  // block nesting: yaml-cpp's own guard, whose message says "bad file"
    throw SpecError({.file = file, .line = e.mark.line + 1, .column = e.mark.column + 1},
                    "collections nested too deeply for the YAML parser (its recursion limit); expected a spec file, "
                    "which nests a few levels");
  } catch (const YAML::Exception& e) {
    throw SpecError({.file = file, .line = e.mark.line + 1, .column = e.mark.column + 1}, "invalid YAML: " + e.msg);
  }
}

std::string read_identifier(const YamlReader& r, const std::string& what) {
  std::string s = r.str();
  bool ok = !s.empty() && s.size() <= 64;
  for (char c : s) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
  if (!ok)
    r.fail(fmt::format("expected {} made of letters, digits, '.', '-' and '_' (at most 64) but found '{}'", what, s));
  return s;
}

}  // namespace ptxcts

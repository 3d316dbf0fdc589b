#include "util/json_document.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "util/json_text.hpp"

namespace ptxcts {
namespace {

using Json = nlohmann::ordered_json;

std::string member_path(const std::string& object, const std::string& key) {
  return object.empty() ? key : object + "." + key;
}

// A SAX pass recording where each value starts, by path. At each event the lexer has consumed
// exactly the token just reported (numbers excepted, never containers or keys), so offsets are exact.
class PositionRecorder final : public nlohmann::json_sax<Json> {
 public:
  PositionRecorder(const std::string& text, std::istream& in) : text_(text), in_(in) {}
  std::map<std::string, std::size_t> starts;
  struct Duplicate {
    std::string path, key;
    std::size_t offset;
  };
  std::optional<Duplicate> duplicate;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Frame& f = stack_.back();
    f.key = k;
    std::size_t pos = text_.find_first_not_of(" \t\r\n", consumed());
    if (pos != std::string::npos && text_[pos] == ':') pos = text_.find_first_not_of(" \t\r\n", pos + 1);
    pos = std::min(pos, text_.size());
    if (!f.keys.insert(k).second && !duplicate)
      duplicate = Duplicate{.path = member_path(f.path, k), .key = k, .offset = pos};
    starts.emplace(member_path(f.path, k), pos);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    std::string path;
    bool array;
    std::size_t index = 0;
    std::string key;
    std::set<std::string> keys;
  };
  std::size_t consumed() const {
    return static_cast<std::size_t>(in_.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in));
  }
  std::string next_path() {
    if (stack_.empty()) return "";
    Frame& f = stack_.back();
    if (f.array) return fmt::format("{}[{}]", f.path, f.index++);
    return member_path(f.path, f.key);
  }
  bool scalar() {
    next_path();
    return true;
  }
  bool open(bool array) {
    std::string path = next_path();
    starts.emplace(path, consumed() - 1);
    stack_.push_back(Frame{.path = path, .array = array});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  const std::string& text_;
  std::istream& in_;
  std::vector<Frame> stack_;
};

// LINE:COLUMN, columns counting characters (UTF-8 continuation bytes skipped).
std::string line_column(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  return fmt::format("{}:{}", line, column);
}

std::string describe_value(const Json& j) {
  if (j.is_structured()) return j.type_name();
  std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  return fmt::format("{} {}", j.type_name(), s.size() > 80 ? s.substr(0, 80) + "..." : s);
}

// How many members the objects of `j` hold, nested ones too.
std::size_t members(const Json& j) {
  std::size_t n = j.is_object() ? j.size() : 0;
  if (j.is_structured())
    for (auto const& v : j) n += members(v);
  return n;
}

}  // namespace

// The parse counts the text's keys: a key said twice leaves one member (the last value), so fewer
// members than keys means a duplicate, which the positions' pass then finds and places. Positions are
// found only when asked for (an error, `where`): a report written by this program and read back
// (the audit's page) is hundreds of thousands of values, whose paths cost more than the parse.
JsonDocument::JsonDocument(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {
  if (auto problem = json_nesting_problem(text_, file_)) throw JsonInputError(*problem);
  std::size_t keys = 0;
  try {
    json_ = Json::parse(text_, [&keys](int, Json::parse_event_t event, Json&) {
      keys += event == Json::parse_event_t::key;
      return true;
    });
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    auto colon = what.find(": ");
    throw JsonInputError(fmt::format("{}:{}: invalid JSON: {}", file_, line_column(text_, e.byte == 0 ? 0 : e.byte - 1),
                                     colon == std::string::npos ? what : what.substr(colon + 2)));
  } catch (const Json::out_of_range& e) { throw JsonInputError(json_number_overflow(text_, file_, e.what())); }
  if (keys != members(json_)) starts();
}

// Where each value starts, by path (the SAX pass, once); a duplicate key is refused, placed.
const std::map<std::string, std::size_t>& JsonDocument::starts() const {
  if (!starts_) {
    std::istringstream in(text_);
    PositionRecorder positions(text_, in);
    Json::sax_parse(in, &positions);
    starts_ = std::move(positions.starts);
    if (auto const& d = positions.duplicate) fail_at(d->offset, d->path, fmt::format("duplicate key \"{}\"", d->key));
  }
  return *starts_;
}

JsonNode JsonDocument::root() const { return JsonNode(*this, json_, ""); }

// The nearest recorded position at or above `path` (scalars inside arrays are not recorded).
std::size_t JsonDocument::offset(const std::string& path) const {
  std::string p = path;
  for (;;) {
    if (auto it = starts().find(p); it != starts().end()) return it->second;
    if (p.empty()) return 0;
    auto cut = p.find_last_of(".[");
    p.resize(cut == std::string::npos ? 0 : cut);
  }
}

void JsonDocument::fail(const std::string& path, const std::string& what) const { fail_at(offset(path), path, what); }

std::string JsonDocument::where(const std::string& path) const {
  return fmt::format("{}:{}", file_, line_column(text_, offset(path)));
}

void JsonDocument::fail_at(std::size_t offset, const std::string& path, const std::string& what) const {
  throw JsonInputError(
      fmt::format("{}:{}: {}: {}", file_, line_column(text_, offset), path.empty() ? "top level" : path, what));
}

const JsonNode& JsonNode::object(const std::vector<const char*>& keys, const std::vector<const char*>& optional) const {
  if (!j_->is_object()) fail("expected an object, got " + describe_value(*j_));
  std::vector<const char*> all = keys;
  all.insert(all.end(), optional.begin(), optional.end());
  for (auto const& [k, v] : j_->items())
    if (std::none_of(all.begin(), all.end(), [&k = k](const char* key) { return k == key; }))
      doc_->fail(member_path(path_, k), fmt::format("unknown key \"{}\"; expected one of {}", k, fmt::join(all, ", ")));
  for (const char* k : keys)
    if (!j_->contains(k)) fail(fmt::format("missing key \"{}\"", k));
  return *this;
}

std::string JsonNode::describe() const { return describe_value(*j_); }

JsonNode JsonNode::at(const char* key) const {
  if (!j_->is_object()) fail("expected an object, got " + describe_value(*j_));
  if (!j_->contains(key)) fail(fmt::format("missing key \"{}\"", key));
  return JsonNode(*doc_, j_->at(key), member_path(path_, key));
}

std::string JsonNode::str() const {
  if (!j_->is_string()) fail("expected a string, got " + describe_value(*j_));
  return j_->get<std::string>();
}

bool JsonNode::boolean() const {
  if (!j_->is_boolean()) fail("expected true or false, got " + describe_value(*j_));
  return j_->get<bool>();
}

std::int64_t JsonNode::integer(std::int64_t min, std::int64_t max) const {
  if (!j_->is_number_integer()) fail("expected an integer, got " + describe_value(*j_));
  const bool in_range = j_->is_number_unsigned() ? j_->get<std::uint64_t>() <= static_cast<std::uint64_t>(max)
                                                 : j_->get<std::int64_t>() >= min && j_->get<std::int64_t>() <= max;
  if (!in_range) fail(fmt::format("expected an integer from {} to {}, got {}", min, max, j_->dump()));
  return j_->get<std::int64_t>();
}

std::vector<JsonNode> JsonNode::items() const {
  if (!j_->is_array()) fail("expected an array, got " + describe_value(*j_));
  std::vector<JsonNode> out;
  out.reserve(j_->size());
  for (std::size_t i = 0; i < j_->size(); ++i) out.emplace_back(*doc_, (*j_)[i], fmt::format("{}[{}]", path_, i));
  return out;
}

std::vector<std::string> JsonNode::strings() const {
  std::vector<std::string> out;
  for (auto const& item : items()) out.push_back(item.str());
  return out;
}

}  // namespace ptxcts

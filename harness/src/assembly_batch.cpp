#include "assembly_batch.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <regex>

namespace ptxcts {
namespace {

const std::string kEntryLine = std::string(".visible .entry ") + kSkeletonEntry + "(";
// ptxas's last line whenever it rejects a module; a kernel rejected alone ends with it too.
const std::regex kAbortLine(R"(ptxas fatal\s*: Ptx assembly aborted due to errors)");
// "ptxas kernel.ptx, line 80; error   : Feature ..." -> prefix, number, the rest (severity first).
const std::regex kNumberedLine(R"((ptxas .*?, line )(\d+)(;\s*(\w+).*))");

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

int count_lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

void add_line(std::string& message, const std::string& line) { message += (message.empty() ? "" : "\n") + line; }

}  // namespace

std::optional<ModuleParts> split_module(const std::string& ptx) {
  ModuleParts parts;
  std::size_t pos = 0, entry_at = std::string::npos;
  int line = 1;
  while (pos < ptx.size()) {
    std::size_t end = ptx.find('\n', pos);
    end = end == std::string::npos ? ptx.size() : end + 1;
    if (ptx.compare(pos, kEntryLine.size(), kEntryLine) == 0) {
      if (entry_at != std::string::npos) return std::nullopt;  // two entries: not this skeleton's shape
      entry_at = pos;
      parts.entry_line = line;
    } else if (entry_at == std::string::npos) {
      std::size_t text = ptx.find_first_not_of(" \t", pos);
      bool comment = text < end && ptx.compare(text, 2, "//") == 0;
      if (!comment) parts.header.append(ptx, pos, end - pos);
    }
    pos = end;
    ++line;
  }
  if (entry_at == std::string::npos) return std::nullopt;
  parts.entry_offset = entry_at;
  return parts;
}

std::string entry_name(const std::string& kernel_name) {
  std::string out;
  for (char c : kernel_name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
  auto h = static_cast<std::uint32_t>(XXH3_64bits(kernel_name.data(), kernel_name.size()));
  return fmt::format("{}_{:08x}", out, h);
}

BatchModule compose_batch(const std::string& header, const std::vector<BatchMember>& members) {
  BatchModule m;
  m.text = header;
  if (!m.text.empty() && m.text.back() != '\n') m.text += '\n';
  int lines = count_lines(m.text);
  for (auto const& member : members) {
    m.first_line.push_back(lines + 1);
    std::string entry = fmt::format(".visible .entry {}(", member.name);
    entry += member.entry.substr(kEntryLine.size());
    if (entry.back() != '\n') entry += '\n';
    lines += count_lines(entry);
    m.text += entry;
  }
  m.line_count = lines;
  return m;
}

BatchVerdict judge_batch(const BatchModule& module, const std::vector<BatchMember>& members, bool accepted, const std::string& output) {
  BatchVerdict v;
  const std::size_t n = members.size();
  v.rejected.assign(n, false);
  v.messages.assign(n, "");
  std::string abort_line;
  bool stray = false;  // a line that names no member
  for (auto const& line : lines_of(output)) {
    if (line.empty()) continue;
    std::smatch m;
    if (std::regex_match(line, m, kAbortLine)) {
      abort_line = line;
      continue;
    }
    if (std::regex_match(line, m, kNumberedLine)) {
      int at = std::stoi(m[2]);
      auto next = std::upper_bound(module.first_line.begin(), module.first_line.end(), at);
      if (next != module.first_line.begin() && at <= module.line_count) {
        auto k = static_cast<std::size_t>(next - module.first_line.begin() - 1);
        int own = at - module.first_line[k] + members[k].entry_line;
        add_line(v.messages[k], fmt::format("{}{}{}", m[1].str(), own, m[3].str()));
        v.rejected[k] = v.rejected[k] || m[4] == "error" || m[4] == "fatal";
        continue;
      }
    }
    stray = true;  // in the header, past the end, or without a line number
    if (accepted)
      for (auto& msg : v.messages) add_line(msg, line);
  }
  if (accepted) {
    v.kind = BatchVerdict::Kind::Accepted;
    v.rejected.assign(n, false);
    return v;
  }
  bool any = std::find(v.rejected.begin(), v.rejected.end(), true) != v.rejected.end();
  if (stray || !any) {
    v.kind = BatchVerdict::Kind::Fallback;
    v.rejected.assign(n, false);
    v.messages.assign(n, "");
    return v;
  }
  v.kind = BatchVerdict::Kind::Rejected;
  for (std::size_t k = 0; k < n; ++k) {
    if (!v.rejected[k]) v.messages[k].clear();  // assembled again: the next run speaks for it
    else if (!abort_line.empty()) add_line(v.messages[k], abort_line);
  }
  return v;
}

}  // namespace ptxcts

#include "assemble/assembly_batch.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
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

// memchr, not std::count: a warm rebuild composes every batch (megabytes) just to find its key.
int count_lines(std::string_view text) {
  int n = 0;
  for (const char *p = text.data(), *end = p + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p)
    ++n;
  return n;
}

void add_line(std::string& message, const std::string& line) { message += (message.empty() ? "" : "\n") + line; }

}  // namespace

std::optional<ModuleParts> split_module(const std::string& ptx) {
  // The entry line, at the start of a line, once. (Horspool: PTX is full of the needle's '.'.)
  static const std::boyer_moore_horspool_searcher needle(kEntryLine.begin(), kEntryLine.end());
  auto find_entry = [&](std::size_t from) {
    for (auto at = ptx.begin() + static_cast<std::ptrdiff_t>(from);
         (at = std::search(at, ptx.end(), needle)) != ptx.end(); ++at)
      if (at == ptx.begin() || at[-1] == '\n') return static_cast<std::size_t>(at - ptx.begin());
    return std::string::npos;
  };
  const std::size_t entry_at = find_entry(0);
  if (entry_at == std::string::npos || find_entry(entry_at + 1) != std::string::npos) return std::nullopt;
  ModuleParts parts;
  parts.entry_offset = entry_at;
  parts.entry_line = 1;
  for (std::size_t pos = 0; pos < entry_at; ++parts.entry_line) {
    std::size_t end = ptx.find('\n', pos) + 1;  // the entry follows, so every header line ends
    std::size_t text = ptx.find_first_not_of(" \t", pos);
    bool comment = text < end && ptx.compare(text, 2, "//") == 0;
    if (!comment) parts.header.append(ptx, pos, end - pos);
    pos = end;
  }
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
  std::size_t size = header.size() + 1;
  for (auto const& member : members) size += member.entry.size() + member.name.size() + 1;
  m.text.reserve(size);  // batches run to megabytes: one allocation, no copies on the way
  m.text = header;
  if (!m.text.empty() && m.text.back() != '\n') m.text += '\n';
  int lines = count_lines(m.text);
  for (auto const& member : members) {
    m.first_line.push_back(lines + 1);
    std::string_view rest = member.entry.substr(kEntryLine.size());
    m.text.append(".visible .entry ").append(member.name).append("(").append(rest);
    if (m.text.back() != '\n') m.text += '\n';
    lines += count_lines(rest) + (rest.empty() || rest.back() != '\n');
  }
  m.line_count = lines;
  return m;
}

BatchVerdict judge_batch(const BatchModule& module, const std::vector<BatchMember>& members, bool accepted,
                         const std::string& output) {
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

#include "run/journal.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "results/report_json.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

Journal::Journal(const std::filesystem::path& path, bool fresh) : path_(path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  out_.open(path, fresh ? std::ios::trunc : std::ios::app);
  if (!out_) throw std::runtime_error("cannot write the journal " + path.string());
}

void Journal::append(const CaseResult& r) {
  if (!out_.is_open()) return;
  out_ << case_result_json_line(r) << '\n';
  out_.flush();
  // A journal that stops silently would lose what the run goes on to do: a full disk stops the run
  // (what was written before stays, and --resume goes on from it).
  if (!out_)
    throw std::runtime_error("cannot write the journal " + path_.string() + ": " + std::strerror(errno) +
                             "; the run stops here, and "
                             "what it wrote before can be resumed with --resume");
}

std::vector<CaseResult> read_journal(const std::filesystem::path& path) {
  std::vector<CaseResult> out;
  const std::optional<std::string> read = try_read_file_text(path, kMaxInputFileBytes);
  if (!read) return out;  // no journal yet: nothing done
  const std::string& text = *read;
  int number = 0;
  // kernel/case -> its line and its place in `out`
  std::map<std::pair<std::string, std::string>, std::pair<int, std::size_t>> seen;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    ++number;
    if (nl == std::string::npos) break;  // no newline: the run died while writing this line
    std::string line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.empty()) continue;
    CaseResult r = parse_case_result_line(line, path.string(), number);
    // A run records each case once (a resumed run redoes nothing done): a second record was not
    // written by a run, and which of the two to believe is not for --resume to guess.
    auto [first, fresh] = seen.emplace(std::make_pair(r.kernel, r.case_name), std::make_pair(number, out.size()));
    if (!fresh) {
      const CaseResult& before = out[first->second.second];
      throw ReportError(fmt::format(
          "{}:{}:1: a second record of {}/{} (the first is at line {}{}); expected one record per case: the journal "
          "is refused (remove the line that is wrong, or run without --resume)",
          path.string(), number, r.kernel, r.case_name, first->second.first,
          before.status == r.status ? ", with the same outcome"
                                    : fmt::format(", which says {} where this says {}", to_string(before.status),
                                                  to_string(r.status))));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::map<std::pair<std::string, std::string>, CaseResult> by_kernel_and_case(const std::vector<CaseResult>& results) {
  std::map<std::pair<std::string, std::string>, CaseResult> out;
  for (auto const& r : results) out[{r.kernel, r.case_name}] = r;
  return out;
}

}  // namespace ptxcts

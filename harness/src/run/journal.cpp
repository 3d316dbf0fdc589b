#include "run/journal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "results/report_parts.hpp"
#include "util/file_text.hpp"

namespace ptxcts {
namespace {

// A journal as read: its records, and how its text ends.
struct JournalText {
  std::vector<CaseResult> results;
  std::size_t whole = 0;  // bytes up to the end of its last complete line (or whole record)
  int cut_line = 0;       // the last line's number, where it is a record cut short (0: none)
  std::size_t cut_bytes = 0;
  bool unterminated = false;  // its last line is a whole record without its newline
};

// "kernel/case" -> its line and its place in the records read.
using SeenRecords = std::map<std::pair<std::string, std::string>, std::pair<int, std::size_t>>;

// What two records of a case disagree on: the fields whose values differ ("status", "reason", ...).
std::vector<std::string> fields_that_differ(const CaseResult& a, const CaseResult& b) {
  const nlohmann::json x = nlohmann::json::parse(case_result_json_line(a)),
                       y = nlohmann::json::parse(case_result_json_line(b));
  std::vector<std::string> out;
  for (auto const& [key, value] : x.items())
    if (!y.contains(key) || y.at(key) != value) out.push_back(key);
  for (auto const& [key, value] : y.items())
    if (!x.contains(key)) out.push_back(key);
  return out;
}

// A run records each case once (a resumed run redoes nothing done); two runs writing into one
// reports folder at once may record a case twice. Records that agree in every field are one record
// (the second is skipped: returns false); records that disagree were not written by one run, and
// which to believe is not for --resume to guess: refused, saying how to keep either.
bool first_record_of_its_case(const std::filesystem::path& path, int number, const CaseResult& r, SeenRecords& seen,
                              const std::vector<CaseResult>& results) {
  auto [first, fresh] = seen.emplace(std::make_pair(r.kernel, r.case_name), std::make_pair(number, results.size()));
  if (fresh) return true;
  const CaseResult& before = results[first->second.second];
  const std::vector<std::string> differ = fields_that_differ(before, r);
  if (differ.empty()) return false;
  const int at = first->second.first;
  throw ReportError(fmt::format(
      "{}:{}:1: a second record of {}/{} that disagrees with the first, at line {} ({}; two runs wrote into one "
      "reports folder?); expected one outcome per case: the journal is refused. Keep the record you believe and "
      "delete the other (sed -i '{}d' on the journal keeps line {}'s, sed -i '{}d' this one's), or run without "
      "--resume to run every case again",
      path.string(), number, r.kernel, r.case_name, at,
      before.status != r.status
          ? fmt::format("it says {} where this says {}", to_string(before.status), to_string(r.status))
          : fmt::format("the same outcome, {}, but they differ in {}", to_string(r.status), fmt::join(differ, ", ")),
      number, at, at, number));
}

// The last line, without its newline: a whole record (a disk that filled just before the newline),
// or the record the run was writing when it died or its disk filled.
std::optional<CaseResult> last_line_record(const std::string& line, const std::filesystem::path& path, int number) {
  try {
    return parse_case_result_line(line, path.string(), number);
  } catch (const ReportError&) { return std::nullopt; }
}

JournalText scan_journal(const std::filesystem::path& path, const std::string& text) {
  JournalText out;
  SeenRecords seen;
  int number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    ++number;
    const std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    std::optional<CaseResult> r;
    if (nl != std::string::npos) {
      at = nl + 1;
      out.whole = at;
      if (line.empty()) continue;
      r = parse_case_result_line(line, path.string(), number);
    } else {
      r = last_line_record(line, path, number);
      if (!r) {
        out.cut_line = number;
        out.cut_bytes = line.size();
        break;
      }
      out.unterminated = true;
      out.whole = text.size();
      at = text.size();
    }
    if (first_record_of_its_case(path, number, *r, seen, out.results)) out.results.push_back(std::move(*r));
  }
  return out;
}

JournalText scan_journal_file(const std::filesystem::path& path) {
  const std::optional<std::string> read = try_read_file_text(path, kMaxInputFileBytes);
  if (!read) return {};  // no journal yet: nothing done
  return scan_journal(path, *read);
}

}  // namespace

Journal::Journal(const std::filesystem::path& path, bool fresh) : path_(path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  // Emptied on its own, then appended to: a file opened to be written anew is removed when a write
  // fails, and a journal that a full disk stops keeps what it holds, for --resume.
  if (fresh) write_file_checked(path, "");
  out_ = std::make_unique<CheckedFile>(path, CheckedFile::Open::Append);
}

void Journal::append(const CaseResult& r) {
  if (!out_) return;
  // A journal that stops silently would lose what the run goes on to do: a full disk stops the run
  // (what was written before stays, and --resume goes on from it).
  try {
    *out_ << case_result_json_line(r) << '\n';
    out_->flush();
  } catch (const std::exception& e) {
    std::string why = e.what();  // "cannot write PATH: the cause (the free space)"
    const std::string cannot = "cannot write ";
    if (why.rfind(cannot, 0) == 0) why.insert(cannot.size(), "the journal ");
    throw std::runtime_error(why + "; the run stops here, and what it wrote before can be resumed with --resume");
  }
}

std::vector<CaseResult> read_journal(const std::filesystem::path& path) { return scan_journal_file(path).results; }

std::vector<CaseResult> resume_journal(const std::filesystem::path& path, std::FILE* say) {
  JournalText read = scan_journal_file(path);
  if (read.cut_line > 0) {
    std::filesystem::resize_file(path, read.whole);
    fmt::print(say,
               "journal: {}:{}: the last record was cut short ({} bytes, no newline: the run writing it was killed or "
               "its disk was full); dropped, so its case runs again\n",
               path.string(), read.cut_line, read.cut_bytes);
  } else if (read.unterminated) {
    CheckedFile out(path, CheckedFile::Open::Append);
    out << '\n';
    out.close();
  }
  return std::move(read.results);
}

std::map<std::pair<std::string, std::string>, CaseResult> by_kernel_and_case(const std::vector<CaseResult>& results) {
  std::map<std::pair<std::string, std::string>, CaseResult> out;
  for (auto const& r : results) out[{r.kernel, r.case_name}] = r;
  return out;
}

}  // namespace ptxcts

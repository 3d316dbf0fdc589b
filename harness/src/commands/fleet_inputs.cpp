#include "commands/fleet_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "report/report_reader.hpp"
#include "results/report_kind.hpp"
#include "util/file_text.hpp"
#include "util/utf8_text.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kStatusBytes = std::size_t{1} << 20;  // a task.status is five short lines
constexpr std::size_t kLogBytes = std::size_t{64} << 20;    // a run.log: a run's console

bool report_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return (name.ends_with(".json") || name.ends_with(".json.gz")) && !name.starts_with("fleet");
}

// Text a task left, fit to show on a console, a page and in JSON: valid UTF-8, control characters as
// \xNN, at most `max` bytes of it.
std::string shown(std::string_view text, std::size_t max = 300) {
  std::string out;
  for (char c : valid_utf8(std::string(text.substr(0, max)))) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) out += fmt::format("\\x{:02x}", b);
    else out += c;
  }
  return text.size() > max ? out + "..." : out;
}

// The array task a folder is of, by the name ptxcts-array.sbatch gives it ("<host>-task<ID>"); else "".
std::string task_of_folder(const fs::path& dir) {
  const std::string name = dir.filename().string();
  const std::size_t at = name.rfind("-task");
  if (at == std::string::npos) return "";
  const std::string id = name.substr(at + 5);
  const bool digits = !id.empty() && id.size() <= 9 &&
                      std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c); });
  return digits ? std::to_string(std::stoi(id)) : "";
}

// The task a path under a fleet's folder `root` is of: that of the nearest folder named <host>-task<ID>.
std::string task_of(const fs::path& path, const fs::path& root) {
  for (fs::path d = path; !d.empty() && d != d.parent_path(); d = d.parent_path()) {
    if (auto t = task_of_folder(d); !t.empty()) return t;
    if (d == root) break;
  }
  return "";
}

// A file a task left, read whole within `max` bytes by the suite's one bounded reader; nullopt, with
// why and what was expected (`what`), where it cannot be: absent, not a plain file (a FIFO or a device
// is no task's file, and opening one could wait forever), past the bound.
std::optional<std::string> read_task_file(const fs::path& file, std::size_t max, std::string_view what,
                                          std::string& why) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) {
    why = fmt::format("cannot read it ({}); expected {}", ec ? ec.message() : "it does not exist", what);
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    why = fmt::format("{}; expected {}",
                      fs::is_directory(st) ? "it is a folder" : "it is not a plain file (a FIFO, a socket or a device)",
                      what);
    return std::nullopt;
  }
  try {
    auto text = try_read_file_text(file, max, what);
    if (!text)
      why = fmt::format("cannot read it ({}); expected {}", std::error_code(errno, std::generic_category()).message(),
                        what);
    return text;
  } catch (const std::exception& e) {
    why = e.what();  // names the file, and what was expected
    return std::nullopt;
  }
}

constexpr std::string_view kStatusText = "a task.status of a few lines, as harness/slurm/ptxcts-array.sbatch writes it";
constexpr std::string_view kLogText = "the console of ptxcts run";

// A task's own account (harness/slurm/ptxcts-array.sbatch writes it): "task K", "host H",
// "started DATE", and "exit R" once the run has ended.
struct TaskStatus {
  fs::path file{};
  std::string task{}, host{}, started{}, exit{};
  bool garbled = false;  // it holds lines the array script never writes
};

TaskStatus parse_status(const fs::path& file, const std::string& text) {
  TaskStatus s{.file = file};
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "task") s.task = value;
    else if (key == "host") s.host = shown(value, 100);
    else if (key == "started") s.started = shown(value, 100);
    else if (key == "exit") s.exit = shown(value, 20);
    else if (key != "job" && key != "gpus") s.garbled = true;
  }
  return s;
}

// The last line of what a task's run printed (its error, or its summary), as it can be shown.
std::string last_line(const fs::path& log) {
  std::string why;
  auto text = read_task_file(log, kLogBytes, kLogText, why);
  if (!text) return fmt::format("(unread: {})", why);
  while (!text->empty() && (text->back() == '\n' || text->back() == ' ')) text->pop_back();
  const std::size_t nl = text->rfind('\n');
  const std::string raw = text->substr(nl == std::string::npos ? 0 : nl + 1);
  if (raw.empty()) return "(nothing)";
  return shown(raw) + (first_invalid_utf8(raw) ? " (not text: the log is garbled)" : "");
}

// What a walk of the given reports and folders found: report files (with the task each one's folder
// names), task.status files, and what could not be read.
struct Found {
  struct Report {
    fs::path file{};
    std::string task{};  // that of its folder ("" if none)
    bool given = false;  // named on the command line, not found in a folder
  };
  std::vector<Report> reports;
  std::vector<TaskStatus> statuses;
  std::map<std::string, std::string> unread_task;  // task -> why its folder or report was not read
  std::vector<UnreadInput> unread;
};

// Paths and messages go into the page and the JSON as valid UTF-8, whatever bytes a folder's name holds.
void note_unread(Found& f, const fs::path& path, const std::string& task, const std::string& why) {
  f.unread.push_back({.path = valid_utf8(path.string()), .why = valid_utf8(why)});
  if (!task.empty() && !f.unread_task.count(task))
    f.unread_task[task] = f.unread.back().path + ": " + f.unread.back().why;
}

void add_status(Found& f, const fs::path& file, const std::string& folder_task) {
  std::string why;
  auto text = read_task_file(file, kStatusBytes, kStatusText, why);
  if (!text) {
    note_unread(f, file, folder_task, why);
    return;
  }
  TaskStatus s = parse_status(file, *text);
  if (s.task != folder_task && !folder_task.empty()) {
    s.garbled = s.garbled || !s.task.empty();
    s.task = folder_task;  // the folder's name, which the same script gave it, where the two disagree
  }
  if (!s.task.empty()) f.statuses.push_back(std::move(s));
}

// Every folder under `root`, one at a time (links to folders not followed): a folder that cannot be
// listed is named, and the walk goes on.
void walk(Found& f, const fs::path& root) {
  std::vector<fs::path> folders{root};
  std::vector<fs::path> reports;
  while (!folders.empty()) {
    const fs::path dir = folders.back();
    folders.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      std::error_code kind;
      const fs::path p = it->path();
      if (p.filename() == "task.status") add_status(f, p, task_of(p, root));  // whatever it is: a FIFO is named
      else if (it->is_directory(kind) && !it->is_symlink(kind)) folders.push_back(p);
      else if (it->is_regular_file(kind) && report_file(p)) reports.push_back(p);
    }
    if (ec)
      note_unread(f, dir, task_of(dir, root),
                  fmt::format("cannot read this folder ({}); expected a task's folder the merging user may read",
                              ec.message()));
  }
  std::sort(reports.begin(), reports.end());
  for (auto const& p : reports) f.reports.push_back({.file = p, .task = task_of(p, root), .given = false});
}

// Whether a report found in a folder, which the run reports' reader refused, is one this merge (or an
// earlier one, --out into the folder) wrote: a fleet report is no run of the fleet, and no fault.
bool fleet_report(const fs::path& p) {
  try {
    return report_file_kind(p) == ReportKind::Fleet;
  } catch (const std::exception&) {
    return false;  // the run report's reader says what is wrong with it
  }
}

std::string missing_reason(const std::string& task, const Found& f, const std::map<std::string, TaskStatus>& status_of,
                           std::string& host) {
  auto s = status_of.find(task);
  auto unread = f.unread_task.find(task);
  if (s == status_of.end()) {
    if (unread != f.unread_task.end()) return fmt::format("what it left could not be read: {}", unread->second);
    if (!f.unread.empty())
      return fmt::format(
          "no trace in what could be read (no task.status): it never started, its node died before "
          "it began, or it is in one of the {} paths that could not be read",
          f.unread.size());
    return "no trace: the task never started, or its node died before it began (no task.status)";
  }
  host = s->second.host;
  const std::string garbled =
      s->second.garbled
          ? fmt::format(" ({} holds lines ptxcts-array.sbatch never writes: garbled)", s->second.file.string())
          : "";
  if (unread != f.unread_task.end()) return fmt::format("its report could not be read: {}{}", unread->second, garbled);
  const fs::path log = s->second.file.parent_path() / "run.log";
  if (s->second.exit.empty())
    return fmt::format(
        "started at {} and never finished (its node died, or the task was killed): no exit status in "
        "{}{}",
        s->second.started.empty() ? "(unknown)" : s->second.started, s->second.file.string(), garbled);
  return fmt::format("ended with exit {} and wrote no report; the end of {}: {}{}", s->second.exit, log.string(),
                     last_line(log), garbled);
}

}  // namespace

FleetInputs collect_fleet_inputs(const std::vector<std::string>& paths, std::optional<int> expect_tasks) {
  Found found;
  for (auto const& given : paths) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(given, ec)))  // a slip of the keyboard: no page of it
      throw std::invalid_argument(
          fmt::format("merge: {}: no such file or folder; expected run reports or a fleet's results folder", given));
    if (fs::is_directory(given, ec)) walk(found, given);
    else
      found.reports.push_back({.file = given,
                               .task = task_of(fs::path(given).parent_path(), fs::path(given).parent_path()),
                               .given = true});
  }
  FleetInputs in;
  for (auto const& r : found.reports) {
    try {
      in.reports.push_back(read_run_report_file(r.file));
      in.files.push_back(r.file);
    } catch (const std::exception& e) {
      if (r.given || !fleet_report(r.file)) note_unread(found, r.file, r.task, e.what());
    }
  }
  in.unread = found.unread;
  if (!expect_tasks) return in;
  std::set<std::string> reported;
  for (auto const& r : in.reports) reported.insert(r.info.slurm_task);
  std::map<std::string, TaskStatus> status_of;
  for (auto const& s : found.statuses) status_of[s.task] = s;
  for (int k = 0; k < *expect_tasks; ++k) {
    const std::string task = std::to_string(k);
    if (reported.count(task)) continue;
    MissingRun m{.task = task, .host = "", .reason = ""};
    m.reason = valid_utf8(missing_reason(task, found, status_of, m.host));
    in.missing.push_back(std::move(m));
  }
  return in;
}

}  // namespace ptxcts

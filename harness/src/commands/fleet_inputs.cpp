#include "commands/fleet_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "report/report_reader.hpp"
#include "util/file_text.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

bool report_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return (name.ends_with(".json") || name.ends_with(".json.gz")) && !name.starts_with("fleet");
}

// A task's own account (harness/slurm/ptxcts-array.sbatch writes it): "task K", "host H",
// "started DATE", and "exit R" once the run has ended.
struct TaskStatus {
  fs::path file{};
  std::string task{}, host{}, started{}, exit{};
};

TaskStatus read_status(const fs::path& file) {
  TaskStatus s{.file = file};
  std::istringstream in(try_read_file_text(file, 1 << 20).value_or(""));
  for (std::string line; std::getline(in, line);) {
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "task") s.task = value;
    else if (key == "host") s.host = value;
    else if (key == "started") s.started = value;
    else if (key == "exit") s.exit = value;
  }
  return s;
}

// The last line of what a task's run printed (its error, or its summary), at most 300 characters.
std::string last_line(const fs::path& log) {
  std::string text = try_read_file_text(log, 64 << 20).value_or("");
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  std::string line = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  return line.empty() ? "(nothing)" : line;
}

}  // namespace

FleetInputs collect_fleet_inputs(const std::vector<std::string>& paths, std::optional<int> expect_tasks) {
  FleetInputs in;
  std::vector<TaskStatus> statuses;
  for (auto const& given : paths) {
    std::error_code ec;
    if (!fs::is_directory(given, ec)) {
      in.files.push_back(given);
      continue;
    }
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(given, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      if (report_file(it->path())) found.push_back(it->path());
      else if (it->path().filename() == "task.status") statuses.push_back(read_status(it->path()));
    }
    std::sort(found.begin(), found.end());
    in.files.insert(in.files.end(), found.begin(), found.end());
  }
  for (auto const& f : in.files) in.reports.push_back(read_run_report_file(f));
  if (!expect_tasks) return in;
  std::set<std::string> reported;
  for (auto const& r : in.reports) reported.insert(r.info.slurm_task);
  std::map<std::string, TaskStatus> status_of;
  for (auto const& s : statuses) status_of[s.task] = s;
  for (int k = 0; k < *expect_tasks; ++k) {
    const std::string task = std::to_string(k);
    if (reported.count(task)) continue;
    MissingRun m{.task = task, .host = "", .reason = ""};
    if (auto s = status_of.find(task); s != status_of.end()) {
      m.host = s->second.host;
      const fs::path log = s->second.file.parent_path() / "run.log";
      m.reason = s->second.exit.empty()
                     ? fmt::format("started at {} and never finished (its node died, or the task was killed): no "
                                   "exit status in {}",
                                   s->second.started, s->second.file.string())
                     : fmt::format("ended with exit {} and wrote no report; the end of {}: {}", s->second.exit,
                                   log.string(), last_line(log));
    } else {
      m.reason = "no trace: the task never started, or its node died before it began (no task.status)";
    }
    in.missing.push_back(std::move(m));
  }
  return in;
}

}  // namespace ptxcts

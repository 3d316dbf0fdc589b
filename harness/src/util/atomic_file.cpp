#include "util/atomic_file.hpp"

#include "util/checked_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>

namespace ptxcts {

namespace {

// The writer's pid in a temporary's name (`NAME.tmpPID-N`), or 0 where the name is not one.
pid_t temporary_owner(const std::string& name) {
  const auto at = name.rfind(".tmp");
  if (at == std::string::npos) return 0;
  const char* p = name.data() + at + 4;
  const char* end = name.data() + name.size();
  long pid = 0, n = 0;
  auto [q, e1] = std::from_chars(p, end, pid);
  if (e1 != std::errc{} || q == p || q == end || *q != '-') return 0;
  auto [r, e2] = std::from_chars(q + 1, end, n);
  return e2 == std::errc{} && r == end && r != q + 1 && pid > 0 ? static_cast<pid_t>(pid) : 0;
}

}  // namespace

void sweep_dead_temporaries(const std::filesystem::path& dir) {
  static std::mutex m;
  static std::set<std::string> swept;
  {
    std::lock_guard lock(m);
    if (!swept.insert(dir.string()).second) return;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const pid_t pid = temporary_owner(it->path().filename().string());
    if (pid == 0 || !it->is_regular_file(ec) || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code age_ec;
    const auto written = fs::last_write_time(it->path(), age_ec);
    if (age_ec || now - written < std::chrono::minutes(1)) continue;
    fs::remove(it->path(), age_ec);
  }
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  replace_file_atomically(path, content);
}

void replace_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::error_code ec;
  sweep_dead_temporaries(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
  // A name of this process's and this call's own: other ptxcts processes and threads may write the
  // same file at the same time (ctest -j, two catalog builds); the last rename wins, whole.
  static std::atomic<unsigned long> counter{0};
  auto tmp = path;
  tmp += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  auto fail = [&](const std::string& what, int err) {
    std::string why = write_error(path, err);  // the free space as the failure left it
    std::filesystem::remove(tmp, ec);         // nothing half-written is left behind
    throw std::runtime_error(what.empty() ? why : why + "; " + what);
  };
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("", errno);
  try {
    write_all(fd, content, path);
  } catch (const std::exception&) {
    ::close(fd);
    std::filesystem::remove(tmp, ec);
    throw;
  }
  if (::close(fd) != 0) fail("", errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename " + tmp.filename().string() + " to it", errno);
}

}  // namespace ptxcts

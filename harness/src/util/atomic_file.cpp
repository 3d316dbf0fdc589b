#include "util/atomic_file.hpp"

#include "util/checked_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>

namespace ptxcts {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
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

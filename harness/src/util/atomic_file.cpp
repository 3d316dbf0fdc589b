#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
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
    std::filesystem::remove(tmp, ec);  // nothing half-written is left behind
    throw std::runtime_error("cannot write " + path.string() + ": " + what + ": " + std::strerror(err));
  };
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create " + tmp.filename().string(), errno);
  for (std::size_t at = 0; at < content.size();) {
    ssize_t n = ::write(fd, content.data() + at, content.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      ::close(fd);
      fail("writing", err);
    }
    at += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail("closing", errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("renaming " + tmp.filename().string(), errno);
}

}  // namespace ptxcts

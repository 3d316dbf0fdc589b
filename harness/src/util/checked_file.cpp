#include "util/checked_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <streambuf>
#include <vector>

namespace ptxcts {
namespace fs = std::filesystem;

std::string free_space_of(const fs::path& path) {
  struct statvfs s {};
  std::error_code ec;
  const fs::path where = fs::exists(path, ec) || !path.has_parent_path() ? path : path.parent_path();
  if (::statvfs(where.c_str(), &s) != 0) return "unknown";
  return bytes_in_words(static_cast<std::uintmax_t>(s.f_bavail) * s.f_frsize);
}

std::string bytes_in_words(std::uintmax_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  for (; v >= 1024 && u < 3; ++u) v /= 1024;
  char said[32];
  std::snprintf(said, sizeof said, "%.1f %s", v, units[u]);
  return said;
}

std::string write_error(const fs::path& path, int err) {
  return "cannot write " + path.string() + ": " + std::strerror(err) + " (" + free_space_of(path) +
         " free on its filesystem)";
}

void write_all(int fd, std::string_view data, const fs::path& path) {
  for (std::size_t at = 0; at < data.size();) {
    const ssize_t n = ::write(fd, data.data() + at, data.size() - at);
    if (n < 0 && errno == EINTR) continue;
    // A write of nothing is no progress: the disk is full though errno does not say so.
    if (n <= 0) throw std::runtime_error(write_error(path, n < 0 ? errno : ENOSPC));
    at += static_cast<std::size_t>(n);
  }
}

// A write buffer over a file descriptor whose flushes are write_all's: errors throw, and the stream
// (its exceptions on) passes them on as they are.
class CheckedFile::Buffer : public std::streambuf {
 public:
  Buffer(const fs::path& path, Open how) : path_(path), remove_on_failure_(how == Open::Truncate), bytes_(1 << 16) {
    const int mode = how == Open::Truncate ? O_TRUNC : O_APPEND;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | mode, 0644);
    if (fd_ < 0) throw std::runtime_error(write_error(path, errno));
    struct stat st {};
    // Only a plain file is removed: never /dev/full, a pipe or a terminal named as the output.
    remove_on_failure_ = remove_on_failure_ && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
    setp(bytes_.data(), bytes_.data() + bytes_.size());
  }
  ~Buffer() override {
    if (fd_ >= 0) ::close(fd_);
  }
  const fs::path& path() const { return path_; }

  void close() {
    flush_buffer();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(errno);
  }

 protected:
  int_type overflow(int_type c) override {
    flush_buffer();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > epptr() - pptr()) {
      flush_buffer();
      if (n >= static_cast<std::streamsize>(bytes_.size())) {  // a large block goes straight to the file
        checked([&] { write_all(fd_, {s, static_cast<std::size_t>(n)}, path_); });
        return n;
      }
    }
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }
  int sync() override {
    flush_buffer();
    return 0;
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    flush_buffer();
    const int whence = dir == std::ios_base::beg ? SEEK_SET : dir == std::ios_base::cur ? SEEK_CUR : SEEK_END;
    const off_t at = ::lseek(fd_, static_cast<off_t>(off), whence);
    return at < 0 ? pos_type(off_type(-1)) : pos_type(static_cast<off_type>(at));
  }
  pos_type seekpos(pos_type p, std::ios_base::openmode which) override {
    return seekoff(off_type(p), std::ios_base::beg, which);
  }

 private:
  void flush_buffer() {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    if (n == 0) return;
    setp(bytes_.data(), bytes_.data() + bytes_.size());
    checked([&] { write_all(fd_, {bytes_.data(), n}, path_); });
  }
  template <class F>
  void checked(F write) {
    try {
      write();
    } catch (...) {
      discard();
      throw;
    }
  }
  [[noreturn]] void fail(int err) {
    std::runtime_error e(write_error(path_, err));  // the free space as the failure left it
    discard();
    throw e;
  }
  void discard() {
    std::error_code ec;
    if (remove_on_failure_) fs::remove(path_, ec);
  }

  fs::path path_;
  bool remove_on_failure_;
  std::vector<char> bytes_;
  int fd_ = -1;
};

CheckedFile::CheckedFile(const fs::path& path, Open how)
    : std::ostream(nullptr), buffer_(std::make_unique<Buffer>(path, how)) {
  rdbuf(buffer_.get());
  exceptions(std::ios::badbit);
}

CheckedFile::~CheckedFile() {
  try {
    buffer_->pubsync();
  } catch (const std::exception&) {}  // a file dropped after an error: what could be written was
}

void CheckedFile::close() {
  flush();
  buffer_->close();
}

const fs::path& CheckedFile::path() const { return buffer_->path(); }

void write_file_checked(const fs::path& path, std::string_view content) {
  CheckedFile out(path);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
}

}  // namespace ptxcts

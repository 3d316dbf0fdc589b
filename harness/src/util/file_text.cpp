#include "util/file_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace ptxcts {

namespace {

std::string expected(std::string_view what) {
  return what.empty() ? std::string("a spec, report, journal or manifest: they are a few MB") : std::string(what);
}

std::string too_large(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what) {
  return path.string() + ": more than " + std::to_string(max_bytes >> 20) + " MiB; refused unread (expected " +
         expected(what) + ")";
}

std::string a_folder(const std::filesystem::path& path, std::string_view what) {
  return path.string() + ": is a folder; expected " + (what.empty() ? "a file" : std::string(what));
}

// A `.gz` file's text, decompressed in chunks (at most max_bytes of it); nullopt where it cannot be
// opened. A cut or damaged stream is an error naming the file, never a silently short text.
std::optional<std::string> read_gzip_text(const std::filesystem::path& path, std::size_t max_bytes,
                                          std::string_view what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(a_folder(path, what));
  std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
  if (!in) return std::nullopt;
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const int n = gzread(in.get(), chunk, sizeof chunk);
    if (n < 0) {
      int code = 0;
      const char* why = gzerror(in.get(), &code);
      throw std::runtime_error(path.string() + ": cannot decompress (gzip: " + (why ? why : "error") + ")");
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) throw std::runtime_error(too_large(path, max_bytes, what));
  }
  int code = 0;
  gzerror(in.get(), &code);
  // zlib reads a stream cut short as a clean end (Z_BUF_ERROR is left behind): refuse it.
  if (code != Z_OK && code != Z_STREAM_END)
    throw std::runtime_error(path.string() + ": the gzip stream is cut short or damaged");
  return text;
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<std::string> try_read_file_text(const std::filesystem::path& path, std::size_t max_bytes,
                                              std::string_view what) {
  if (path.extension() == ".gz") return read_gzip_text(path, max_bytes, what);
  // O_NONBLOCK for the open alone: a FIFO that no program writes is read as empty (the caller says
  // what an empty file is to it) where a plain open would wait for a writer forever; one a program
  // writes (`@/dev/stdin`, `<(...)`) is read to its end as before.
  Fd in{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (in.fd < 0) {
    if (errno == EISDIR) throw std::runtime_error(a_folder(path, what));
    return std::nullopt;
  }
  if (const int flags = ::fcntl(in.fd, F_GETFL); flags >= 0) ::fcntl(in.fd, F_SETFL, flags & ~O_NONBLOCK);
  struct stat st {};
  if (::fstat(in.fd, &st) == 0 && S_ISDIR(st.st_mode)) throw std::runtime_error(a_folder(path, what));
  // In chunks, so that a file without an end (a device, a FIFO) costs at most the limit.
  std::string text;
  if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) <= max_bytes)
    text.reserve(static_cast<std::size_t>(st.st_size));
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(path.string() + ": cannot read " + expected(what) + ": " + std::strerror(errno));
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) throw std::runtime_error(too_large(path, max_bytes, what));
  }
  return text;
}

std::string read_file_text(const std::filesystem::path& path, std::string_view what, std::size_t max_bytes) {
  auto text = try_read_file_text(path, max_bytes, what);
  if (!text) throw std::runtime_error(path.string() + ": cannot read " + std::string(what) + " (" + std::strerror(errno) + ")");
  return std::move(*text);
}

}  // namespace ptxcts

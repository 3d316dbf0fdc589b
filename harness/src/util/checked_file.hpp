// Files written with every byte checked: a short write, a full disk (ENOSPC) or any other error is
// an exception naming the path and the free space left on its filesystem, never a file silently cut
// short (a device runner given half a job file waits for jobs that never come).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace ptxcts {

// "cannot write PATH: No space left on device (0 bytes free on its filesystem)": `err` is an errno.
std::string write_error(const std::filesystem::path& path, int err);
// What statvfs says is free for this process on the filesystem of `path` (or of its folder), in
// words: "0 bytes", "12.0 KiB", "3.4 GiB"; "unknown" where statvfs cannot say.
std::string free_space_of(const std::filesystem::path& path);
std::string bytes_in_words(std::uintmax_t bytes);  // "512 bytes", "45.2 MiB"

// Writes all of data to `fd` where it stands, again after a short write or EINTR; any error (or a
// write of nothing) throws std::runtime_error with write_error's message for `path`.
void write_all(int fd, std::string_view data, const std::filesystem::path& path);

// A file being written, as an ostream (binary, buffered) whose every write is checked: a failure
// throws std::runtime_error with write_error's message (the stream's exceptions are on). A file
// opened to be written anew (Truncate) that fails is removed on the spot: half a file is of no use,
// and its space is what whatever follows (a go file, the error's report) needs. close() checks the
// last bytes; a file dropped without close() is flushed as well as it can be.
class CheckedFile : public std::ostream {
 public:
  enum class Open { Truncate, Append };
  explicit CheckedFile(const std::filesystem::path& path, Open how = Open::Truncate);  // throws
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;
  ~CheckedFile() override;
  void close();  // throws
  const std::filesystem::path& path() const;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
};

// `content` as the whole of `path`, checked (not atomically: atomic_file is for files others read).
void write_file_checked(const std::filesystem::path& path, std::string_view content);

}  // namespace ptxcts

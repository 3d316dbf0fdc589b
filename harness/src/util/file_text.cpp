#include "util/file_text.hpp"

#include <zlib.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ptxcts {

namespace {

std::string too_large(const std::filesystem::path& path, std::size_t max_bytes) {
  return path.string() + ": more than " + std::to_string(max_bytes >> 20) +
         " MiB; refused unread (expected a spec, report, journal or manifest: they are a few MB)";
}

// A `.gz` file's text, decompressed in chunks (at most max_bytes of it); nullopt where it cannot be
// opened. A cut or damaged stream is an error naming the file, never a silently short text.
std::optional<std::string> read_gzip_text(const std::filesystem::path& path, std::size_t max_bytes) {
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
    if (text.size() > max_bytes) throw std::runtime_error(too_large(path, max_bytes));
  }
  int code = 0;
  gzerror(in.get(), &code);
  // zlib reads a stream cut short as a clean end (Z_BUF_ERROR is left behind): refuse it.
  if (code != Z_OK && code != Z_STREAM_END)
    throw std::runtime_error(path.string() + ": the gzip stream is cut short or damaged");
  return text;
}

}  // namespace

std::optional<std::string> try_read_file_text(const std::filesystem::path& path, std::size_t max_bytes) {
  if (path.extension() == ".gz") return read_gzip_text(path, max_bytes);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  if (max_bytes == std::numeric_limits<std::size_t>::max()) {
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // In chunks, so that a file without an end (a device, a FIFO) costs at most the limit.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) throw std::runtime_error(too_large(path, max_bytes));
  }
  return text;
}

std::optional<std::string> try_read_plain_or_gzipped(const std::filesystem::path& path, std::size_t max_bytes) {
  if (auto text = try_read_file_text(path, max_bytes)) return text;
  return try_read_file_text(path.string() + ".gz", max_bytes);
}

std::string read_file_text(const std::filesystem::path& path, std::string_view what) {
  auto text = try_read_file_text(path);
  if (!text) throw std::runtime_error(path.string() + ": cannot read " + std::string(what));
  return std::move(*text);
}

}  // namespace ptxcts

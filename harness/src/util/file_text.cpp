#include "util/file_text.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ptxcts {

std::optional<std::string> try_read_file_text(const std::filesystem::path& path, std::size_t max_bytes) {
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
    if (text.size() > max_bytes)
      throw std::runtime_error(
          path.string() + ": more than " + std::to_string(max_bytes >> 20) +
          " MiB; refused unread (expected a spec, report, journal or manifest: they are a few MB)");
  }
  return text;
}

std::string read_file_text(const std::filesystem::path& path, std::string_view what) {
  auto text = try_read_file_text(path);
  if (!text) throw std::runtime_error(path.string() + ": cannot read " + std::string(what));
  return std::move(*text);
}

}  // namespace ptxcts

#include "util/file_text.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ptxcts {

std::optional<std::string> try_read_file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file_text(const std::filesystem::path& path, std::string_view what) {
  auto text = try_read_file_text(path);
  if (!text) throw std::runtime_error(path.string() + ": cannot read " + std::string(what));
  return std::move(*text);
}

}  // namespace ptxcts

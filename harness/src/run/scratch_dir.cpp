#include "run/scratch_dir.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ptxcts {
namespace fs = std::filesystem;

ScratchDir::ScratchDir(const fs::path& parent) {
  fs::create_directories(parent);
  std::string name = (parent / "ptxcts-run-XXXXXX").string();
  if (!mkdtemp(name.data()))
    throw std::runtime_error(
        fmt::format("{}: cannot make the run's scratch directory: {}", name, std::strerror(errno)));
  path = name;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

LineFiles line_files(const fs::path& dir, int ordinal, const std::string& name) {
  return {.jobs = dir / fmt::format("device{}-{}-jobs.bin", ordinal, name),
          .results = dir / fmt::format("device{}-{}-results.bin", ordinal, name)};
}

}  // namespace ptxcts

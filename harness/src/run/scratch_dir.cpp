#include "run/scratch_dir.hpp"

#include <fmt/format.h>

#include "util/owned_folder.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

ScratchDir::ScratchDir(const fs::path& parent) : path(make_owned_folder(parent, "ptxcts-run")) {}

ScratchDir::~ScratchDir() { remove_owned_folder(path); }

LineFiles line_files(const fs::path& dir, int ordinal, const std::string& name) {
  return {.jobs = dir / fmt::format("device{}-{}-jobs.bin", ordinal, name),
          .results = dir / fmt::format("device{}-{}-results.bin", ordinal, name)};
}

}  // namespace ptxcts

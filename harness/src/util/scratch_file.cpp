#include "util/scratch_file.hpp"

#include <unistd.h>

#include <atomic>

#include "util/owned_folder.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// The process's folder, removed at exit by the process that made it (a child forked without exec
// that exits must not take its parent's folder with it).
struct ProcessScratch {
  fs::path dir = make_owned_folder(fs::temp_directory_path(), "ptxcts-tmp");
  pid_t maker = ::getpid();
  ~ProcessScratch() {
    if (::getpid() == maker) remove_owned_folder(dir);
  }
};

}  // namespace

fs::path scratch_file(const std::string& stem, const std::string& extension) {
  static const ProcessScratch scratch;  // made once, at the first call, whichever thread makes it
  static std::atomic<unsigned long> made{0};
  return scratch.dir / (stem + "-" + std::to_string(made++) + extension);
}

}  // namespace ptxcts

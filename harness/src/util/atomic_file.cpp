#include "util/atomic_file.hpp"

#include <unistd.h>

#include <fstream>
#include <functional>
#include <stdexcept>
#include <thread>

namespace ptxcts {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  auto tmp = path;
  // This process's and thread's own: other ptxcts processes may write the same file (ctest -j).
  tmp += ".tmp" + std::to_string(::getpid()) + "-" +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace ptxcts

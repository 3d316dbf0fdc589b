// A fresh directory of a test's own (removed when it goes), and small executable scripts in it:
// the stand-in tools (ptxas, pip, disassemblers) the assemble tests write.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ptxcts::test {

struct TempDir {
  std::filesystem::path dir;
  explicit TempDir(const std::string& name) {
    static int made = 0;
    dir = std::filesystem::temp_directory_path() /
          ("ptxcts-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(made++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::filesystem::remove_all(dir); }
};

// A shell script at `p` (its folders made), executable.
inline void write_script(const std::filesystem::path& p, const std::string& body) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << "#!/bin/sh\n" << body;
  ::chmod(p.c_str(), 0755);
}

}  // namespace ptxcts::test

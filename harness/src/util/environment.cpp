#include "util/environment.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace ptxcts {

std::string getenv_or(const char* name, const std::string& otherwise) {
  const char* v = std::getenv(name);
  return v && *v ? v : otherwise;
}

std::string user_home() {
  if (std::string home = getenv_or("HOME"); !home.empty()) return home;
  struct passwd entry {};
  struct passwd* found = nullptr;
  char buffer[16384];
  if (::getpwuid_r(::getuid(), &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_dir &&
      found->pw_dir[0] == '/')
    return found->pw_dir;
  return "";
}

std::string find_on_path(const std::string& name, const std::string& path) {
  for (std::size_t at = 0; at <= path.size();) {
    const std::size_t end = std::min(path.find(':', at), path.size());
    if (end > at) {
      const std::filesystem::path p = std::filesystem::path(path.substr(at, end - at)) / name;
      std::error_code ec;
      if (std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
    }
    at = end + 1;
  }
  return "";
}

}  // namespace ptxcts

#include "util/private_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

std::string why_not_private(const fs::path& at, const struct stat& st) {
  const uid_t me = ::geteuid();
  if (st.st_uid != me && st.st_uid != 0)
    return at.string() + " belongs to uid " + std::to_string(st.st_uid) + ", neither you (uid " + std::to_string(me) +
           ") nor root";
  const bool sticky_root = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) && st.st_uid == 0;
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !sticky_root) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return at.string() + " is writable by " + ((st.st_mode & S_IWOTH) ? "every user" : "its group") + " (mode " +
           mode + ")";
  }
  return "";
}

}  // namespace

std::string writable_by_others(const fs::path& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (ec) return "";
  std::vector<fs::path> chain;
  for (fs::path p = real;; p = p.parent_path()) {
    chain.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto const& p : chain) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0)
      return p.string() + " cannot be checked (" + std::strerror(errno) + ")";
    if (std::string why = why_not_private(p, st); !why.empty()) return why;
  }
  return "";
}

void make_private_folder(const fs::path& dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = fs::absolute(dir); !fs::exists(p, ec) && p != p.parent_path(); p = p.parent_path())
    missing.push_back(p);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it)
    if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
      throw std::runtime_error(it->string() + ": cannot make this folder (" + std::strerror(errno) + ")");
  if (std::string why = writable_by_others(dir); !why.empty())
    throw std::runtime_error(dir.string() + ": not a private folder: " + why +
                             "; another user could put programs there that would run as you");
}

}  // namespace ptxcts

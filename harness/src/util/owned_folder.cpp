#include "util/owned_folder.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "util/atomic_file.hpp"
#include "util/checked_file.hpp"
#include "util/file_text.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// ---- removal on a signal: what a handler may do (no locks, no allocation) ----

// The folders to remove on a signal, in fixed slots: 0 free, 1 being filled or emptied, 2 in force.
struct Slot {
  std::atomic<int> state{0};
  char path[4096];
};
std::array<Slot, 32>& slots() {
  static std::array<Slot, 32> s;
  return s;
}

// Removes `name` (in the folder `at`) and, if it is a folder, everything in it, a few levels deep,
// with system calls alone. Entries removed while the folder is read may hide others: read again
// until a pass finds nothing to remove.
void remove_tree_now(int at, const char* name, int depth) {
  const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    ::unlinkat(at, name, 0);
    return;
  }
  alignas(8) char entries[2048];
  for (bool removed = true; removed;) {
    removed = false;
    ::lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = ::getdents64(fd, entries, sizeof entries)) > 0;)
      for (ssize_t k = 0; k < n;) {
        auto* e = reinterpret_cast<struct dirent64*>(entries + k);
        k += e->d_reclen;
        if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
        if (e->d_type == DT_DIR && depth < 6) remove_tree_now(fd, e->d_name, depth + 1);
        else ::unlinkat(fd, e->d_name, 0);
        removed = true;
      }
  }
  ::close(fd);
  ::unlinkat(at, name, AT_REMOVEDIR);
}

void remove_registered_now() {
  for (auto& s : slots())
    if (s.state.load() == 2) remove_tree_now(AT_FDCWD, s.path, 0);
}

constexpr std::array<int, 3> kEndingSignals = {SIGINT, SIGTERM, SIGHUP};
std::array<struct sigaction, 3> previous_actions;

// Removes the folders, then hands the signal to whoever had it (subprocess: kill the children, end
// by the signal), then removes again what the children may have made meanwhile.
void remove_then_pass_on(int sig) {
  const int saved_errno = errno;
  remove_registered_now();
  for (std::size_t k = 0; k < kEndingSignals.size(); ++k) {
    if (kEndingSignals[k] != sig) continue;
    const struct sigaction& before = previous_actions[k];
    if (!(before.sa_flags & SA_SIGINFO) && before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
      before.sa_handler(sig);
      remove_registered_now();
    } else {  // the default: end by the signal, once this handler returns
      ::signal(sig, SIG_DFL);
      ::raise(sig);
    }
  }
  errno = saved_errno;
}

// Once, at the first folder: after main's own handler (util/subprocess) is in place, so that it is
// chained, not replaced. A signal this process ignores (nohup's SIGHUP) stays ignored.
void remove_on_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t k = 0; k < kEndingSignals.size(); ++k) {
      sigaction(kEndingSignals[k], nullptr, &previous_actions[k]);
      if (!(previous_actions[k].sa_flags & SA_SIGINFO) && previous_actions[k].sa_handler == SIG_IGN) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_then_pass_on;
      sigemptyset(&sa.sa_mask);
      sigaction(kEndingSignals[k], &sa, nullptr);
    }
  });
}

void remember(const fs::path& dir) {
  const std::string p = fs::absolute(dir).string();
  if (p.size() >= sizeof(Slot::path)) return;  // too long to remove on a signal: removed when it goes
  for (auto& s : slots()) {
    int free = 0;
    if (!s.state.compare_exchange_strong(free, 1)) continue;
    std::memcpy(s.path, p.c_str(), p.size() + 1);
    s.state.store(2);
    return;
  }
}

void forget(const fs::path& dir) {
  const std::string p = fs::absolute(dir).string();
  for (auto& s : slots()) {
    int in_force = 2;
    if (s.state.load() == 2 && p == s.path && s.state.compare_exchange_strong(in_force, 1)) {
      s.state.store(0);
      return;
    }
  }
}

// ---- owners ----

// A small file's text (an owner file, /proc's), "" where it cannot be read or is not what is expected
// there: a folder, or more than 64 KiB (a planted owner file is not read without end).
std::string text_of(const fs::path& file) {
  try {
    return try_read_file_text(file, std::size_t{64} << 10, "an owner file or /proc's record of a process").value_or("");
  } catch (const std::runtime_error&) { return ""; }
}

// The process's start time in clock ticks since boot (/proc/PID/stat's 22nd field), "" if it is gone.
// A zombie (state Z or X: dead, its parent has not reaped it yet) is gone: a run killed with its
// parent is reaped by PID 1, which in a container may take a second or more, and its folder is no
// one's from the kill on.
std::string start_time_of(long pid) {
  const std::string stat = text_of("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t comm_end = stat.rfind(')');  // the command's name may hold spaces and parentheses
  if (comm_end == std::string::npos) return "";
  std::istringstream fields(stat.substr(comm_end + 1));
  std::string field;
  for (int n = 3; n <= 22 && fields >> field; ++n) {
    if (n == 3 && (field == "Z" || field == "X")) return "";
    if (n == 22) return field;
  }
  return "";
}

std::string boot_id() {
  std::string id = text_of("/proc/sys/kernel/random/boot_id");
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

std::string pid_namespace() {
  std::error_code ec;
  const fs::path ns = fs::read_symlink("/proc/self/ns/pid", ec);
  return ec ? "" : ns.string();
}

std::string owner_text() {
  const long pid = ::getpid();
  return "pid " + std::to_string(pid) + "\nstart " + start_time_of(pid) + "\npidns " + pid_namespace() + "\nboot " +
         boot_id() + "\n";
}

std::uintmax_t bytes_in(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  return bytes;
}

// Once per process and parent folder: a run makes a scratch folder or two.
void sweep_once(const fs::path& parent) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  std::lock_guard<std::mutex> hold(mutex);
  if (!swept.insert(fs::absolute(parent).string()).second) return;
  const Swept s = sweep_dead_owners(parent);
  if (s.folders)
    std::fprintf(stderr,
                 "ptxcts: swept %d scratch folder%s of runs killed before they could clean up (%s) from %s: %s\n",
                 s.folders, s.folders == 1 ? "" : "s", bytes_in_words(s.bytes).c_str(), parent.string().c_str(),
                 s.names.c_str());
}

}  // namespace

bool owner_dead(const fs::path& dir) {
  std::istringstream owner(text_of(dir / "owner"));
  std::string key, value, pid, start, pidns, boot;
  while (owner >> key && std::getline(owner >> std::ws, value)) {
    if (key == "pid") pid = value;
    else if (key == "start") start = value;
    else if (key == "pidns") pidns = value;
    else if (key == "boot") boot = value;
  }
  if (pid.empty() || start.empty()) return false;       // no owner known (or not yet written): not ours to judge
  if (!boot.empty() && boot != boot_id()) return true;  // the machine has rebooted since
  if (pidns != pid_namespace()) return false;           // another namespace's pid: cannot be looked up here
  long number = 0;
  try {
    number = std::stol(pid);
  } catch (const std::exception&) { return false; }
  return start_time_of(number) != start;  // gone, or the pid is another process's now
}

Swept sweep_dead_owners(const fs::path& parent) {
  Swept s;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("ptxcts-", 0) != 0 || !it->is_directory(ec) || it->is_symlink(ec) || !owner_dead(it->path()))
      continue;
    const std::uintmax_t bytes = bytes_in(it->path());
    std::error_code gone;
    fs::remove_all(it->path(), gone);
    if (gone) continue;
    ++s.folders;
    s.bytes += bytes;
    s.names += (s.names.empty() ? "" : ", ") + name;
  }
  return s;
}

fs::path make_owned_folder(const fs::path& parent, const std::string& prefix) {
  fs::create_directories(parent);
  sweep_once(parent);
  remove_on_signals();
  std::string name = (parent / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(name.data()))
    throw std::runtime_error(name + ": cannot make a scratch folder: " + std::strerror(errno) + " (" +
                             free_space_of(parent) + " free on its filesystem)");
  remember(name);
  try {
    write_file_atomically(fs::path(name) / "owner", owner_text());  // whole: a sweeper never reads half of it
  } catch (...) {
    remove_owned_folder(name);
    throw;
  }
  return name;
}

fs::path memory_backed_parent() {
  std::error_code ec;
  const fs::path shm = "/dev/shm";
  if (fs::is_directory(shm, ec) && ::access(shm.c_str(), W_OK | X_OK) == 0) return shm;
  return fs::temp_directory_path();
}

void remove_owned_folder(const fs::path& dir) {
  forget(dir);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace ptxcts

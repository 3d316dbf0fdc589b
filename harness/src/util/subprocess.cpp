#include "util/subprocess.hpp"

#include "util/utf8_text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <thread>

extern char** environ;

namespace ptxcts {

namespace {

// The process groups of the children running now, for the signal handler: fixed slots, lock-free
// (a handler may not take a lock).
class LiveChildren {
 public:
  void add(pid_t pid) {
    for (auto& s : slots_) {
      pid_t empty = 0;
      if (s.compare_exchange_strong(empty, pid)) return;
    }
  }
  void forget(pid_t pid) {
    for (auto& s : slots_) {
      pid_t p = pid;
      if (s.compare_exchange_strong(p, 0)) return;
    }
  }
  void kill_all() {
    for (auto& s : slots_)
      if (pid_t p = s.load(); p > 0) ::kill(-p, SIGKILL);
  }

 private:
  std::array<std::atomic<pid_t>, 1024> slots_{};
};

LiveChildren& live_children() {
  static LiveChildren children;
  return children;
}

void end_with_children(int sig) {
  live_children().kill_all();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void end_children_with_this_process() {
  live_children();  // made now, not first inside a handler
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction sa {};
    sa.sa_handler = end_with_children;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// A limit on a child's run: its deadline, whether it is in force, and the result's flag that says it passed.
struct Limit {
  bool on;
  Clock::time_point at;
  bool* flag;
};
using Limits = std::array<Limit, 2>;  // the whole run's (timeout), then the silence's (idle, moved on by output)

// Each limit in force either has passed (its flag set: true) or bounds how long poll may wait
// (wait_ms; -1: no bound).
bool limit_passed(const Limits& limits, int& wait_ms) {
  wait_ms = -1;
  for (auto const& l : limits) {
    if (!l.on) continue;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(l.at - Clock::now()).count();
    if (left <= 0) {
      *l.flag = true;
      return true;
    }
    wait_ms = wait_ms < 0 ? static_cast<int>(left) : std::min(wait_ms, static_cast<int>(left));
  }
  return false;
}

// Starts argv with its stdout and stderr on `out`, in a process group of its own (so that a
// timeout can end its children too). 0, or the error number.
int spawn(const std::vector<std::string>& argv, int out, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (auto const& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return rc;
}

// Hands on_line each whole line of the output that ends in what arrived last (from `before`, the
// output's size before it did).
void pass_lines(const std::string& output, std::size_t before, const std::function<void(const std::string&)>& on_line) {
  std::size_t line_start = output.rfind('\n', before == 0 ? 0 : before - 1);
  line_start = (line_start == std::string::npos || before == 0) ? 0 : line_start + 1;
  for (std::size_t nl; (nl = output.find('\n', line_start)) != std::string::npos; line_start = nl + 1)
    if (nl >= before) on_line(valid_utf8(output.substr(line_start, nl - line_start)));
}

// Reads the child's output (from fd) until it closes it or a limit passes (its group killed). What
// on_line threw is returned, the group killed: what reads the lines gave up (a full disk under the
// journal), so does the child.
std::exception_ptr read_output(pid_t pid, int fd, ProcessResult& result, Limits& limits, double idle_seconds,
                               const std::function<void(const std::string&)>& on_line) {
  char buf[65536];
  for (;;) {
    int wait_ms = -1;
    if (limit_passed(limits, wait_ms)) {
      kill(-pid, SIGKILL);
      return nullptr;
    }
    pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
    int n = poll(&p, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // deadline check at the top
    ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return nullptr;
    limits[1].at = after(idle_seconds);
    std::size_t before = result.output.size();
    result.output.append(buf, static_cast<std::size_t>(got));
    if (!on_line) continue;
    try {
      pass_lines(result.output, before, on_line);
    } catch (...) {
      kill(-pid, SIGKILL);
      return std::current_exception();
    }
  }
}

// Output closed is not the end: a child may close it and go on (or hang). The limits still hold
// until it exits; past them, its group is killed. It is reaped only after its group is killed, so
// that its pid (the group's id) cannot have been reused by then. Its wait status.
int reap(pid_t pid, const Limits& limits, bool killed) {
  for (;;) {
    siginfo_t info{};
    int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | (killed ? 0 : WNOHANG));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 || info.si_pid == pid) break;
    for (auto const& l : limits)
      if (l.on && !killed && Clock::now() >= l.at) *l.flag = killed = true;
    if (killed) kill(-pid, SIGKILL);
    else std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(-pid, SIGKILL);  // what it left behind in its group (a grandchild holding on) goes with it
  live_children().forget(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return status;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds,
                          const std::function<void(const std::string&)>& on_line, double idle_seconds) {
  ProcessResult result;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    result.exit_code = 127;
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t pid = 0;
  const int rc = spawn(argv, pipefd[1], pid);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    result.exit_code = 127;
    result.output = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return result;
  }
  live_children().add(pid);
  Limits limits{{{.on = timeout_seconds > 0, .at = after(timeout_seconds), .flag = &result.timed_out},
                 {.on = idle_seconds > 0, .at = after(idle_seconds), .flag = &result.went_quiet}}};
  const std::exception_ptr thrown = read_output(pid, pipefd[0], result, limits, idle_seconds, on_line);
  close(pipefd[0]);
  const int status = reap(pid, limits, result.timed_out || result.went_quiet || thrown);
  if (thrown) std::rethrow_exception(thrown);
  result.output = valid_utf8(result.output);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace ptxcts

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

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds,
                          const std::function<void(const std::string&)>& on_line, double idle_seconds) {
  ProcessResult result;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    result.exit_code = 127;
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // so a timeout can end its children too
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (auto const& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(pipefd[1]);
  if (rc == 0) live_children().add(pid);
  if (rc != 0) {
    close(pipefd[0]);
    result.exit_code = 127;
    result.output = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return result;
  }
  using clock = std::chrono::steady_clock;
  auto after = [](double seconds) {
    return clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  };
  clock::time_point deadline = after(timeout_seconds), quiet_deadline = after(idle_seconds);
  char buf[65536];
  std::exception_ptr thrown;  // from on_line: rethrown once the child is killed and reaped
  // Each limit in force either has passed (kill, say which) or bounds how long poll may wait.
  struct Limit {
    bool on;
    const clock::time_point* at;
    bool* flag;
  };
  const Limit limits[] = {{timeout_seconds > 0, &deadline, &result.timed_out},
                          {idle_seconds > 0, &quiet_deadline, &result.went_quiet}};
  for (;;) {
    int wait_ms = -1;
    bool killed = false;
    for (auto const& l : limits) {
      if (!l.on) continue;
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*l.at - clock::now()).count();
      if (left <= 0) {
        *l.flag = killed = true;
        break;
      }
      wait_ms = wait_ms < 0 ? static_cast<int>(left) : std::min(wait_ms, static_cast<int>(left));
    }
    if (killed) {
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{pipefd[0], POLLIN, 0};
    int n = poll(&p, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // deadline check at the top
    ssize_t got = read(pipefd[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    quiet_deadline = after(idle_seconds);
    std::size_t before = result.output.size();
    result.output.append(buf, static_cast<std::size_t>(got));
    if (on_line) {
      std::size_t line_start = result.output.rfind('\n', before == 0 ? 0 : before - 1);
      line_start = (line_start == std::string::npos || before == 0) ? 0 : line_start + 1;
      try {
        for (std::size_t nl; (nl = result.output.find('\n', line_start)) != std::string::npos; line_start = nl + 1)
          if (nl >= before) on_line(valid_utf8(result.output.substr(line_start, nl - line_start)));
      } catch (...) {  // what reads the lines gave up (a full disk under the journal): so does the child
        thrown = std::current_exception();
        kill(-pid, SIGKILL);
        break;
      }
    }
  }
  close(pipefd[0]);
  // Output closed is not the end: a child may close it and go on (or hang). The limits still hold
  // until it exits; past them, its group is killed. It is reaped only after its group is killed, so
  // that its pid (the group's id) cannot have been reused by then.
  for (bool killed = result.timed_out || result.went_quiet || thrown;;) {
    siginfo_t info{};
    int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | (killed ? 0 : WNOHANG));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 || info.si_pid == pid) break;
    for (auto const& l : limits)
      if (l.on && !killed && clock::now() >= *l.at) *l.flag = killed = true;
    if (killed) kill(-pid, SIGKILL);
    else std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(-pid, SIGKILL);  // what it left behind in its group (a grandchild holding on) goes with it
  live_children().forget(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (thrown) std::rethrow_exception(thrown);
  result.output = valid_utf8(result.output);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace ptxcts

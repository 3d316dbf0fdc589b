#include "util/subprocess.hpp"

#include "util/utf8_text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

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

using Clock = std::chrono::steady_clock;

void ChildWatch::deadline_in(double seconds) {
  const auto at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  deadline_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

void ChildWatch::clear_deadline() { deadline_ns_ = -1; }

std::optional<Clock::time_point> ChildWatch::deadline() const {
  const std::int64_t ns = deadline_ns_;
  if (ns < 0) return std::nullopt;
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(ns)));
}

namespace {

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// How long what a child left holding its output is read after the child exited.
constexpr int kDrainGraceMs = 250;
// How often a watch from another thread (its deadline moved, stop) is looked at while waiting.
constexpr int kWatchMs = 100;

// The limits on one child's run: each either has passed (its result flag set) or bounds how long
// a wait may last.
class Limits {
 public:
  Limits(const ProcessOptions& opt, ProcessResult& result)
      : opt_(opt),
        result_(result),
        end_(after(opt.timeout_seconds)),
        quiet_(after(opt.idle_seconds)) {}
  void heard() { quiet_ = after(opt_.idle_seconds); }  // output: the idle watchdog moves on
  // True (its flag set) if a limit has passed; else wait_ms bounds the next wait (-1: none).
  bool passed(int& wait_ms) const {
    wait_ms = -1;
    if (opt_.watch && opt_.watch->stop_asked()) return result_.stopped = true;
    struct Deadline {
      bool on;
      Clock::time_point at;
      bool* flag;
    };
    const auto watched = opt_.watch ? opt_.watch->deadline() : std::nullopt;
    for (const Deadline& d : {Deadline{opt_.timeout_seconds > 0, end_, &result_.timed_out},
                              Deadline{opt_.idle_seconds > 0, quiet_, &result_.went_quiet},
                              Deadline{watched.has_value(), watched.value_or(end_), &result_.stalled}}) {
      if (!d.on) continue;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d.at - Clock::now()).count();
      if (left <= 0) return *d.flag = true;
      wait_ms = wait_ms < 0 ? static_cast<int>(left) : std::min(wait_ms, static_cast<int>(left));
    }
    if (opt_.watch) wait_ms = wait_ms < 0 ? kWatchMs : std::min(wait_ms, kWatchMs);
    return false;
  }
  bool killed() const {
    return result_.timed_out || result_.went_quiet || result_.stalled || result_.stopped || result_.line_too_long;
  }

 private:
  const ProcessOptions& opt_;
  ProcessResult& result_;
  Clock::time_point end_, quiet_;
};

// The program's path as execvp would find it (searched for here: the child may only make system
// calls between fork and exec). Empty: none.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  const std::string dirs = path && *path ? path : "/bin:/usr/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = end > at ? dirs.substr(at, end - at) : ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    at = end + 1;
  }
  return "";
}

// What the child needs between its start and exec, made before: it shares this process's memory
// (as posix_spawn's child does: no copy of the page tables, whatever this process's size) and may
// only make system calls.
struct ChildStart {
  const char* path;
  char* const* args;
  int out;
  pid_t parent;
  const sigset_t* mask;
  int exec_error = 0;  // set by a child whose exec failed (this process waits for its exec or exit)
};

// The child's side: its own process group; on Linux it dies with this process (and quits at once
// if this process died before that was set); the signal handlers and mask as they were before this
// process changed them; stdout and stderr on `out`; then exec.
int become_child(void* arg) {
  auto* c = static_cast<ChildStart*>(arg);
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (::getppid() != c->parent) ::_exit(127);  // its parent is gone already: nobody to run for
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &dfl, nullptr);
  ::dup2(c->out, STDOUT_FILENO);
  ::dup2(c->out, STDERR_FILENO);
  ::sigprocmask(SIG_SETMASK, c->mask, nullptr);
  ::execv(c->path, c->args);
  c->exec_error = errno;
  ::_exit(127);
}

// Starts argv with its stdout and stderr on `out`. 0, or the error number. Signals are held off
// around the start, so that no handler of this process runs in the child before exec; this
// thread goes on once the child has exec'd (or failed to).
int spawn(const std::vector<std::string>& argv, int out, pid_t& pid) {
  const std::string path = find_program(argv[0]);
  if (path.empty()) return ENOENT;
  std::vector<char*> args;
  for (auto const& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char> stack(std::size_t{64} << 10);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  ChildStart start{.path = path.c_str(), .args = args.data(), .out = out, .parent = ::getpid(), .mask = &old};
  pid = ::clone(become_child, stack.data() + stack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
  const int start_error = pid < 0 ? errno : 0;
  if (pid > 0) {
    ::setpgid(pid, pid);  // (done by the child already; fails harmlessly once it has exec'd)
    live_children().add(pid);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (start_error) return start_error;
  if (start.exec_error) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
    live_children().forget(pid);
    return start.exec_error;
  }
  return 0;
}

// A descriptor that becomes readable when the child exits (Linux 5.3 and later); -1: none, and
// the child is looked at between waits instead.
int exit_descriptor(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

bool has_exited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid;
}

// Reads a child's output, lines to on_line, under the limits: until it exits (then what is still
// readable, for a short grace), closes its output, passes a limit or prints a line too long (both
// killing its group), or on_line throws (what reads the lines gave up, so does the child: its
// group killed, and the exception kept for the caller).
class OutputReader {
 public:
  OutputReader(pid_t pid, int fd, const ProcessOptions& opt, ProcessResult& result, Limits& limits)
      : pid_(pid), fd_(fd), exit_fd_(exit_descriptor(pid)), opt_(opt), result_(result), limits_(limits) {}
  ~OutputReader() {
    if (exit_fd_ >= 0) ::close(exit_fd_);
  }
  OutputReader(const OutputReader&) = delete;
  OutputReader& operator=(const OutputReader&) = delete;

  std::exception_ptr read_all() {
    for (;;) {
      int wait_ms = -1;
      if (limits_.passed(wait_ms)) return kill_group();
      if (exit_fd_ < 0) wait_ms = wait_ms < 0 ? 50 : std::min(wait_ms, 50);
      std::array<pollfd, 2> p{pollfd{.fd = fd_, .events = POLLIN, .revents = 0},
                              pollfd{.fd = exit_fd_, .events = POLLIN, .revents = 0}};
      const int n = ::poll(p.data(), exit_fd_ >= 0 ? 2 : 1, wait_ms);
      if (n < 0 && errno == EINTR) continue;
      if ((exit_fd_ >= 0 && p[1].revents) || (exit_fd_ < 0 && has_exited(pid_))) return drain();
      if (n <= 0 || !p[0].revents) continue;  // a deadline: looked at above
      const Step s = read_once();
      if (s != Step::More) return s == Step::Killed ? kill_group() : thrown_;
    }
  }

 private:
  enum class Step { More, Closed, Killed };

  std::exception_ptr kill_group() {
    ::kill(-pid_, SIGKILL);
    return thrown_;
  }
  // The child has exited: what it wrote is read, and what it left holding the output is given
  // kDrainGraceMs more, then not waited for.
  std::exception_ptr drain() {
    const auto until = Clock::now() + std::chrono::milliseconds(kDrainGraceMs);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return thrown_;  // something still writes to it: no longer this child's output
      pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
      const int n = ::poll(&p, 1, static_cast<int>(left));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return thrown_;
      const Step s = read_once();
      if (s == Step::Killed) return kill_group();
      if (s == Step::Closed) return thrown_;
    }
  }
  Step read_once() {
    char buf[65536];
    const ssize_t got = ::read(fd_, buf, sizeof buf);
    if (got < 0 && errno == EINTR) return Step::More;
    if (got <= 0) return Step::Closed;
    limits_.heard();
    return take(buf, static_cast<std::size_t>(got));
  }
  // Appends what arrived; hands on_line the lines it ends; a line past the limit kills the child.
  Step take(const char* buf, std::size_t n) {
    std::string& out = result_.output;
    std::size_t scan = out.size();
    out.append(buf, n);
    for (std::size_t nl; (nl = out.find('\n', scan)) != std::string::npos; scan = line_start_ = nl + 1) {
      if (too_long(nl - line_start_)) return Step::Killed;
      if (opt_.on_line) try {
          opt_.on_line(valid_utf8(out.substr(line_start_, nl - line_start_)));
        } catch (...) {
          thrown_ = std::current_exception();
          return Step::Killed;
        }
    }
    return too_long(out.size() - line_start_) ? Step::Killed : Step::More;
  }
  // A line past the limit: cut in the output (its start kept, to say what it was), and the child stopped.
  bool too_long(std::size_t length) {
    if (opt_.max_line_bytes == 0 || length <= opt_.max_line_bytes) return false;
    result_.output.resize(line_start_ + std::min<std::size_t>(length, 200));
    result_.output += "...\n";
    return result_.line_too_long = true;
  }

  pid_t pid_;
  int fd_, exit_fd_;
  const ProcessOptions& opt_;
  ProcessResult& result_;
  Limits& limits_;
  std::size_t line_start_ = 0;  // where the line now arriving starts in the output
  std::exception_ptr thrown_;
};

// Output closed is not the end: a child may close it and go on (or hang). The limits still hold
// until it exits; past them, its group is killed. It is reaped only after its group is killed, so
// that its pid (the group's id) cannot have been reused by then. Its wait status.
int reap(pid_t pid, const Limits& limits) {
  bool killed = limits.killed();
  for (;;) {
    siginfo_t info{};
    int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | (killed ? 0 : WNOHANG));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 || info.si_pid == pid) break;
    int wait_ms = -1;
    if (!killed && limits.passed(wait_ms)) killed = true;
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

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    result.exit_code = 127;
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t pid = 0;
  const int rc = argv.empty() ? ENOENT : spawn(argv, pipefd[1], pid);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    result.exit_code = 127;
    result.output = "cannot start " + (argv.empty() ? std::string("nothing") : argv[0]) + ": " + std::strerror(rc);
    return result;
  }
  Limits limits(options, result);
  std::exception_ptr thrown;
  {
    OutputReader reader(pid, pipefd[0], options, result, limits);
    thrown = reader.read_all();
  }
  close(pipefd[0]);
  const int status = reap(pid, limits);
  if (thrown) std::rethrow_exception(thrown);
  result.output = valid_utf8(result.output);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds,
                          const std::function<void(const std::string&)>& on_line, double idle_seconds) {
  return run_process(argv, ProcessOptions{.timeout_seconds = timeout_seconds,
                                          .idle_seconds = idle_seconds,
                                          .on_line = on_line,
                                          .max_line_bytes = kMaxChildLineBytes,
                                          .watch = nullptr});
}

}  // namespace ptxcts

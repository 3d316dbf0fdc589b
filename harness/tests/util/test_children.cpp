// Children on a leash: the limits hold after a child closes its output, whatever it leaves in its
// process group dies with it, its text is valid UTF-8, and `ptxcts run` ends its device runner when
// it is ended by a signal.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/hanging_run.hpp"
#include "support/shell_line.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;
using ptxcts::test::shell_line;
using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Running, not a zombie: a killed child whose parent died is a zombie until its new parent (often a
// container's PID 1, which may never) reaps it.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  const std::size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z' && text[paren + 2] != 'X';
}

int read_pid(const fs::path& file) {
  std::ifstream in(file);
  int pid = 0;
  in >> pid;
  return pid;
}

}  // namespace

TEST(Children, AChildThatClosesItsOutputAndHangsIsKilledAtTheLimit) {
  // Before: EOF was taken for the end, and waitpid without a limit waited forever.
  auto t0 = clock_type::now();
  ProcessResult r = run_process({"sh", "-c", "exec >/dev/null 2>&1; sleep 30"}, 1.0);
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
}

TEST(Children, TheIdleWatchdogHoldsAfterTheOutputCloses) {
  auto t0 = clock_type::now();
  ProcessResult r = run_process({"sh", "-c", "echo hello; exec >/dev/null 2>&1; sleep 30"}, 0, {}, 1.0);
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_TRUE(r.went_quiet);
  EXPECT_EQ(r.output, "hello\n");
}

TEST(Children, WhatAChildLeavesInItsGroupDiesWithIt) {
  const fs::path pid_file = fs::temp_directory_path() / ("ptxcts-grandchild-" + std::to_string(::getpid()));
  ProcessResult r =
      run_process(shell_line("sleep 30 >/dev/null 2>&1 & echo $! > \"$1\"; exit 0", {pid_file.string()}), 10.0);
  EXPECT_EQ(r.exit_code, 0);
  const int grandchild = read_pid(pid_file);
  ASSERT_GT(grandchild, 0);
  for (int i = 0; i < 100 && alive(grandchild); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(alive(grandchild));
  fs::remove(pid_file);
}

TEST(Children, OutputThatIsNotUtf8IsStoredWithReplacementCharacters) {
  // Before: the bytes were stored as they came, and nlohmann's dump() threw when a record was saved.
  ProcessResult r = run_process({"sh", "-c", "printf 'bad \\377\\376 byte\\n'"}, 10.0);
  EXPECT_EQ(r.output, "bad \xEF\xBF\xBD\xEF\xBF\xBD byte\n");
  std::string seen;
  run_process({"sh", "-c", "printf 'x\\300\\n'"}, 10.0, [&seen](const std::string& line) { seen = line; });
  EXPECT_EQ(seen, "x\xEF\xBF\xBD");
}

TEST(Children, AChildIsKilledAndReapedWhenWhatReadsItsOutputThrows) {
  // Before: an exception from the line callback (the journal on a full disk, appended as each
  // result arrives) left run_process with the device runner still running, orphaned, after ptxcts
  // had said the run stopped.
  const fs::path pid_file = fs::temp_directory_path() / ("ptxcts-thrown-" + std::to_string(::getpid()));
  fs::remove(pid_file);
  auto t0 = clock_type::now();
  EXPECT_THROW(run_process(shell_line("echo $$ > \"$1\"; echo first; exec sleep 30", {pid_file.string()}), 60.0,
                           [](const std::string&) { throw std::runtime_error("cannot write the journal"); }),
               std::runtime_error);
  EXPECT_LT(seconds_since(t0), 5.0);
  const int child = read_pid(pid_file);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(alive(child)) << "the child outlived the exception";
  if (alive(child)) ::kill(child, SIGKILL);
  fs::remove(pid_file);
}

TEST(Children, AChildIsDoneWhenItExitsNotWhenItsOutputCloses) {
  // Before: a ptxas that exited 0 but left a grandchild in a session of its own holding its output
  // was read until the time limit (300 s for ptxas) and then counted as hung.
  const fs::path pid_file = fs::temp_directory_path() / ("ptxcts-setsid-" + std::to_string(::getpid()));
  fs::remove(pid_file);
  auto t0 = clock_type::now();
  ProcessResult r = run_process(
      shell_line("setsid sh -c 'echo $$ > \"$0\"; exec sleep 30' \"$1\" & echo assembled", {pid_file.string()}),
      10.0);
  EXPECT_LT(seconds_since(t0), 3.0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "assembled\n");
  for (int i = 0; i < 100 && !read_pid(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (const int left = read_pid(pid_file); left > 0) ::kill(left, SIGKILL);  // not its group's: the test's to end
  fs::remove(pid_file);
}

TEST(Children, AProgramThatCannotBeStartedSaysWhy) {
  ProcessResult r = run_process({"/nonexistent/ptxas", "--version"}, 10.0);
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(r.output, "cannot start /nonexistent/ptxas: No such file or directory");
  ProcessResult none = run_process({"ptxcts-no-such-program-on-path"}, 10.0);
  EXPECT_EQ(none.exit_code, 127);
  EXPECT_EQ(none.output, "cannot start ptxcts-no-such-program-on-path: No such file or directory");
}

TEST(Children, AChildDiesWithTheProcessThatStartedIt) {
  // Before: kill -9 of `ptxcts run` (the OOM killer, a CI job's time limit) left its device runner
  // running with parent 1. Now a parent-death signal, set between fork and exec, ends it.
  const fs::path pid_file = fs::temp_directory_path() / ("ptxcts-orphan-" + std::to_string(::getpid()));
  fs::remove(pid_file);
  const pid_t parent = ::fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    run_process(shell_line("echo $$ > \"$1\"; exec sleep 60", {pid_file.string()}), 120.0);
    std::_Exit(0);
  }
  int child = 0;
  for (int i = 0; i < 250 && !child; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    child = read_pid(pid_file);
  }
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  ASSERT_GT(child, 0);
  for (int i = 0; i < 100 && alive(child); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(alive(child)) << "the child outlived the process that started it";
  if (alive(child)) ::kill(child, SIGKILL);
  fs::remove(pid_file);
}

TEST(Children, ALineLongerThanTheLimitStopsTheChildAtOnce) {
  // Before: a device runner printing gigabytes on one line was read whole, each chunk searched back
  // to the line's start (quadratic: over 70 s of both cores), memory growing with it.
  auto t0 = clock_type::now();
  int lines = 0;
  ProcessResult r = run_process({"sh", "-c", "echo first; exec tr '\\0' x < /dev/zero"},
                                ProcessOptions{.timeout_seconds = 60, .on_line = [&](const std::string&) { ++lines; }});
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_TRUE(r.line_too_long);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(lines, 1);
  EXPECT_EQ(r.output, "first\n" + std::string(200, 'x') + "...\n");
  // The limit is the caller's to choose.
  ProcessResult small = run_process({"sh", "-c", "echo 12345678901"}, ProcessOptions{.max_line_bytes = 10});
  EXPECT_TRUE(small.line_too_long);
  ProcessResult fits = run_process({"sh", "-c", "echo 1234567890"}, ProcessOptions{.max_line_bytes = 10});
  EXPECT_FALSE(fits.line_too_long);
  EXPECT_EQ(fits.output, "1234567890\n");
}

TEST(Children, AWatchsDeadlineHoldsThoughTheChildKeepsTalking) {
  // Output moves the idle watchdog on, not the caller's deadline: a runner saying "loading" every
  // 50 ms forever is stopped at it.
  ChildWatch watch;
  watch.deadline_in(0.5);
  auto t0 = clock_type::now();
  ProcessResult r = run_process({"sh", "-c", "while :; do echo loading; sleep 0.05; done"},
                                ProcessOptions{.timeout_seconds = 30, .idle_seconds = 1, .watch = &watch});
  EXPECT_LT(seconds_since(t0), 3.0);
  EXPECT_TRUE(r.stalled);
  EXPECT_FALSE(r.went_quiet);
  EXPECT_EQ(r.signal, SIGKILL);
}

TEST(Children, AWatchStopsTheChildFromAnotherThread) {
  ChildWatch watch;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    watch.stop();
  });
  auto t0 = clock_type::now();
  ProcessResult r = run_process({"sh", "-c", "exec sleep 30"}, ProcessOptions{.watch = &watch});
  stopper.join();
  EXPECT_LT(seconds_since(t0), 3.0);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.signal, SIGKILL);
}

TEST(Children, AWaitingDeviceRunnerWhoseParentIsGoneQuits) {
  // Where no parent-death signal reaches it (not Linux, or started by something else), a standby
  // runner checks its parent. Before: it waited for its go file forever, with parent 1.
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-parentless-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string pid_file = (dir / "runner.pid").string();
  const pid_t parent = ::fork();  // starts the runner without run_process (no parent-death signal), then dies
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    const pid_t runner = ::fork();
    if (runner == 0) {
      std::freopen("/dev/null", "w", stdout);
      ::execl(PTXCTS_FAKE_RUNNER, PTXCTS_FAKE_RUNNER, "--device", "0", "--jobs", (dir / "jobs.bin").c_str(),
              "--results", (dir / "results.bin").c_str(), "--standby", (dir / "go").c_str(),
              static_cast<char*>(nullptr));
      std::_Exit(127);
    }
    std::ofstream(pid_file) << runner;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the runner is waiting by now
    std::_Exit(0);
  }
  ::waitpid(parent, nullptr, 0);
  const int runner = read_pid(pid_file);
  ASSERT_GT(runner, 0);
  for (int i = 0; i < 150 && alive(runner); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(alive(runner)) << "the waiting runner outlived its parent";
  if (alive(runner)) ::kill(runner, SIGKILL);
  fs::remove_all(dir);
}

// `ptxcts run` with a device runner that hangs in its first launch: SIGTERM, SIGINT or SIGHUP to
// ptxcts ends the runner too (it runs in a process group of its own, out of the terminal's reach).
// On the build's catalog, as the other signal tests (cli/test_interrupted_runs.cpp): one of its
// own cost each of the four 3-17 s (a catalog and a toolkit audit).
class EndedBySignal : public ::testing::TestWithParam<int> {};

TEST_P(EndedBySignal, PtxctsRunTakesItsDeviceRunnerWithIt) {
  const int sig = GetParam();
  ptxcts::test::HangingRun run;
  if (!run.have_catalog()) GTEST_SKIP() << "the build's catalog holds no sm_90";
  run.start();
  ASSERT_TRUE(run.wait_until_launched()) << "the device runner never started: " << run.said();
  const std::vector<int> runners = run.runner_pids();
  for (int pid : runners) ASSERT_TRUE(alive(pid)) << pid;
  const int status = run.end_by(sig);
  EXPECT_TRUE(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) { EXPECT_EQ(WTERMSIG(status), sig); }
  for (int pid : runners) {
    for (int i = 0; i < 100 && alive(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(alive(pid)) << "the device runner " << pid << " outlived ptxcts";
  }
}

// SIGKILL (the OOM killer, a CI job's time limit): before, the hung runner lived on with parent 1.
INSTANTIATE_TEST_SUITE_P(Signals, EndedBySignal, ::testing::Values(SIGTERM, SIGINT, SIGHUP, SIGKILL),
                         [](const auto& info) { return std::string(sigabbrev_np(info.param)); });

// A standby runner that cannot be told to go or to quit (its go file cannot be written: a full
// $TMPDIR) is stopped, never waited for; one that keeps printing "loading" is stopped at a limit in
// every state (before it is ready, told to quit).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include "run/scratch_dir.hpp"
#include "run/standby_runner.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

TEST(StandbyRunner, ARunnerThatCannotBeToldIsStoppedNotWaitedFor) {
  // Before: its go file unwritable, the runner waited for it (saying "waiting", so the idle
  // watchdog never fired) and ptxcts waited for the runner: `ptxcts run` hung forever, silently.
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-untold-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "not-a-folder") << "a file where the go file's folder should be\n";
  const auto t0 = std::chrono::steady_clock::now();
  for (bool with_work : {false, true}) {
    StandbyRunner runner(RunnerCommand{.runner = PTXCTS_FAKE_RUNNER,
                                       .device = 0,
                                       .files = line_files(dir, 0, "faults"),
                                       .batch = 1,
                                       .idle_timeout = 30},
                         dir / "not-a-folder" / "go");
    if (with_work) EXPECT_THROW(runner.go(GoOrder{.start = 0, .count = 1}), std::exception);
    else EXPECT_THROW(runner.finish(), std::exception);
    EXPECT_TRUE(runner.finish().stopped);
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  fs::remove_all(dir);
}

namespace {

// A device runner that never gets past loading: it prints "loading" every 50 ms whatever it is told
// (a wedged context that looks alive), and leaves its pid where $PTXCTS_TEST_CHATTY_PID says.
constexpr const char* kChattyRunner =
    "#!/bin/sh\necho $$ > \"$PTXCTS_TEST_CHATTY_PID\"\nwhile :; do echo loading; sleep 0.05; done\n";

struct ChattyRunner {
  fs::path dir = fs::temp_directory_path() / ("ptxcts-chatty-" + std::to_string(::getpid()));
  fs::path script = dir / "chatty-runner", pid = dir / "pid";
  ChattyRunner() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(script) << kChattyRunner;
    fs::permissions(script, fs::perms::owner_all);
    ::setenv("PTXCTS_TEST_CHATTY_PID", pid.c_str(), 1);
  }
  ~ChattyRunner() { fs::remove_all(dir); }
  RunnerCommand command(double launch_limit, double batch_limit) const {
    return RunnerCommand{.runner = script.string(),
                         .device = 0,
                         .files = line_files(dir, 0, "faults"),
                         .batch = 1,
                         .idle_timeout = 30,
                         .launch_limit = launch_limit,
                         .batch_limit = batch_limit};
  }
  // finish(), given 10 s: a runner still waited for then is killed by hand, and that is a failure.
  std::optional<ProcessResult> finish_within_10s(StandbyRunner& runner) const {
    auto done = std::async(std::launch::async, [&] { return runner.finish(); });
    if (done.wait_for(std::chrono::seconds(10)) == std::future_status::ready) return done.get();
    std::ifstream in(pid);
    long p = 0;
    if (in >> p && p > 0) ::kill(static_cast<pid_t>(-p), SIGKILL), ::kill(static_cast<pid_t>(p), SIGKILL);
    done.get();
    return std::nullopt;
  }
};

}  // namespace

// Issue 40: the fault line's standby runner, told to quit while it kept printing "loading", was
// waited for forever: no limit was armed for a runner that never got its go, and "loading" moves the
// idle watchdog. A limit is armed in every state: told to quit, the limit on a launch.
TEST(StandbyRunner, ARunnerToldToQuitThatKeepsPrintingLoadingIsStoppedAtTheLimit) {
  ChattyRunner chatty;
  StandbyRunner runner(chatty.command(0.5, 600), chatty.dir / "go");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = std::chrono::steady_clock::now();
  const std::optional<ProcessResult> r = chatty.finish_within_10s(runner);
  ASSERT_TRUE(r.has_value()) << "a runner told to quit that keeps printing 'loading' was waited for (10 s)";
  EXPECT_TRUE(r->stalled);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  EXPECT_EQ(runner.why_stalled(),
            "told to quit, it did not end within 0.5 s (the limit on a launch), though it kept printing ('loading'); "
            "it was killed");
}

// Before its go, too: a runner that never says it is ready gets the limit on a batch from its start.
TEST(StandbyRunner, ARunnerNeverReadyIsStoppedAtTheBatchLimitFromItsStart) {
  ChattyRunner chatty;
  StandbyRunner runner(chatty.command(30, 0.5), chatty.dir / "go");
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  const auto t0 = std::chrono::steady_clock::now();
  const std::optional<ProcessResult> r = chatty.finish_within_10s(runner);
  ASSERT_TRUE(r.has_value()) << "a runner that never got ready was waited for (10 s after its quit)";
  EXPECT_TRUE(r->stalled);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0)
      << "it was not stopped before its quit";
  EXPECT_EQ(runner.why_stalled(),
            "not ready within 0.5 s of its start (the limit on a batch, making its context included), though it kept "
            "printing ('loading'); it was killed");
}

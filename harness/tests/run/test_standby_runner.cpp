// A standby runner that cannot be told to go or to quit (its go file cannot be written: a full
// $TMPDIR) is stopped, never waited for.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

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

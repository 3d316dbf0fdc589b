// Every byte accounted for (issue 30), as a user sees it: a `ptxcts run` ended by SIGINT, SIGTERM or
// SIGHUP leaves no scratch folder; one a SIGKILL left is swept by the next run, which says so; a
// killed run's redirected stdout holds what it printed; a full $TMPDIR is one clear error, not a hang.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "support/hanging_run.hpp"
#include "support/shell_line.hpp"
#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

bool may_unshare() {
  return run_process(unshared_shell_line("mount -t tmpfs -o size=64k tmpfs /mnt"), 20).exit_code == 0;
}

}  // namespace

class InterruptedRun : public ::testing::TestWithParam<int> {};

TEST_P(InterruptedRun, LeavesNoScratchFolder) {
  // Before: every interrupted run left its scratch folder (the issue: SIGINT 89 MB, SIGTERM 87 MB,
  // SIGHUP 92 MB).
  const int sig = GetParam();
  HangingRun run;
  if (!HangingRun::have_catalog()) GTEST_SKIP() << "the build's catalog holds no sm_90";
  run.start();
  ASSERT_TRUE(run.wait_until_launched()) << run.said();
  ASSERT_NE(run.left_in_tmp(), "") << "no scratch folder while it runs: nothing is tested";
  const int status = run.end_by(sig);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << run.said();
  EXPECT_EQ(run.left_in_tmp(), "");
}

INSTANTIATE_TEST_SUITE_P(Signals, InterruptedRun, ::testing::Values(SIGTERM, SIGINT, SIGHUP),
                         [](const auto& info) { return std::string(sigabbrev_np(info.param)); });

TEST(KilledRun, KeepsItsOutputAndItsScratchFolderIsSweptByTheNext) {
  // Before: a killed run's redirected stdout was empty (nothing flushed), and its scratch folder
  // (45-295 MB in the issue) stayed for good.
  HangingRun run;
  if (!HangingRun::have_catalog()) GTEST_SKIP() << "the build's catalog holds no sm_90";
  run.start();
  const bool launched = run.wait_until_launched();
  run.end_by(SIGKILL);
  ASSERT_TRUE(launched) << "its output, redirected, was not there while it ran: '" << run.said() << "'";
  EXPECT_NE(run.said().find("[GPU 0] Hanging GPU (sm_90, driver 0.0, CUDA 13.0)\n"), std::string::npos);
  const std::string left = run.left_in_tmp();
  ASSERT_EQ(left.rfind("ptxcts-run-", 0), 0u) << left;
  // The next run (any: this one stops at its command line) sweeps it, and says what it swept.
  ProcessResult next = run_process({"env", "TMPDIR=" + run.tmp.string(), PTXCTS_COMMAND, "run", "--family", "nosuch",
                                    "--runner", PTXCTS_FAKE_RUNNER},
                                   60);
  EXPECT_EQ(next.exit_code, 2) << next.output;
  EXPECT_NE(next.output.find("ptxcts: swept 1 scratch folder of runs killed before they could clean up ("),
            std::string::npos)
      << next.output;
  EXPECT_NE(next.output.find(" from " + run.tmp.string() + ": " + left.substr(0, left.size() - 1) + "\n"),
            std::string::npos)
      << next.output;
  EXPECT_EQ(run.left_in_tmp(), "");
}

TEST(FullTmpdir, IsOneClearErrorNotAHang) {
  // Before: with $TMPDIR a 64 KiB tmpfs, the job files were cut short, the go file that would tell
  // the waiting runner to quit could not be written either, and `ptxcts run` waited for ever, silent.
  if (!may_unshare()) GTEST_SKIP() << "cannot mount a small tmpfs here (unshare -rm is not allowed)";
  if (!HangingRun::have_catalog()) GTEST_SKIP() << "the build's catalog holds no sm_90";
  TempDir t("full-tmpdir");
  const fs::path mnt = t.dir / "small";
  fs::create_directories(mnt);
  const auto t0 = std::chrono::steady_clock::now();
  // $1: the small disk, made $TMPDIR; then the run, its exit status and what it left there.
  ProcessResult r = run_process(
      unshared_shell_line("mount -t tmpfs -o size=64k tmpfs \"$1\" && export TMPDIR=\"$1\" PTXCTS_FAKE_MODE=model && "
                          "shift && \"$@\"; echo exit $?; ls -A \"$TMPDIR\"",
                          {mnt.string(), PTXCTS_COMMAND, "run", "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR,
                           "--runner", PTXCTS_FAKE_RUNNER, "--reports", (t.dir / "reports").string()}),
      120);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60.0);
  EXPECT_FALSE(r.timed_out) << r.output;
  EXPECT_NE(r.output.find("error: cannot write " + mnt.string() + "/ptxcts-run-"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-jobs.bin: No space left on device ("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" free on its filesystem)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nexit 2\n"), std::string::npos) << r.output;
  EXPECT_TRUE(r.output.ends_with("exit 2\n")) << "left in $TMPDIR: " << r.output;
}

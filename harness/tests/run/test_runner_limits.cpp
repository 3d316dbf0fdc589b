// The limits on a device runner besides its idle watchdog: a batch and a launch that make no
// progress are stopped however much the runner prints meanwhile, and a line without end is
// stopped at its length limit (fake_device_runner's progress:K and hugeline:K).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "run/runner.hpp"
#include "run/runner_watch.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

namespace {

struct LimitedRun {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog = fake_catalog(suite, {"sm_90"}, {8, 0}, [](auto const&, auto const&) { return "entry"; });
  fs::path work = fs::temp_directory_path() / ("ptxcts-runner-limits-" + std::to_string(::getpid()));
  double seconds = 0;
  ~LimitedRun() { fs::remove_all(work); }

  DeviceRun run(const std::string& mode, double batch_limit, double case_timeout = 30) {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .families = {"movmatrix"},
                   // its one kernel's six cases: not the undefined-lanes kernel's, which runs on the fault line
                   .case_globs = {"movmatrix.sync.aligned.m8n8.trans.b16/*"},
                   .progress = {},
                   .case_timeout = case_timeout,
                   .batch_limit = batch_limit,
                   .journal = nullptr,
                   .done = {}};
    const auto t0 = clock_type::now();
    DeviceRun r = run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
    seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    return r;
  }
};

int limits_count(const DeviceRun& r, Status s, const std::string& reason_part = "") {
  int n = 0;
  for (auto const& c : r.results) n += c.status == s && c.reason.find(reason_part) != std::string::npos;
  return n;
}

// How many cases of `r` have another outcome than in `clean` (the same run undisturbed).
int limits_cases_changed(const DeviceRun& r, const DeviceRun& clean) {
  int n = 0;
  for (std::size_t k = 0; k < r.results.size(); ++k) n += r.results[k].status != clean.results[k].status;
  return n;
}

}  // namespace

TEST(RunnerLimits, ARunnerThatOnlySaysLoadingIsStoppedAtTheBatchLimitAndItsLineAbandonedAfterTwo) {
  // Before: "loading" moved the idle watchdog on, and there was no other limit: waited for forever.
  // 1.5 s as the limit: the runner's start (it reads the specs, about 0.2 CPU-s) is in its first
  // batch, and at 0.3 s a loaded machine (CI's two cores, load 6) timed a sound batch out.
  LimitedRun f;
  DeviceRun r = f.run("echo,progress:3", 1.5);
  EXPECT_LT(f.seconds, 20.0);
  // movmatrix's six cases, all on the main line (it has no fault cases): its batch stalls loading,
  // so its launches run one at a time; 0 to 2 come back (echoed: compared, not lost), 3 and 4
  // stall at the limit, a launch each, and the line gives up on the rest.
  ASSERT_EQ(r.results.size(), 6u);
  EXPECT_EQ(limits_count(r, Status::Fail) + limits_count(r, Status::Pass), 3);
  EXPECT_EQ(limits_count(r, Status::Timeout,
                  "no result within 1.5 s (the limit on a batch, its modules' loading included), though the device "
                  "runner kept printing ('loading'); it was killed"),
            2);
  EXPECT_EQ(limits_count(r, Status::Error,
                  "not run: the device runner stalled 2 times on this line loading modules (each killed at the "
                  "limit on a batch), so the rest of the line was abandoned"),
            1);
}

TEST(RunnerLimits, ALaunchThatNeverEndsButKeepsTalkingIsItsCasesTimeoutAndTheRunGoesOn) {
  // Before: "loading" in a launch moved the idle watchdog on: waited for forever. A launch that
  // never ends is its case's (as a silent hang is), so however many do, no line is abandoned.
  LimitedRun f;
  DeviceRun clean = f.run("echo", 600);
  DeviceRun r = f.run("echo,chatty:3", 600, 0.5);
  EXPECT_LT(f.seconds, 20.0);
  EXPECT_EQ(limits_count(r, Status::Timeout,
                  "no result within 0.5 s of the launch (the limit on a launch), though the device runner kept "
                  "printing ('loading'); it was killed"),
            1);
  ASSERT_EQ(r.results.size(), clean.results.size());
  EXPECT_EQ(limits_cases_changed(r, clean), 1);
}

TEST(RunnerLimits, ALineWithoutEndIsOneErrorNamingTheLimitAndTheRunGoesOn) {
  // Before: read whole (gigabytes) and searched back to its start at each chunk: ptxcts on both
  // cores, its memory growing, until the runner stopped.
  LimitedRun f;
  DeviceRun clean = f.run("echo", 600);
  DeviceRun r = f.run("echo,hugeline:3", 600);
  EXPECT_LT(f.seconds, 20.0);
  EXPECT_EQ(limits_count(r, Status::Error,
                  "the device runner printed a line longer than 1048576 bytes (the limit on a line read from a child), "
                  "which is no line of the device protocol; it was killed"),
            1);
  ASSERT_EQ(r.results.size(), clean.results.size());
  EXPECT_EQ(limits_cases_changed(r, clean), 1);
}

TEST(RunnerLimits, TheWatchMovesOnResultsAndBatchesNotOnWordsOfLife) {
  RunnerWatch w(0.2, 5);
  auto left = [&] {
    return std::chrono::duration<double>(*w.child().deadline() - clock_type::now()).count();
  };
  EXPECT_FALSE(w.child().deadline());  // a standby runner waits for its go file without a limit
  w.begin();
  EXPECT_NEAR(left(), 5, 0.1);
  w.hear("loading");
  EXPECT_NEAR(left(), 5, 0.1);
  w.hear("batch 0 4");  // launched: the results within the limit on a launch
  EXPECT_NEAR(left(), 0.2, 0.1);
  EXPECT_TRUE(w.launching());
  w.hear("done 0 ok");  // a result: the next batch begins
  EXPECT_NEAR(left(), 5, 0.1);
  EXPECT_FALSE(w.launching());
  EXPECT_EQ(w.why_stalled(),
            "no result within 5 s (the limit on a batch, its modules' loading included), though the device runner "
            "kept printing ('loading'); it was killed");
  w.hear("batch 1 1");
  EXPECT_EQ(w.why_stalled(),
            "no result within 0.2 s of the launch (the limit on a launch), though the device runner kept printing "
            "('loading'); it was killed");
}

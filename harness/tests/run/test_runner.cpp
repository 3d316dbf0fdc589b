// `ptxcts run`'s orchestration against a fake device runner: skip reasons, fault isolation,
// a runner that dies mid-launch, comparison producing readable diffs, and which entry is launched.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "run/device_protocol.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/runner_spy.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

struct FakeRun {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog;
  fs::path work = fs::temp_directory_path() / ("ptxcts-runner-test-" + std::to_string(::getpid()));

  FakeRun() {
    catalog = fake_catalog(suite, {"sm_86", "sm_90"}, {7, 8},
                           [](auto const& k, auto const& t) { return "entry_" + t + "_" + k.name; });
  }
  ~FakeRun() { fs::remove_all(work); }

  DeviceRun run(const std::string& mode, int major, int minor, std::set<std::string> families, unsigned batch = 256) {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .families = std::move(families),
                   .progress = {},
                   .case_timeout = 30,
                   .journal = nullptr,
                   .done = {}};
    opt.batch = batch;
    return run_on_device(suite, catalog, {0, "Fake GPU", major, minor, "13.0", "0.0"}, opt);
  }
};

int runner_count(const DeviceRun& r, Status s, bool fault_cases = false) {
  int n = 0;
  for (auto const& c : r.results) n += c.status == s && c.fault_case == fault_cases;
  return n;
}

}  // namespace

TEST(Runner, SkipsWhatTheDeviceCannotRunWithTheReason) {
  FakeRun f;
  DeviceRun r = f.run("echo", 8, 6, {"stmatrix"});
  // 30 .m8n8 and 15 .m16n8 stmatrix forms, 30 round trips; 6 cases each, and fault cases for the .x4 forms,
  // and the 3 undefined-lanes cases (exited, predicated off, another form: their .upper_* kernels)
  ASSERT_EQ(r.results.size(), 75u * 6u + 18u + 3u);
  // The GPU lacks the form (sm_86 < sm_90): not supported, with the requirement as the reason.
  EXPECT_EQ(runner_count(r, Status::NotSupported), 453);  // the undefined-lanes cases too
  EXPECT_EQ(runner_count(r, Status::NotSupported, true), 18);
  EXPECT_EQ(runner_count(r, Status::Skip) + runner_count(r, Status::Skip, true), 0);
  EXPECT_EQ(r.results.front().reason,
            "stmatrix.sync.aligned.m8n8.x1.b16 requires PTX ISA 7.8, >= sm_90; device is sm_86");
}

TEST(Runner, EchoedInputsFailWithALaneRegisterElementDiff) {
  FakeRun f;
  DeviceRun r = f.run("echo", 9, 0, {"ldmatrix"});
  EXPECT_EQ(runner_count(r, Status::Fail), 183);  // 180 and the 3 undefined-lanes cases (observations)
  const CaseResult& first = r.results.front();
  ASSERT_FALSE(first.diff.empty());
  EXPECT_EQ(first.diff.front().rfind("warp 0 lane 0 register 0 element 0 (matrix 0 row 0 col 0): expected 0x", 0), 0u)
      << first.diff.front();
}

TEST(Runner, ADeviceFaultCostsOnlyItsOwnCase) {
  FakeRun f;
  DeviceRun r = f.run("echo,fault:7", 9, 0, {"ldmatrix"});
  EXPECT_EQ(runner_count(r, Status::Crash), 1);
  EXPECT_EQ(runner_count(r, Status::Fail), 182);  // with the 3 undefined-lanes cases
  EXPECT_EQ(r.results[7].status, Status::Crash);
  EXPECT_EQ(r.results[7].reason, "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address");
}

TEST(Runner, ARunnerThatDiesMidLaunchIsRestartedAfterIt) {
  FakeRun f;
  fs::create_directories(f.work);
  fs::path starts = f.work / "starts";
  setenv("PTXCTS_FAKE_STARTS", starts.c_str(), 1);
  DeviceRun r = f.run("echo,abort:12", 9, 0, {"ldmatrix"});
  unsetenv("PTXCTS_FAKE_STARTS");
  EXPECT_EQ(runner_count(r, Status::Crash), 1);
  EXPECT_EQ(r.results[12].status, Status::Crash);
  EXPECT_EQ(r.results[12].reason, "the device runner died with signal 6 during this launch");
  EXPECT_EQ(runner_count(r, Status::Fail), 182);  // with the 3 undefined-lanes cases
  // The main line: the batch from launch 0 died unrecorded, so it ran again one launch at a time
  // from 0, and after launch 12 killed its runner a fresh one went on from 13.
  std::ifstream in(starts);
  std::multiset<std::string> started;
  for (std::string id; in >> id;) started.insert(id);
  EXPECT_EQ(started.count("0"), 2u);
  EXPECT_EQ(started.count("13"), 1u);
}

TEST(Runner, AFaultInABatchIsRunAgainOneLaunchAtATime) {
  // Launch 7 faults inside a batch of the main line: the batch records nothing (exit 5), its
  // launches run again singly, and exactly launch 7 is the crash; with batches of one the same.
  FakeRun f;
  fs::create_directories(f.work);
  fs::path starts = f.work / "starts";
  setenv("PTXCTS_FAKE_STARTS", starts.c_str(), 1);
  DeviceRun batched = f.run("echo,fault:7", 9, 0, {"ldmatrix"});
  unsetenv("PTXCTS_FAKE_STARTS");
  std::ifstream in(starts);
  std::multiset<std::string> started;
  for (std::string id; in >> id;) started.insert(id);
  EXPECT_EQ(started.count("0"), 2u);  // batched, then one at a time
  EXPECT_EQ(started.count("8"), 1u);  // after the fault
  EXPECT_GE(batched.timing.batch_count, 9);
  DeviceRun single = f.run("echo,fault:7", 9, 0, {"ldmatrix"}, 1);
  ASSERT_EQ(batched.results.size(), single.results.size());
  for (std::size_t k = 0; k < single.results.size(); ++k) {
    EXPECT_EQ(batched.results[k].status, single.results[k].status) << k;
    EXPECT_EQ(batched.results[k].reason, single.results[k].reason) << k;
  }
  EXPECT_EQ(runner_count(batched, Status::Crash), 1);
  EXPECT_EQ(batched.results[7].status, Status::Crash);
}

TEST(Runner, AHungLaunchTimesOutAndTheRunGoesOn) {
  FakeRun f;
  setenv("PTXCTS_FAKE_MODE", "echo,hang:3", 1);
  RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                 .catalog_dir = f.work,
                 .work_dir = f.work,
                 .families = {"ldmatrix"},
                 .progress = {},
                 .case_timeout = 3.0,
                 .journal = nullptr,
                 .done = {}};
  DeviceRun r = run_on_device(f.suite, f.catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  EXPECT_EQ(r.results[3].status, Status::Timeout);
  EXPECT_EQ(r.results[3].reason, "no result within 3 s; the device runner was killed");
  EXPECT_EQ(runner_count(r, Status::Timeout), 1);
  EXPECT_EQ(runner_count(r, Status::Fail), 182);  // with the 3 undefined-lanes cases
}

TEST(Runner, FaultCasesAreMarkedAndKeptApart) {
  FakeRun f;
  DeviceRun r = f.run("echo", 9, 0, {"ldmatrix"});
  int fault_cases = 0;
  for (auto const& c : r.results) fault_cases += c.fault_case;
  // .m8n8, .m8n16 and .m8n16 .s8.s4 .x4 forms: ten, ten and five misaligned, two, two and one
  // generic ones outside shared memory
  EXPECT_EQ(fault_cases, 30);
  EXPECT_EQ(runner_count(r, Status::Fail), 183);  // the other cases are untouched by them (3 of them undefined-lanes cases)
  // Echoed, none faults: the misaligned .m8n8 loads differ from the model, and addresses outside the
  // tile leave the model nothing to compare with.
  EXPECT_EQ(runner_count(r, Status::Fail, true), 12);
  // .m8n16 needs Blackwell; .s8.s4 PTX ISA 9.4 and sm_90a, which the sm_90 catalog of ptxas 13.0 lacks:
  // not supported, as the forms the GPU lacks
  EXPECT_EQ(runner_count(r, Status::NotSupported, true), 18);
}

TEST(Runner, LaunchesEachKernelsEntryInItsCubin) {
  FakeRun f;
  RunnerSpy spy(f.work / "spy");
  setenv("PTXCTS_FAKE_MODE", "echo", 1);
  RunOptions opt{.runner = spy.script.string(),
                 .catalog_dir = f.work,
                 .work_dir = f.work,
                 .families = {"movmatrix"},
                 .progress = {},
                 .case_timeout = 30,
                 .journal = nullptr,
                 .done = {}};
  run_on_device(f.suite, f.catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  std::ifstream in(spy.dir / "jobs.bin", std::ios::binary);
  auto jobs = read_jobs(in);
  ASSERT_FALSE(jobs.empty());
  for (auto const& j : jobs) EXPECT_EQ(j.kernel_name.rfind("entry_sm_90_movmatrix", 0), 0u) << j.kernel_name;
}

TEST(Runner, TheStandbyRunnerGivesTheSameResultsAsFreshStarts) {
  // The fault line with a runner made ready ahead of time, against fresh starts after each fault.
  FakeRun f;
  DeviceRun ready = f.run("model,fault:19", 9, 0, {"ldmatrix"});
  FakeRun g;
  setenv("PTXCTS_FAKE_MODE", "model,fault:19", 1);
  RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                 .catalog_dir = g.work,
                 .work_dir = g.work,
                 .families = {"ldmatrix"},
                 .progress = {},
                 .case_timeout = 30,
                 .journal = nullptr,
                 .done = {}};
  opt.standby = false;
  DeviceRun fresh = run_on_device(g.suite, g.catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  ASSERT_EQ(ready.results.size(), fresh.results.size());
  int crashes = 0;
  for (std::size_t k = 0; k < ready.results.size(); ++k) {
    EXPECT_EQ(ready.results[k].status, fresh.results[k].status) << k;
    EXPECT_EQ(ready.results[k].reason, fresh.results[k].reason) << k;
    EXPECT_EQ(ready.results[k].diff, fresh.results[k].diff) << k;
    crashes += ready.results[k].status == Status::Crash;
  }
  EXPECT_GE(crashes, 1);  // the emulated faults and launch 19's
  EXPECT_EQ(ready.results[19].status, Status::Crash);
}

// Streamed case preparation (run/case_stream) and the runner started before its job file exists
// (run/early_runner): the same results as the naive ways, case for case.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "run/case_stream.hpp"
#include "run/device_protocol.hpp"
#include "run/early_runner.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/same_results.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

struct Work {
  static inline int made = 0;  // each its own: a run's work directory never removes another's
  fs::path dir =
      fs::temp_directory_path() / ("ptxcts-stream-test-" + std::to_string(::getpid()) + "-" + std::to_string(made++));
  Work() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Work() { fs::remove_all(dir); }
};

const Suite& suite() {
  return loaded_suite();
}

DeviceRun run(const std::string& mode, std::set<std::string> families, bool stream, EarlyRunner* early = nullptr) {
  static const Catalog catalog =
      fake_catalog(suite(), {"sm_90"}, {9, 0}, [](auto const& k, auto const&) { return "entry_" + k.name; });
  Work work;
  setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
  RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                 .catalog_dir = work.dir,
                 .work_dir = work.dir,
                 .families = std::move(families),
                 .progress = {},
                 .case_timeout = 30,
                 .journal = nullptr,
                 .done = {}};
  opt.stream = stream;
  opt.early = early;
  return run_on_device(suite(), catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
}

// Every field a report is made of, case for case.
void expect_same_results(const DeviceRun& got, const DeviceRun& want) { expect_same_case_results(got.results, want.results); }

int count(const DeviceRun& r, Status s) {
  int n = 0;
  for (auto const& c : r.results) n += c.status == s;
  return n;
}

}  // namespace

TEST(CaseStream, TheWholeSuiteStreamedGivesWhatTheNaiveWayGives) {
  // A correct device: passes, wmma layouts observed, round trips compared, fault cases faulting.
  const DeviceRun naive = run("model", {}, false);
  const DeviceRun streamed = run("model", {}, true);
  expect_same_results(streamed, naive);
  // What the comparison rests on: a run that checked something of each kind.
  int observed = 0, roundtrips = 0, faulted = 0;
  for (auto const& c : streamed.results) {
    observed += !c.observed_layout.empty();
    roundtrips += c.roundtrip_identity.has_value();
    faulted += c.fault_case && c.status == Status::Crash;
  }
  EXPECT_GT(count(streamed, Status::Pass), 1000);
  EXPECT_GT(observed, 0);
  EXPECT_GT(roundtrips, 0);
  EXPECT_GT(faulted, 0);
}

TEST(CaseStream, AWrongDeviceFailsWithTheSameDiffsStreamed) {
  // Wrong results: every diff and every count of mismatches the same, with the inputs read back from the file.
  const DeviceRun naive = run("off-by-one", {"ldmatrix", "wmma"}, false);
  const DeviceRun streamed = run("off-by-one", {"ldmatrix", "wmma"}, true);
  expect_same_results(streamed, naive);
  EXPECT_GT(count(streamed, Status::Fail), 100);
}

TEST(CaseStream, AJobFileWrittenACaseAtATimeHoldsEveryJobWhereItSays) {
  Work work;
  const fs::path file = work.dir / "jobs.bin";
  auto job = [](std::uint32_t id) {
    DeviceJob j{.id = id, .module = "/c.cubin", .kernel_name = "k", .label = "k/c" + std::to_string(id), .input = {}};
    j.input.shape = {1, 4, 1, 1};
    j.input.offsets.assign(32, id);
    j.input.state.smem.assign(4, static_cast<std::uint8_t>(id));
    j.input.state.regs.assign(32, id * 3);
    return j;
  };
  // Cases 1 and 3 have no job (their data could not be made).
  auto make = [&](std::size_t k) -> std::optional<DeviceJob> {
    if (k == 1 || k == 3) return std::nullopt;
    return job(static_cast<std::uint32_t>(10 + k));
  };
  for (bool stream : {true, false}) {
    const LineJobs line = write_line_jobs(file, 5, make, stream);
    EXPECT_EQ(line.ids, (std::vector<std::uint32_t>{10, 12, 14}));
    ASSERT_EQ(line.offsets.size(), 3u);
    std::ifstream in(file, std::ios::binary);
    const auto all = read_jobs(in);  // the count at the top says three
    ASSERT_EQ(all.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      const DeviceJob back = read_job_at(in, line.offsets[k]);
      EXPECT_EQ(back.id, line.ids[k]);
      EXPECT_EQ(back.label, "k/c" + std::to_string(line.ids[k]));
      EXPECT_EQ(back.input.state, job(line.ids[k]).input.state);
      EXPECT_EQ(back.input.offsets, job(line.ids[k]).input.offsets);
    }
  }
}

TEST(EarlyRunner, ARunnerStartedBeforeItsJobFileExistsRunsItOnceTold) {
  // Started before anything is planned (as `ptxcts run` does before the specs load); its job file
  // is written afterwards. A runner that read its job file at start would find none.
  Work work;
  setenv("PTXCTS_FAKE_MODE", "model,fault:19", 1);  // its device, as it starts
  EarlyRunner early(PTXCTS_FAKE_RUNNER, 0, work.dir, 30);
  EXPECT_FALSE(fs::exists(line_files(early.dir(), 0, EarlyRunner::kLine).jobs));
  const DeviceRun with = run("model,fault:19", {"ldmatrix"}, true, &early);
  const DeviceRun without = run("model,fault:19", {"ldmatrix"}, true);
  expect_same_results(with, without);
  EXPECT_EQ(with.timing.runner_starts, without.timing.runner_starts);  // it is the fault line's first runner
  EXPECT_EQ(with.results[19].status, Status::Crash);
}

TEST(EarlyRunner, ARunnerForAnotherGpuIsNotAdoptedAndQuits) {
  Work work;
  auto early = std::make_unique<EarlyRunner>(PTXCTS_FAKE_RUNNER, 1, work.dir, 30);
  EXPECT_EQ(early->adopt(0), nullptr);
  auto mine = early->adopt(1);
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ(early->adopt(1), nullptr);     // once
  const ProcessResult r = mine->finish();  // never given work: told to quit
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(r.went_quiet);
}

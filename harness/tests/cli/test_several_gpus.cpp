// `ptxcts run` on a host of several GPUs (the fake device runner's): one GPU whose runner cannot
// run costs only that GPU's cases; the others run and report as usual.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "report/run/report_json.hpp"
#include "results/outcome.hpp"
#include "support/small_suite.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

TEST(SeveralGpus, ACudaErrorOnOneGpuDoesNotStopTheOthers) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const fs::path reports = fs::temp_directory_path() / ("ptxcts-two-gpus-" + std::to_string(::getpid()));
  fs::remove_all(reports);
  const std::string devices =
      R"([{"ordinal": 0, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"},)"
      R"( {"ordinal": 1, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"}])";
  ProcessResult r = run_process(
      {"env", "PTXCTS_FAKE_DEVICES=" + devices, "PTXCTS_FAKE_MODE=model,unusable:1", PTXCTS_COMMAND, "--specs",
       test::small_suite_specs(), "run", "--no-assemble", "--catalog", test::small_suite_catalog(), "--runner", PTXCTS_FAKE_RUNNER, "--reports", reports.string()},
      600);
  auto read = [&](int gpu) {
    const fs::path dir = reports / ("gpu" + std::to_string(gpu));
    for (auto const& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") return parse_report_json(read_file_text(e.path()), e.path().string());
    ADD_FAILURE() << "no JSON report in " << dir;
    return RunReport{};
  };
  const RunReport zero = read(0), one = read(1);
  fs::remove_all(reports);
  const Tally t0 = tally(zero.results), t1 = tally(one.results);
  // A build whose catalog is for no target (the default `native`, on a machine without a GPU) runs nothing.
  if (t0[Outcome::Pass] == 0 && t0[Outcome::Skipped] + t0[Outcome::NotSupported] > 0)
    GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  ASSERT_EQ(r.exit_code, 1) << r.output;  // GPU 1 ran nothing
  EXPECT_GT(t0[Outcome::Pass], 0);
  EXPECT_EQ(t0.needing_action, 0);
  EXPECT_EQ(t1[Outcome::Pass], 0);
  EXPECT_EQ(t1[Outcome::Crash], t0[Outcome::Pass]);  // every case GPU 0 ran is lost on GPU 1 (crash), with the reason
  bool reason_given = false;
  for (auto const& c : one.results)
    reason_given = reason_given || c.reason.find("CUDA_ERROR_ECC_UNCORRECTABLE") != std::string::npos;
  EXPECT_TRUE(reason_given);
}

namespace {

// Two GPUs alike (name, compute capability, driver) and one of another model, as the fake runner's
// --info gives them, each with its UUID and PCI bus id.
const std::string kThreeGpus =
    R"([{"ordinal": 0, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0",)"
    R"(   "uuid": "GPU-00000000-0000-0000-0000-000000000000", "pci_bus_id": "0000:18:00.0"},)"
    R"( {"ordinal": 1, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0",)"
    R"(   "uuid": "GPU-11111111-1111-1111-1111-111111111111", "pci_bus_id": "0000:1a:00.0"},)"
    R"( {"ordinal": 2, "name": "Other GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0",)"
    R"(   "uuid": "GPU-22222222-2222-2222-2222-222222222222", "pci_bus_id": "0000:3b:00.0"}])";

struct ThreeGpuRun {
  std::vector<RunReport> reports;  // by GPU
  std::string runners;             // what each runner start was told to see (PTXCTS_FAKE_RUNNERS)
};

ThreeGpuRun run_three_gpus(const std::vector<std::string>& extra) {
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-three-gpus-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::vector<std::string> argv = {"env",
                                   "PTXCTS_FAKE_DEVICES=" + kThreeGpus,
                                   "PTXCTS_FAKE_MODE=model",
                                   "PTXCTS_FAKE_RUNNERS=" + (dir / "runners").string(),
                                   PTXCTS_COMMAND,
                                   "--specs",
                                   test::small_suite_specs(),
                                   "run",
                                   "--no-assemble",
                                   "--catalog",
                                   test::small_suite_catalog(),
                                   "--runner",
                                   PTXCTS_FAKE_RUNNER,
                                   "--reports",
                                   (dir / "reports").string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  fs::create_directories(dir);
  ProcessResult r = run_process(argv, 600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ThreeGpuRun out;
  for (int gpu = 0; gpu < 3; ++gpu)
    for (auto const& e : fs::directory_iterator(dir / "reports" / ("gpu" + std::to_string(gpu))))
      if (e.path().extension() == ".json") out.reports.push_back(parse_report_json(read_file_text(e.path()), e.path().string()));
  out.runners = read_file_text(dir / "runners");
  fs::remove_all(dir);
  return out;
}

}  // namespace

// By default each fault case runs once per group of alike GPUs, the group taking turns; every
// report still has every case, and a case another GPU ran names it. The GPU of another model runs
// all of its own. Every runner sees only its own GPU. The outcomes are those of a run on every GPU.
TEST(SeveralGpus, AlikeGpusShareTheFaultCasesAndEachReportNamesTheGpuThatRanThem) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const ThreeGpuRun shared = run_three_gpus({});
  ASSERT_EQ(shared.reports.size(), 3u);
  if (tally(shared.reports[0].results)[Outcome::Pass] == 0) GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  const std::string label0 = "GPU 0 (GPU-00000000-0000-0000-0000-000000000000, PCI 0000:18:00.0)";
  const std::string label1 = "GPU 1 (GPU-11111111-1111-1111-1111-111111111111, PCI 0000:1a:00.0)";
  std::map<std::pair<std::string, std::string>, std::string> ran_by;  // fault case -> "0" or "1"
  int faults = 0;
  for (std::size_t k = 0; k < shared.reports[0].results.size(); ++k) {
    const CaseResult& a = shared.reports[0].results[k];
    const CaseResult& b = shared.reports[1].results[k];
    ASSERT_EQ(a.kernel + a.case_name, b.kernel + b.case_name);
    if (!a.fault_case || a.status == Status::Skip || a.status == Status::NotSupported) {
      EXPECT_EQ(a.ran_on, "");
      EXPECT_EQ(b.ran_on, "");
      continue;
    }
    ++faults;
    // Exactly one of the two ran it, and the other's report names that one; the outcome is the same.
    EXPECT_TRUE((a.ran_on.empty() && b.ran_on == label0) || (b.ran_on.empty() && a.ran_on == label1))
        << a.kernel << " / " << a.case_name << ": '" << a.ran_on << "', '" << b.ran_on << "'";
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.reason, b.reason);
    ran_by[{a.kernel, a.case_name}] = a.ran_on.empty() ? "0" : "1";
  }
  // Turns per case: of each case's fault-line kernels, GPU 0 runs the 1st, 3rd, ...
  std::map<std::string, int> of_case, by_zero;
  for (auto const& [c, who] : ran_by) {
    ++of_case[c.second];
    by_zero[c.second] += who == "0";
  }
  EXPECT_GE(faults, 10);  // the small suite has 12
  for (auto const& [name, n] : of_case) EXPECT_EQ(by_zero[name], (n + 1) / 2) << name;
  for (auto const& r : shared.reports[2].results) EXPECT_EQ(r.ran_on, "") << "GPU 2 is of another model";
  // Each report names its GPU exactly and says how many ran at once and where its fault cases ran.
  EXPECT_EQ(shared.reports[1].info.gpu_index, "1");
  EXPECT_EQ(shared.reports[1].info.gpu_uuid, "GPU-11111111-1111-1111-1111-111111111111");
  EXPECT_EQ(shared.reports[1].info.gpu_pci_bus_id, "0000:1a:00.0");
  EXPECT_EQ(shared.reports[1].info.gpus_at_once, "3");
  EXPECT_NE(shared.reports[0].info.fault_cases.find("shared by GPUs 0, 1"), std::string::npos);
  EXPECT_EQ(shared.reports[2].info.fault_cases, "on this GPU");
  // Every runner but the one started before the GPUs were known was told to see its own GPU alone.
  std::istringstream lines(shared.runners);
  int told = 0, untold = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::string device = line.substr(7, 1);
    if (line.find("only-gpu GPU-" + std::string(8, device[0])) != std::string::npos) ++told;
    else ++untold;
  }
  EXPECT_GE(told, 6);
  EXPECT_LE(untold, 1) << shared.runners;

  // --faults-on-every-gpu: each GPU runs them all, nothing is shared, and the outcomes are the same.
  const ThreeGpuRun every = run_three_gpus({"--faults-on-every-gpu"});
  ASSERT_EQ(every.reports.size(), 3u);
  for (std::size_t g = 0; g < 3; ++g)
    for (std::size_t k = 0; k < every.reports[g].results.size(); ++k) {
      EXPECT_EQ(every.reports[g].results[k].ran_on, "");
      EXPECT_EQ(every.reports[g].results[k].status, shared.reports[g].results[k].status);
    }
}

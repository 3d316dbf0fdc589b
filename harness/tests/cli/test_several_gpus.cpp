// `ptxcts run` on a host of several GPUs (the fake device runner's): one GPU whose runner cannot
// run costs only that GPU's cases; the others run and report as usual.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "results/report_json.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

TEST(SeveralGpus, ACudaErrorOnOneGpuDoesNotStopTheOthers) {
  if (!fs::exists(fs::path(PTXCTS_CATALOG_DIR) / "manifest.json")) GTEST_SKIP() << "the build has no catalog";
  const fs::path reports = fs::temp_directory_path() / ("ptxcts-two-gpus-" + std::to_string(::getpid()));
  fs::remove_all(reports);
  const std::string devices =
      R"([{"ordinal": 0, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"},)"
      R"( {"ordinal": 1, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"}])";
  ProcessResult r = run_process(
      {"env", "PTXCTS_FAKE_DEVICES=" + devices, "PTXCTS_FAKE_MODE=model,unusable:1", PTXCTS_COMMAND, "run",
       "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR, "--runner", PTXCTS_FAKE_RUNNER, "--reports", reports.string()},
      600);
  ASSERT_EQ(r.exit_code, 1) << r.output;  // GPU 1 ran nothing
  auto read = [&](int gpu) {
    const fs::path dir = reports / ("gpu" + std::to_string(gpu));
    for (auto const& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") return parse_report_json(read_file_text(e.path()), e.path().string());
    ADD_FAILURE() << "no JSON report in " << dir;
    return RunReport{};
  };
  const RunReport zero = read(0), one = read(1);
  fs::remove_all(reports);
  const Totals t0 = zero.totals(), t1 = one.totals();
  if (t0.pass == 0 && t0.skip > 0) GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  EXPECT_GT(t0.pass, 0);
  EXPECT_EQ(t0.fail + t0.error + t0.crash + t0.timeout, 0);
  EXPECT_EQ(t1.pass, 0);
  EXPECT_EQ(t1.crash, t0.pass);  // every case GPU 0 ran is lost on GPU 1 (crash), with the reason
  bool reason_given = false;
  for (auto const& c : one.results)
    reason_given = reason_given || c.reason.find("CUDA_ERROR_ECC_UNCORRECTABLE") != std::string::npos;
  EXPECT_TRUE(reason_given);
}

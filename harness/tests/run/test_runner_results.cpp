// Issue 30, item 2: every byte of a runner's results accounted for. A runner whose results file
// cannot be written (a full disk) says so and exits 6; `ptxcts run` stops with its message, the cases
// it lost are errors naming it, never journaled (so --resume runs them again), never crashes. A
// runner that exits 0 short of its records, or writes a record whose images are not its job's
// sizes, broke the protocol: an `error` saying so, not "crash: the device runner could not run".
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "run/journal.hpp"
#include "run/result_records.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/fake_gpu_run.hpp"
#include "support/spec_fixture.hpp"
#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

const Suite& results_suite() {
  static const Suite suite = build_suite(load_specs(spec_files()));
  return suite;
}

// The movmatrix cases on `runner`, in `t`'s folder (journaled to `journal` where given).
DeviceRun results_run(const TempDir& t, const std::string& runner, Journal* journal = nullptr,
                      std::map<std::pair<std::string, std::string>, CaseResult> done = {}) {
  Catalog catalog = fake_catalog(results_suite(), {"sm_90"}, {7, 8}, [](auto const& k, auto const&) { return k.name; });
  return run_on_fake_gpu(results_suite(), catalog, runner, t.dir, {"movmatrix"}, journal, std::move(done));
}

// A runner that waits for its go file where it has one, then appends `record` (printf's format) to
// its results file, prints `says` and exits 0.
std::string results_script(const TempDir& t, const std::string& record, const std::string& says) {
  const fs::path runner = t.dir / "runner";
  write_script(runner,
               "while [ $# -gt 0 ]; do case \"$1\" in --results) r=$2;; --standby) go=$2;; esac; shift; done\n"
               "if [ -n \"$go\" ]; then echo ready; while [ ! -f \"$go\" ]; do sleep 0.01; done;"
               " grep -q quit \"$go\" && exit 0; fi\n"
               "printf '" +
                   record + "' >> \"$r\"\n" + says + "\nexit 0\n");
  return runner.string();
}

// Every case that ran is an error whose reason holds `says`; returns how many.
int errors_saying(const DeviceRun& run, const std::string& says) {
  int errors = 0;
  for (auto const& r : run.results) {
    if (r.status == Status::Skip || r.status == Status::NotSupported) continue;
    EXPECT_EQ(r.status, Status::Error) << r.kernel << "/" << r.case_name << ": " << r.reason;
    errors += r.reason.find(says) != std::string::npos;
  }
  return errors;
}

}  // namespace

TEST(RunnerResults, ARunnerThatExitsZeroShortOfItsRecordsBrokeTheProtocol) {
  TempDir t("results");
  const DeviceRun run = results_run(t, results_script(t, "", "true"));
  int errors = 0;
  for (auto const& r : run.results) {
    if (r.status == Status::Skip || r.status == Status::NotSupported) continue;
    EXPECT_EQ(r.status, Status::Error) << r.kernel << "/" << r.case_name << ": " << r.reason;
    EXPECT_EQ(r.reason.rfind("device runner broke the protocol at its exit (status 0: every job asked for "
                             "recorded): expected ",
                             0),
              0u)
        << r.reason;
    EXPECT_NE(r.reason.find(" records in device0-"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find(", got 0"), std::string::npos) << r.reason;
    ++errors;
  }
  EXPECT_GT(errors, 0);
}

TEST(RunnerResults, ARecordWhoseImageIsNotItsJobsSizeBrokeTheProtocol) {
  // The reader: job 3's shape is 1 warp of a 16-byte tile and 2 registers a thread.
  auto read = [](const std::string& bytes) {
    std::istringstream in(bytes);
    ResultRecords records(
        "R", [](std::uint32_t id) { return id < 10; }, [](std::uint32_t) { return false; },
        [](std::uint32_t) { return std::optional(LaunchShape{.warps = 1, .tile_bytes = 16, .steps = 1, .regs = 2}); });
    const bool got = records.next(in).has_value();
    return got ? std::string("taken") : records.broken();
  };
  auto u64 = [](std::uint64_t n) { return std::string(reinterpret_cast<const char*>(&n), 8); };
  const std::string head = std::string("PCR1\3\0\0\0", 8), no_error(4, '\0');
  const std::string tile(16, 'x'), regs(64 * 4, 'r');
  EXPECT_EQ(read(head + "\1" + no_error + u64(16) + tile + u64(64) + regs), "taken");
  EXPECT_EQ(read(head + "\1" + no_error + u64(15) + tile),
            "device runner broke the protocol at results record 1 (byte 0 of R): expected a shared-memory image of 16 "
            "bytes (job 3's 1 warps x 16-byte tile), got 15");
  EXPECT_EQ(read(head + "\1" + no_error + u64(16) + tile + u64(65)),
            "device runner broke the protocol at results record 1 (byte 0 of R): expected a register image of 64 "
            "words (job 3's 1 warps x 32 threads x 2 registers), got 65");
  // A launch that did not run gives back no images: nothing to size.
  EXPECT_EQ(read(head + std::string("\0", 1) + no_error + u64(0) + u64(0)), "taken");
  // A whole run: job 0's record with a one-byte tile is an error, and so is every case after it.
  TempDir t("results");
  const DeviceRun run = results_run(
      t, results_script(t,
                        "PCR1\\000\\000\\000\\000\\001\\000\\000\\000\\000\\001\\000\\000\\000\\000\\000\\000\\000x"
                        "\\000\\000\\000\\000\\000\\000\\000\\000",
                        "echo 'done 0 ok'"));
  EXPECT_GT(errors_saying(run, "device runner broke the protocol at results record 1 (byte 0 of device0-"), 0);
  int sized = 0;
  for (auto const& r : run.results)
    sized += r.reason.find("expected a shared-memory image of ") != std::string::npos &&
             r.reason.find(" bytes (job 0's ") != std::string::npos && r.reason.ends_with(", got 1");
  EXPECT_GT(sized, 0);
}

TEST(RunnerResults, TheFakeRunnerSaysAFullDiskAndExits6) {
  TempDir t("results");
  const int threads = 32;
  DeviceJob job{.id = 0, .module = "/nonexistent.cubin", .kernel_name = "k", .label = "k/c", .input = {}};
  job.input.shape = {.warps = 1, .tile_bytes = 16, .steps = 1, .regs = 1};
  job.input.offsets.assign(threads, 0);
  job.input.state.smem.assign(16, 7);
  job.input.state.regs.assign(threads, 9);
  {
    std::ofstream jobs(t.dir / "jobs", std::ios::binary);
    write_jobs(jobs, {job});
  }
  setenv("PTXCTS_FAKE_MODE", "echo", 1);
  const ProcessResult pr = run_process(
      {PTXCTS_FAKE_RUNNER, "--device", "0", "--jobs", (t.dir / "jobs").string(), "--results", "/dev/full"}, 30);
  EXPECT_EQ(pr.exit_code, kDeviceResultsUnwritable) << pr.output;
  EXPECT_NE(pr.output.find("results-unwritable cannot write /dev/full: No space left on device ("), std::string::npos)
      << pr.output;
  EXPECT_NE(pr.output.find(" free on its filesystem)"), std::string::npos) << pr.output;
  EXPECT_EQ(pr.output.find("done 0"), std::string::npos) << pr.output;  // no progress for a record not written
  EXPECT_EQ(parse_results_unwritable_line("results-unwritable cannot write R: why"), "cannot write R: why");
  EXPECT_EQ(parse_results_unwritable_line("done 0 ok"), std::nullopt);
}

TEST(RunnerResults, ResultsLostToAFullDiskStopTheRunAndAreRunAgainByResume) {
  TempDir t("results");
  const fs::path journal_file = t.dir / "journal.jsonl";
  setenv("PTXCTS_FAKE_MODE", "echo", 1);
  const DeviceRun clean = results_run(t, PTXCTS_FAKE_RUNNER);
  // The runners' results files fill up after a few records (RLIMIT_FSIZE: "File too large").
  setenv("PTXCTS_FAKE_RESULTS_LIMIT", "20000", 1);
  std::string stopped;
  {
    Journal journal(journal_file, true);
    try {
      results_run(t, PTXCTS_FAKE_RUNNER, &journal);
    } catch (const std::runtime_error& e) { stopped = e.what(); }
  }
  unsetenv("PTXCTS_FAKE_RESULTS_LIMIT");
  EXPECT_EQ(stopped.rfind("the device runner could not write its results: cannot write ", 0), 0u) << stopped;
  EXPECT_NE(stopped.find("-results.bin: File too large ("), std::string::npos) << stopped;
  EXPECT_NE(stopped.find(" free on its filesystem); the run stops here, and --resume runs its cases again"),
            std::string::npos)
      << stopped;
  // What the journal kept are the runs' verdicts: nothing lost to the disk, nothing a crash.
  const std::vector<CaseResult> kept = read_journal(journal_file);
  int verdicts = 0;
  for (auto const& r : kept) {
    EXPECT_NE(r.status, Status::Crash) << r.kernel << "/" << r.case_name << ": " << r.reason;
    EXPECT_NE(r.status, Status::Error) << r.kernel << "/" << r.case_name << ": " << r.reason;
    verdicts += r.status == Status::Pass || r.status == Status::Fail;
  }
  EXPECT_GT(verdicts, 0);
  EXPECT_LT(kept.size(), clean.results.size());  // and some were lost
  // Resumed with space: the clean run's outcome, case for case.
  const DeviceRun resumed = results_run(t, PTXCTS_FAKE_RUNNER, nullptr, by_kernel_and_case(kept));
  ASSERT_EQ(resumed.results.size(), clean.results.size());
  for (std::size_t k = 0; k < clean.results.size(); ++k)
    EXPECT_EQ(resumed.results[k].status, clean.results[k].status)
        << clean.results[k].kernel << "/" << clean.results[k].case_name << ": " << resumed.results[k].reason;
}

// The journal: results on disk as they come, a cut-short last line tolerated, corruption named,
// and a resumed run that redoes nothing already done.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "results/report_parts.hpp"
#include "run/journal.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {
fs::path temp(const std::string& name) { return fs::temp_directory_path() / (name + "-" + std::to_string(::getpid())); }

CaseResult result(const std::string& kernel, Status s) {
  CaseResult r;
  r.kernel = kernel;
  r.family = "ldmatrix";
  r.case_name = "unique-contiguous";
  r.status = s;
  r.reason = "why | with \"quotes\"\nand a newline";
  return r;
}
}  // namespace

TEST(Journal, RoundTripsAndToleratesACutShortLastLine) {
  fs::path p = temp("journal-a");
  {
    Journal j(p, true);
    j.append(result("k1", Status::Pass));
    j.append(result("k2", Status::Crash));
  }
  std::ofstream(p, std::ios::app) << "{\"kernel\": \"k3\", \"fam";  // killed mid-write
  auto back = read_journal(p);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].kernel, "k2");
  EXPECT_EQ(back[1].status, Status::Crash);
  EXPECT_EQ(back[1].reason, "why | with \"quotes\"\nand a newline");
  fs::remove(p);
}

TEST(Journal, ACorruptLineIsNamedByFileAndLine) {
  fs::path p = temp("journal-b");
  {
    Journal j(p, true);
    j.append(result("k1", Status::Pass));
  }
  std::string line = case_result_json_line(result("k2", Status::Pass));
  line.replace(line.find("\"pass\""), 6, "\"passed\"");
  std::ofstream(p, std::ios::app) << line << "\n";
  try {
    read_journal(p);
    FAIL() << "a corrupt journal was read";
  } catch (const ReportError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(p.string() + ":2:", 0), 0u) << what;
    EXPECT_NE(what.find("result.status: unknown status 'passed'"), std::string::npos) << what;
  }
  fs::remove(p);
}

TEST(Journal, AResumedRunRedoesNothingDone) {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog cat = fake_catalog(suite, {"sm_90"}, {7, 8}, [](auto const&, auto const&) { return "ptxcts_kernel"; });
  fs::path work = temp("journal-run"), jpath = work / "run.journal.jsonl";
  setenv("PTXCTS_FAKE_MODE", "echo,abort:20", 1);  // the runner dies in launch 20...
  fs::create_directories(work);
  Journal first(jpath, true);
  RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                 .catalog_dir = work,
                 .work_dir = work,
                 .families = {"ldmatrix"},
                 .progress = {},
                 .case_timeout = 30,
                 .journal = &first,
                 .done = {}};
  DeviceRun a = run_on_device(suite, cat, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  // ...and the journal holds every result of that run, as the run found them.
  auto journaled = read_journal(jpath);
  EXPECT_EQ(journaled.size(), a.results.size());
  // Drop the last 30 lines, as if the run had been killed there, and resume.
  std::vector<CaseResult> kept(journaled.begin(), journaled.end() - 30);
  fs::path starts = work / "starts";
  setenv("PTXCTS_FAKE_STARTS", starts.c_str(), 1);
  setenv("PTXCTS_FAKE_MODE", "echo", 1);
  RunOptions again{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .families = {"ldmatrix"},
                   .progress = {},
                   .case_timeout = 30,
                   .journal = nullptr,
                   .done = by_kernel_and_case(kept)};
  DeviceRun b = run_on_device(suite, cat, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, again);
  unsetenv("PTXCTS_FAKE_STARTS");
  ASSERT_EQ(b.results.size(), a.results.size());
  auto resumed = by_kernel_and_case(b.results);
  for (auto const& k : kept)
    EXPECT_EQ(resumed.at({k.kernel, k.case_name}).status, k.status) << k.kernel << " " << k.case_name;
  // Launch 20 crashed in the first run; the resumed run (whose runner would not crash) kept that.
  EXPECT_EQ(a.results[20].status, Status::Crash);
  EXPECT_EQ(b.results[20].status, Status::Crash);
  int fails = 0;
  for (auto const& r : b.results) fails += r.status == Status::Fail && !r.fault_case;
  EXPECT_EQ(fails, 182);  // with ldmatrix's 3 undefined-lanes cases (observations)
  // The fake runner was started once, for launches the journal did not have.
  std::ifstream in(starts);
  std::string first_start, second;
  in >> first_start >> second;
  EXPECT_EQ(first_start, "0");
  EXPECT_TRUE(second.empty());
  fs::remove_all(work);
}

TEST(Journal, AFullDiskStopsTheRunWithAClearMessage) {
  // Before: append errors went unchecked, so the journal stopped silently while the run went on.
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  ptxcts::Journal j("/dev/full", true);
  ptxcts::CaseResult r;
  r.kernel = "k";
  r.case_name = "c";
  try {
    for (int i = 0; i < 10000; ++i) j.append(r);  // the stream's buffer fills first
    FAIL() << "no error from a full disk";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();  // the free space (of /dev's filesystem) between
    EXPECT_EQ(what.rfind("cannot write the journal /dev/full: No space left on device (", 0), 0u) << what;
    EXPECT_NE(what.find(" free on its filesystem); the run stops here, and what it wrote before can be resumed with "
                        "--resume"),
              std::string::npos)
        << what;
  }
}

// Issue 30: a duplicated line silently won on --resume (the last of two records of a case was kept).
// Issue 40: refusing every second record also refused the journal of two runs into one reports folder
// that wrote the same outcomes (838 times), and its advice could not be followed: records that agree
// are one record; only records that disagree are refused, naming both lines and how to keep either.
TEST(Journal, AContradictoryRecordIsRefusedAtItsLineNamingBoth) {
  for (bool same_status : {false, true}) {
    fs::path p = temp("journal-dup");
    CaseResult second = result("k1", same_status ? Status::Pass : Status::Fail);
    if (same_status) second.reason = "another run's words";
    {
      Journal j(p, true);
      j.append(result("k1", Status::Pass));
      j.append(result("k2", Status::Pass));
      j.append(second);
    }
    try {
      read_journal(p);
      FAIL() << "a journal with two records of k1/unique-contiguous that disagree was read";
    } catch (const ReportError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(p.string() + ":3:1: a second record of k1/unique-contiguous that disagrees with the first, "
                                        "at line 1 (",
                           0),
                0u)
          << what;
      EXPECT_NE(what.find(same_status ? "the same outcome, pass, but they differ in reason"
                                      : "it says pass where this says fail"),
                std::string::npos)
          << what;
      EXPECT_NE(what.find("(sed -i '3d' on the journal keeps line 1's, sed -i '1d' this one's)"), std::string::npos)
          << what;
    }
    fs::remove(p);
  }
}

TEST(Journal, TwoRecordsThatAgreeAreOneRecord) {
  // Two runs into one reports folder at once, each writing the same outcome of each case, interleaved.
  fs::path p = temp("journal-agree");
  {
    Journal j(p, true);
    for (const char* k : {"k1", "k2", "k3"}) {
      j.append(result(k, Status::Pass));
      j.append(result(k, Status::Pass));
    }
    j.append(result("k1", Status::Pass));
  }
  std::vector<CaseResult> read;
  ASSERT_NO_THROW(read = read_journal(p));
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[0].kernel, "k1");
  EXPECT_EQ(read[1].kernel, "k2");
  EXPECT_EQ(read[2].kernel, "k3");
  EXPECT_EQ(resume_journal(p).size(), 3u);
  fs::remove(p);
}

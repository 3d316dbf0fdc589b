// Issue 30: a garbled record in a runner's results file stopped the reading of its line there, so
// every later case of the line became an `error` (2,594 cases over 39 garbled records in a 10-minute
// chaos soak). Now the reading goes on at the next record found whole and valid after the garbage:
// only the garbled case differs, and random bytes that look like a record's start are not taken.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "run/result_records.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/fake_gpu_run.hpp"
#include "support/spec_fixture.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

std::string record_bytes(std::uint32_t id, std::vector<std::uint8_t> smem = {1, 2, 3}) {
  DeviceResult r{.id = id, .ok = true, .error = "", .state = {.smem = std::move(smem), .regs = {7, 8}}};
  std::ostringstream out;
  write_result(out, r);
  return out.str();
}

std::string u32_bytes(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

// Jobs 0 to 9 of a line, none recorded but those read here.
struct Reader {
  std::set<std::uint32_t> read;
  ResultRecords records{"R", [](std::uint32_t id) { return id < 10; },
                        [this](std::uint32_t id) { return read.count(id) > 0; }};
  // The ids next() gives until it has none, each with the break it was found after ("" where none).
  std::vector<std::pair<std::uint32_t, std::string>> all(std::istream& in) {
    std::vector<std::pair<std::uint32_t, std::string>> out;
    while (auto r = records.next(in)) {
      read.insert(r->id);
      out.emplace_back(r->id, records.lost_before());
    }
    return out;
  }
};

using Got = std::vector<std::pair<std::uint32_t, std::string>>;

}  // namespace

TEST(GarbledRecords, TheReadingGoesOnAtTheNextWholeRecordAfterTheGarbage) {
  const std::string garbage = "\x91garbage, no record\x02";
  std::stringstream in(record_bytes(1) + garbage + record_bytes(3) + record_bytes(4));
  Reader r;
  const std::string lost = "device runner broke the protocol at results record 2 (byte " +
                           std::to_string(record_bytes(1).size()) +
                           " of R): expected the magic \"PCR1\" that starts a record, got \"\\x91gar\"";
  EXPECT_EQ(r.all(in), (Got{{1, ""}, {3, lost}, {4, ""}}));
  EXPECT_EQ(r.records.broken(), "");
}

TEST(GarbledRecords, BytesThatOnlyLookLikeARecordAreNotTaken) {
  // Magics followed by: no job of the line, a job already read, an outcome out of range, an error
  // text longer than the protocol allows; then one whose images run past the end of what is written,
  // which a whole record after it shows to be no record being written.
  const std::string forged = "PCR1" + u32_bytes(77) + "\1" + "PCR1" + u32_bytes(1) + "\1" + "PCR1" + u32_bytes(5) +
                             "\7" + "PCR1" + u32_bytes(5) + "\1" + u32_bytes(0xffffffffu) + "PCR1" + u32_bytes(6) +
                             "\1" + u32_bytes(0) + std::string("\xff\xff\x00\x00\x00\x00\x00\x00", 8);
  std::stringstream in(record_bytes(1) + "?" + forged + record_bytes(2));
  Reader r;
  const Got got = r.all(in);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (std::pair<std::uint32_t, std::string>{1, ""}));
  EXPECT_EQ(got[1].first, 2u);
  EXPECT_EQ(got[1].second.rfind("device runner broke the protocol at results record 2 (byte ", 0), 0u);
  EXPECT_EQ(r.read, (std::set<std::uint32_t>{1, 2}));
}

TEST(GarbledRecords, ARecordAfterTheGarbageStillBeingWrittenIsWaitedFor) {
  const std::string two = record_bytes(2);
  std::stringstream in(record_bytes(1) + "garbage" + two.substr(0, 9));
  Reader r;
  EXPECT_EQ(r.all(in).size(), 1u);
  EXPECT_NE(r.records.broken(), "");  // no record after the garbage yet
  in.clear();
  in.seekp(0, std::ios::end);
  in << two.substr(9);
  const Got got = r.all(in);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, 2u);
  EXPECT_NE(got[0].second, "");
  EXPECT_EQ(r.records.broken(), "");
}

TEST(GarbledRecords, GarbageARunnerWroteLastIsSkippedOnceItHasEnded) {
  std::stringstream in(record_bytes(1) + "garbage");
  Reader r;
  EXPECT_EQ(r.all(in).size(), 1u);
  EXPECT_EQ(r.records.settle(in).rfind("device runner broke the protocol at results record 2 (byte ", 0), 0u);
  EXPECT_EQ(r.records.settle(in), "");
  in.clear();
  in.seekp(0, std::ios::end);
  in << record_bytes(3);  // the next runner's
  EXPECT_EQ(r.all(in), (Got{{3, ""}}));
}

// The fake runner garbles the records of the cases a seeded hash picks: exactly those cases are an
// `error` naming the break; every other case is as a run without garbage has it.
TEST(GarbledRecords, OnlyTheGarbledCasesDiffer) {
  TempDir t("garbled");
  static Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog = fake_catalog(suite, {"sm_90"}, {7, 8}, [](auto const&, auto const&) { return "ptxcts_kernel"; });
  auto run = [&] { return run_on_fake_gpu(suite, catalog, PTXCTS_FAKE_RUNNER, t.dir, {"ldmatrix"}); };
  setenv("PTXCTS_FAKE_MODE", "echo", 1);
  const DeviceRun plain = run();
  const fs::path log = t.dir / "chaos.log";
  setenv("PTXCTS_FAKE_CHAOS", "11:0.04:garbage", 1);
  setenv("PTXCTS_FAKE_CHAOS_LOG", log.c_str(), 1);
  const DeviceRun garbled = run();
  unsetenv("PTXCTS_FAKE_CHAOS");
  unsetenv("PTXCTS_FAKE_CHAOS_LOG");
  std::set<std::string> hit;
  std::ifstream in(log);
  for (std::string kind, label; in >> kind >> label;) hit.insert(label);
  ASSERT_GE(hit.size(), 3u);
  ASSERT_EQ(garbled.results.size(), plain.results.size());
  int errors = 0;
  for (std::size_t k = 0; k < plain.results.size(); ++k) {
    const CaseResult& a = plain.results[k];
    const CaseResult& b = garbled.results[k];
    if (hit.count(b.kernel + "/" + b.case_name)) {
      EXPECT_EQ(b.status, Status::Error) << b.kernel << "/" << b.case_name;
      EXPECT_EQ(b.reason.rfind("device runner broke the protocol at results record ", 0), 0u) << b.reason;
      ++errors;
    } else {
      EXPECT_EQ(b.status, a.status) << b.kernel << "/" << b.case_name << ": " << b.reason;
      EXPECT_EQ(b.reason, a.reason) << b.kernel << "/" << b.case_name;
    }
  }
  EXPECT_EQ(errors, static_cast<int>(hit.size()));
}

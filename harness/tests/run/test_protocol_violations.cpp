// Issue 30: a results file of garbage or forged records from the device runner became "crash ...
// the device runner could not run" on every case; nothing crashed: the runner broke the protocol.
// Now each case it leaves without a result is an `error` naming the record, its byte and what was
// expected. The runner here is a shell script that writes such records.
#include <gtest/gtest.h>

#include <filesystem>
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

// A runner that waits for its go file where it has one, then appends `record` (printf's format) to
// its results file, says "done 0 ok" and exits 0.
DeviceRun run_with_records(const TempDir& t, const std::string& record) {
  const fs::path runner = t.dir / "runner";
  write_script(runner,
               "while [ $# -gt 0 ]; do case \"$1\" in --results) r=$2;; --standby) go=$2;; esac; shift; done\n"
               "if [ -n \"$go\" ]; then echo ready; while [ ! -f \"$go\" ]; do sleep 0.01; done;"
               " grep -q quit \"$go\" && exit 0; fi\n"
               "printf '" + record + "' >> \"$r\"\necho 'done 0 ok'\nexit 0\n");
  static Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog = fake_catalog(suite, {"sm_90"}, {7, 8}, [](auto const& k, auto const&) { return k.name; });
  return run_on_fake_gpu(suite, catalog, runner.string(), t.dir, {"movmatrix"});
}

// printf's spelling of n zero bytes.
std::string zeros(int n) {
  std::string out;
  for (int k = 0; k < n; ++k) out += "\\000";
  return out;
}

void expect_errors_saying(const DeviceRun& run, const std::string& says) {
  int errors = 0;
  for (auto const& r : run.results) {
    if (r.status == Status::Skip || r.status == Status::NotSupported) continue;
    EXPECT_EQ(r.status, Status::Error) << r.kernel << "/" << r.case_name << ": " << r.reason;
    EXPECT_EQ(r.reason.rfind("device runner broke the protocol at results record 1 (byte 0 of ", 0), 0u) << r.reason;
    EXPECT_NE(r.reason.find(says), std::string::npos) << r.reason;
    ++errors;
  }
  EXPECT_GT(errors, 0);
}

}  // namespace

TEST(ProtocolViolations, AResultsFileOfGarbageIsAnErrorNamingTheRecordNotACrash) {
  TempDir t("protocol");
  expect_errors_saying(run_with_records(t, "garbage, not a record\\n"),
                       "expected the magic \"PCR1\" that starts a record, got \"garb\"");
}

TEST(ProtocolViolations, AForgedRecordOfNoJobIsAnError) {
  TempDir t("protocol");  // "PCR1", id 999999, ok, no error text, empty images
  expect_errors_saying(run_with_records(t, "PCR1\\077\\102\\017\\000\\001" + zeros(20)),
                       "expected the id of a job of this job file, got 999999");
}

TEST(ProtocolViolations, EachFieldIsCheckedAndARecordStillBeingWrittenIsWaitedFor) {
  auto read = [](const std::string& bytes, bool recorded = false) {
    std::istringstream in(bytes);
    ResultRecords records("R", [](std::uint32_t id) { return id < 10; }, [&](std::uint32_t) { return recorded; });
    records.next(in);
    return records.broken();
  };
  const std::string id3("\3\0\0\0", 4);
  EXPECT_EQ(read("PC"), "");  // a magic cut short: the runner is still writing it
  EXPECT_EQ(read("PCR1" + id3), "");
  EXPECT_EQ(read("PX"), "device runner broke the protocol at results record 1 (byte 0 of R): expected the magic "
                        "\"PCR1\" that starts a record, got \"PX\"");
  EXPECT_NE(read("PCR1" + id3 + "\7").find("expected an outcome of 0 to 3, got 7"), std::string::npos);
  EXPECT_NE(read("PCR1" + id3 + "\1", true).find("expected one record per job, got a second one of job 3"),
            std::string::npos);
  EXPECT_NE(read("PCR1" + id3 + "\1" + std::string("\377\377\377\377", 4))
                .find("expected an error text of at most 1048576 bytes, got a length of 4294967295"),
            std::string::npos);
}

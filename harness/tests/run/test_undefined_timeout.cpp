// The limit on a launch of a case the documents leave undefined on its target (--undefined-timeout,
// RunOptions::undefined_timeout): such a case that hangs (four mma cases did on an H200, each until the
// 30 s limit on a launch) is killed at the short limit, counted from its launch, and observed as hung
// within it; a case of any other kind, on either line, keeps the limit on a launch however slow it is;
// the run goes on. The fake device runner hangs (PTXCTS_FAKE_HANG_CASES) or takes its time
// (PTXCTS_FAKE_SLOW_CASES) on cases named.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "report/run/report_junit.hpp"
#include "results/outcome.hpp"
#include "run/early_runner.hpp"
#include "run/runner.hpp"
#include "run/runner_watch.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

// The four cases that hung on the H200 (specs/cases.yaml), on their own kernels (".upper_*").
const char* const kH200Hangs =
    "mma-undefined-upper-lanes-predicated-off,mma-undefined-upper-lanes-other-form,"
    "mma-sp-undefined-upper-lanes-predicated-off,mma-sp-undefined-upper-lanes-other-form";

struct UndefinedLimitRun {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog = fake_catalog(suite, {"sm_90"}, {9, 0}, [](auto const&, auto const&) { return "entry"; });
  fs::path work = fs::temp_directory_path() / ("ptxcts-undefined-limit-" + std::to_string(::getpid()));
  double seconds = 0;  // run_on_device's wall time
  ~UndefinedLimitRun() {
    fs::remove_all(work);
    for (const char* v : {"PTXCTS_FAKE_HANG_CASES", "PTXCTS_FAKE_SLOW_CASES", "PTXCTS_FAKE_SLOW_SECONDS"}) unsetenv(v);
  }

  // The cases `globs` selects on an sm_90 device (`mode`), with a 0.3 s limit on an undefined case and
  // `case_timeout` on a launch; the fault line's first runner started ahead of time, as `ptxcts run` does.
  DeviceRun run(std::vector<std::string> globs, double case_timeout, const std::string& mode = "echo") {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    fs::create_directories(work);
    EarlyRunner early(PTXCTS_FAKE_RUNNER, 0, work, case_timeout);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .case_globs = std::move(globs),
                   .progress = {},
                   .early = &early,
                   .case_timeout = case_timeout,
                   .undefined_timeout = 0.3,
                   .journal = nullptr,
                   .done = {}};
    const auto t0 = std::chrono::steady_clock::now();
    DeviceRun r = run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
};

bool hung_on_h200(const CaseResult& r) {
  return ("," + std::string(kH200Hangs) + ",").find("," + r.case_name + ",") != std::string::npos;
}

}  // namespace

TEST(UndefinedTimeout, AnUndefinedCaseThatHangsIsKilledAtTheShortLimitObservedAndTheRunGoesOn) {
  // Before: each hang waited for the limit on a launch (here 8 s; 30 s on the H200), four of them.
  // A correct device in software (model), whose runner reads the specs it emulates from before its
  // first "batch" line, as the real one loads its modules: a fresh runner's first launch, after a
  // hang, is as quick as any.
  UndefinedLimitRun f;
  setenv("PTXCTS_FAKE_HANG_CASES", kH200Hangs, 1);
  DeviceRun r = f.run({"mma*.upper_*/*"}, 8, "model");  // mma's and mma.sp's lanes kernels (the H200's four hangs)
  // Four hangs at 0.3 s each and the starts of the runners after them (each reads the specs: 9 s in
  // all on a loaded machine); at the limit on a launch, 32 s and more.
  EXPECT_LT(f.seconds, 16.0);
  int hung = 0, after = 0;
  for (auto const& c : r.results) {
    EXPECT_FALSE(c.undefined.empty()) << case_id(c);
    EXPECT_EQ(outcome_of(c), Outcome::Undefined) << case_id(c) << ": " << c.reason;
    EXPECT_FALSE(needs_action(c)) << case_id(c);
    if (!hung_on_h200(c)) {  // the lanes-exited cases, one of them after two hangs: a result each
      ++after;
      EXPECT_TRUE(c.status == Status::Pass || c.status == Status::Fail || c.status == Status::Crash)
          << case_id(c) << ": " << c.reason;
      continue;
    }
    ++hung;
    EXPECT_EQ(c.status, Status::Timeout) << case_id(c);
    EXPECT_EQ(c.reason,
              "no result within 0.3 s of the launch (the limit on an undefined case, --undefined-timeout); the device "
              "runner was killed");
    EXPECT_EQ(undefined_observation(c),
              "gave no result in time (no result within 0.3 s of the launch (the limit on an undefined case, "
              "--undefined-timeout); the device runner was killed)");
  }
  EXPECT_EQ(hung, 4);
  EXPECT_EQ(after, 2);
  // An observation in the JUnit file too: never a failure nor an error that turns CI red.
  RunReport report;
  report.info.sm = "sm_90";
  report.results = r.results;
  const std::string junit = report_junit(report);
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
  EXPECT_EQ(junit.find("<error"), std::string::npos) << junit;
}

TEST(UndefinedTimeout, AnOrdinaryOrFaultCaseSlowerThanTheShortLimitIsNotKilledByIt) {
  // One kernel's cases on both lines: ordinary ones (the main line), fault and undefined ones (the
  // fault line). An ordinary case and a fault case take 1 s each, past the 0.3 s limit on an
  // undefined case: only the limit on a launch (5 s) is theirs. A limit that took every launch, or
  // every launch of the fault line, for an undefined case's kills them here.
  UndefinedLimitRun f;
  setenv("PTXCTS_FAKE_SLOW_CASES", "wmma-unique-default-stride,wmma-fault-misaligned-stride", 1);
  setenv("PTXCTS_FAKE_SLOW_SECONDS", "1", 1);
  DeviceRun r = f.run({"wmma.load.a.sync.aligned.row.m16n16k16.shared.f16_stride_a64/*"}, 5);
  EXPECT_GE(f.seconds, 1.0);  // the slow launches were slow
  int slow = 0, undefined = 0;
  for (auto const& c : r.results) {
    EXPECT_NE(c.status, Status::Timeout) << case_id(c) << ": " << c.reason;
    EXPECT_EQ(c.reason.find("no result within"), std::string::npos) << case_id(c) << ": " << c.reason;
    slow += c.case_name == "wmma-unique-default-stride" || c.case_name == "wmma-fault-misaligned-stride";
    undefined += !c.undefined.empty();
  }
  EXPECT_EQ(slow, 2);
  EXPECT_GE(undefined, 1);  // the fault line holds undefined cases too, which the short limit is for
}

TEST(UndefinedTimeout, TheWatchGivesTheShortLimitToABatchOfUndefinedCasesAlone) {
  RunnerWatch w(5, 60);
  // Jobs 2 and 3 of the runner's job file are undefined cases.
  w.limit_undefined(0.3, [](std::size_t first, std::size_t count) { return first >= 2 && first + count <= 4; });
  auto left = [&] {
    return std::chrono::duration<double>(*w.child().deadline() - std::chrono::steady_clock::now()).count();
  };
  w.begin();
  EXPECT_NEAR(left(), 60, 0.1);  // loading its modules: the limit on a batch, not the short one
  w.hear("batch 2 1");
  EXPECT_NEAR(left(), 0.3, 0.1);
  EXPECT_EQ(w.why_stalled(),
            "no result within 0.3 s of the launch (the limit on an undefined case, --undefined-timeout); the device "
            "runner was killed");
  w.hear("done 2 ok");
  EXPECT_NEAR(left(), 60, 0.1);
  w.hear("batch 3 2");  // with job 4, another case: the limit on a launch
  EXPECT_NEAR(left(), 5, 0.1);
  EXPECT_EQ(w.why_stalled(),
            "no result within 5 s of the launch (the limit on a launch), though the device runner kept printing; it "
            "was killed");
  w.hear("done 3 ok");
  w.hear("done 4 ok");
  w.hear("batch 0 1");
  EXPECT_NEAR(left(), 5, 0.1);
}

// `ptxcts run` of a suite on the fake device runner, as a user runs it (the runner started before
// the specs load, the manifest's index, the cases streamed into the job files) and the naive way
// (--no-early-runner --no-manifest-index --no-stream): the same reports, case for case, claim for
// claim. The small suite's (support/small_suite.hpp): how a run starts and feeds its runner is the
// same for every family; the whole suite streamed is CaseStream's (run/test_case_stream.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "report/run/report_json.hpp"
#include "results/outcome.hpp"
#include "support/same_results.hpp"
#include "support/small_suite.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

RunReport run_suite(const fs::path& reports, const std::vector<std::string>& extra) {
  fs::remove_all(reports);
  std::vector<std::string> argv = {"env",
                                   "PTXCTS_FAKE_MODE=model",
                                   PTXCTS_COMMAND,
                                   "--specs",
                                   test::small_suite_specs(),
                                   "run",
                                   "--no-assemble",
                                   "--catalog",
                                   test::small_suite_catalog(),
                                   "--runner",
                                   PTXCTS_FAKE_RUNNER,
                                   "--quiet",
                                   "--reports",
                                   reports.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const ProcessResult r = run_process(argv, 600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (auto const& e : fs::directory_iterator(reports))
    if (e.path().extension() == ".json") return parse_report_json(read_file_text(e.path()), e.path().string());
  ADD_FAILURE() << "no JSON report in " << reports << "\n" << r.output;
  return RunReport{};
}

}  // namespace

TEST(Startup, TheSuiteRunAsUsualGivesTheNaiveWaysReport) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const fs::path base = fs::temp_directory_path() / ("ptxcts-startup-" + std::to_string(::getpid()));
  const RunReport naive = run_suite(base / "naive", {"--no-early-runner", "--no-manifest-index", "--no-stream"});
  const RunReport usual = run_suite(base / "usual", {});
  const RunReport warm = run_suite(base / "warm", {});  // the index made by the run before
  fs::remove_all(base);
  if (tally(naive.results)[Outcome::Pass] == 0) GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  for (const RunReport* r : {&usual, &warm}) {
    test::expect_same_case_results(r->results, naive.results);
    ASSERT_EQ(r->claims.size(), naive.claims.size());
    for (std::size_t k = 0; k < naive.claims.size(); ++k) {
      EXPECT_EQ(r->claims[k].id, naive.claims[k].id);
      EXPECT_EQ(r->claims[k].verdict, naive.claims[k].verdict) << naive.claims[k].id;
      EXPECT_EQ(r->claims[k].evidence, naive.claims[k].evidence) << naive.claims[k].id;
    }
    EXPECT_EQ(r->timing.runner_starts, naive.timing.runner_starts);  // the early runner is the fault line's first
    EXPECT_EQ(r->timing.launch_count, naive.timing.launch_count);
  }
}

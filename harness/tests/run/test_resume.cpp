// `ptxcts run --resume` after a run was killed (SIGKILL, by the fake device runner, at several
// points, one after another): the resumed report equals the uninterrupted run's, field for field (but
// the date and the timing).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assemble/catalog.hpp"
#include "support/small_suite.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using ptxcts::run_process;

namespace {

const char* kReport = "fake-gpu-sm_90-driver0.0-cuda13.0.json";

ptxcts::ProcessResult resume_run(const fs::path& reports, const std::string& mode, bool resume) {
  setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
  std::vector<std::string> argv{
      PTXCTS_COMMAND,       "--specs",     ptxcts::test::small_suite_specs(), "run", "--no-assemble", "--catalog",
      ptxcts::test::small_suite_catalog(), "--runner", PTXCTS_FAKE_RUNNER, "--reports", reports.string()};
  if (resume) argv.push_back("--resume");
  return run_process(argv, 600);
}

nlohmann::json report(const fs::path& dir) {
  std::ifstream in(dir / kReport);
  if (!in) throw std::runtime_error("no report in " + dir.string());
  nlohmann::json j = nlohmann::json::parse(in);
  j["run"].erase("date");
  j.erase("timing");  // what each process spent: a resumed run spends less
  return j;
}

}  // namespace

TEST(Resume, AKilledRunResumedGivesTheUninterruptedReport) {
  ASSERT_TRUE(ptxcts::test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const fs::path base = fs::temp_directory_path() / fmt::format("ptxcts-resume-{}", ::getpid());
  fs::remove_all(base);
  ASSERT_EQ(resume_run(base / "whole", "echo", false).exit_code, 1);  // echoed inputs fail
  const nlohmann::json whole = report(base / "whole");
  ASSERT_GT(whole["results"].size(), 600u);  // the small suite has 671 cases, about 200 launched
  // One run killed at three points in turn (SIGKILL at launch 0; resumed, at 50; resumed again, at
  // 150), then resumed to its end: each resumption goes on from the journal of every run before it,
  // the last from one that two resumed runs added to. Its report is the uninterrupted run's.
  const fs::path dir = base / "cut";
  bool resume = false;
  for (int at : {0, 50, 150}) {
    SCOPED_TRACE(fmt::format("killed at launch {}", at));
    ptxcts::ProcessResult killed = resume_run(dir, fmt::format("echo,killparent:{}", at), resume);
    ASSERT_EQ(killed.signal, 9) << killed.output;
    ASSERT_FALSE(fs::exists(dir / kReport));
    resume = true;
  }
  ptxcts::ProcessResult resumed = resume_run(dir, "echo", true);
  EXPECT_EQ(resumed.exit_code, 1) << resumed.output;
  EXPECT_NE(resumed.output.find("resuming: "), std::string::npos) << resumed.output;
  const nlohmann::json got = report(dir);
  EXPECT_EQ(got["results"].size(), whole["results"].size());
  for (std::size_t k = 0; k < got["results"].size() && k < whole["results"].size(); ++k)
    if (got["results"][k] != whole["results"][k]) {
      ADD_FAILURE() << "result " << k << " differs:\n"
                    << got["results"][k].dump() << "\n"
                    << whole["results"][k].dump();
      break;
    }
  EXPECT_EQ(got["claims"], whole["claims"]);
  EXPECT_EQ(got, whole);
  fs::remove_all(base);
}

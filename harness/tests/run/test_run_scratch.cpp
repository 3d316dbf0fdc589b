// Runs are independent: each keeps its job and result files in a fresh directory of its own,
// removed when it ends, so that runs at the same time (ctest -j4 runs the four conformance.*
// tests at once) get exactly what they would get one after another.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/runner_spy.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFamilies = {"ldmatrix", "stmatrix", "movmatrix", "wmma"};

struct Scratch : ::testing::Test {
  static inline Suite suite;
  static inline Catalog catalog;
  fs::path dir = fs::temp_directory_path() / ("ptxcts-scratch-test-" + std::to_string(::getpid()));

  static void SetUpTestSuite() {
    suite = build_suite(load_specs(spec_files()));
    catalog = fake_catalog(suite, {"sm_90"}, {7, 8}, [](auto const& k, auto const&) { return "entry_" + k.name; });
  }
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    setenv("PTXCTS_FAKE_MODE", "echo", 1);
  }
  void TearDown() override { fs::remove_all(dir); }

  // One family on "GPU 0" (every run the same device, as the conformance tests have), scratch
  // files under `work` (where each run must make a directory of its own).
  static DeviceRun run(const std::string& family, const fs::path& work,
                       const std::string& runner = PTXCTS_FAKE_RUNNER) {
    RunOptions opt{.runner = runner,
                   .catalog_dir = "/nonexistent-catalog",
                   .work_dir = work,
                   .families = {family},
                   .progress = {},
                   .case_timeout = 60,
                   .journal = nullptr,
                   .done = {}};
    return run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  }
};

}  // namespace

TEST_F(Scratch, FourFamiliesAtOnceGetWhatTheyGetOneAfterAnother) {
  std::map<std::string, DeviceRun> serial, parallel;
  for (auto const& f : kFamilies) serial[f] = run(f, dir);
  // At once: each device runner waits (up to 30 s) until all four have started, so that the runs
  // overlap as four conformance tests on one GPU do for minutes, however long each takes to
  // make its cases' data.
  fs::path barrier = dir / "barrier", script = dir / "runner-at-once.sh";
  fs::create_directories(barrier);
  std::ofstream(script) << "#!/bin/sh\ntouch '" << (barrier / "arrived.").string() << "'$$\nn=0\n"
                        << "while [ $(ls '" << barrier.string()
                        << "' | wc -l) -lt 4 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done\n"
                        << "exec '" << PTXCTS_FAKE_RUNNER << "' \"$@\"\n";
  ::chmod(script.c_str(), 0755);
  fs::path work = dir / "work";                 // where every run makes its own directory
  for (auto const& f : kFamilies) parallel[f];  // every slot made before the threads write them
  std::vector<std::thread> threads;
  for (auto const& f : kFamilies) threads.emplace_back([&, f] { parallel[f] = run(f, work, script.string()); });
  for (auto& t : threads) t.join();
  for (auto const& f : kFamilies) {
    const auto &a = serial[f].results, &b = parallel[f].results;
    ASSERT_EQ(a.size(), b.size()) << f;
    ASSERT_FALSE(a.empty()) << f;
    int differ = 0;
    for (std::size_t n = 0; n < a.size(); ++n) {
      const bool same = a[n].kernel == b[n].kernel && a[n].case_name == b[n].case_name && a[n].status == b[n].status &&
                        a[n].reason == b[n].reason && a[n].diff == b[n].diff;
      if (!same && differ++ < 3)
        ADD_FAILURE() << f << ": " << a[n].kernel << " / " << a[n].case_name << ": one after another "
                      << to_string(a[n].status) << " (" << a[n].reason << "), at once " << to_string(b[n].status)
                      << " (" << b[n].reason << ")";
    }
    EXPECT_EQ(differ, 0) << f << ": results that differ when the families run at once";
  }
  EXPECT_TRUE(fs::is_empty(work)) << "each run removes its scratch directory";
}

TEST_F(Scratch, ARunMakesItsOwnDirectoryInTheSystemTempDirAndRemovesIt) {
  // No work_dir (as `ptxcts run` gives none): the system's temp directory, as $TMPDIR names it.
  fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  struct TmpDir {  // $TMPDIR for this run only, whatever happens in it
    const char* before = std::getenv("TMPDIR");
    std::string saved = before ? before : "";
    explicit TmpDir(const fs::path& p) { setenv("TMPDIR", p.c_str(), 1); }
    ~TmpDir() { before ? setenv("TMPDIR", saved.c_str(), 1) : unsetenv("TMPDIR"); }
  };
  RunnerSpy spy(dir / "spy");
  DeviceRun r = [&] {
    TmpDir in(tmp);
    return run("movmatrix", "", spy.script.string());
  }();
  ASSERT_FALSE(r.results.empty());
  auto files = spy.job_files();  // a runner's each: the main line's and the fault line's (its undefined case)
  ASSERT_FALSE(files.empty());
  fs::path scratch = fs::path(files[0]).parent_path();
  for (auto const& f : files) EXPECT_EQ(fs::path(f).parent_path(), scratch) << f;
  EXPECT_EQ(scratch.parent_path(), tmp);
  EXPECT_EQ(scratch.filename().string().rfind("ptxcts-run-", 0), 0u) << scratch;
  EXPECT_FALSE(fs::exists(scratch)) << "removed when the run ended";
  // A second run gets a directory of its own.
  run("movmatrix", "", spy.script.string());
  auto again = spy.job_files();
  ASSERT_GT(again.size(), files.size());
  EXPECT_NE(fs::path(again.back()).parent_path(), scratch);
}

// Whole commands in a hostile environment: a full disk, a read-only catalog, hostile reports, a
// copied build. Each runs the real `ptxcts` (with a stand-in ptxas where assembling is not the point),
// on the small suite's specs where what it does is the same for every family (support/small_suite.hpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "support/fake_ptxas.hpp"
#include "support/shell_line.hpp"
#include "support/small_suite.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;
using ptxcts::test::small_suite_specs;

namespace {

struct HostileDir {
  fs::path path;
  explicit HostileDir(const std::string& name)
      : path(fs::temp_directory_path() / ("ptxcts-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~HostileDir() { fs::remove_all(path); }
};

// The stand-in ptxas for whole commands (support/fake_ptxas.hpp), written into `dir`.
fs::path write_fake_ptxas(const fs::path& dir, const std::string& assembles = ptxcts::test::kAccepts) {
  fs::path script = dir / "ptxas";
  std::ofstream(script) << ptxcts::test::whole_command_ptxas(assembles);
  ::chmod(script.c_str(), 0755);
  return script;
}

bool can_unshare() {
  return run_process(ptxcts::test::unshared_shell_line("mount -t tmpfs -o size=64k tmpfs /mnt"), 20).exit_code == 0;
}

// Mounts a tmpfs of `size` at $1, then runs the rest of the arguments ($2...) there.
constexpr const char* kOnASmallDisk128k = "mount -t tmpfs -o size=128k tmpfs \"$1\" && shift && exec \"$@\"";
constexpr const char* kOnASmallDisk16k = "mount -t tmpfs -o size=16k tmpfs \"$1\" && shift && exec \"$@\"";
constexpr const char* kOnASmallDisk64k = "mount -t tmpfs -o size=64k tmpfs \"$1\" && shift && exec \"$@\"";

}  // namespace

TEST(HostileCommands, AFullDiskUnderCatalogOutIsOneClearError) {
  // Before: SIGABRT (an exception escaped a worker thread).
  if (!can_unshare()) GTEST_SKIP() << "cannot mount a small tmpfs here (unshare -rm is not allowed)";
  HostileDir t("full-disk");
  fs::path ptxas = write_fake_ptxas(t.path), mnt = t.path / "small";
  fs::create_directories(mnt);
  ProcessResult r = run_process(
      ptxcts::test::unshared_shell_line(kOnASmallDisk128k, {mnt.string(), PTXCTS_COMMAND, "catalog", "--out",
                                                            (mnt / "catalog").string(), "--targets", "sm_90", "-j",
                                                            "2", "--ptxas", ptxas.string()}),
      300);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.signal, 0) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;
}

TEST(HostileCommands, AReadOnlyCatalogCanBeRun) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  // Before: scratch files went inside the catalog, so a read-only copy could not be run.
  if (!can_unshare()) GTEST_SKIP() << "cannot bind-mount read-only here (unshare -rm is not allowed)";
  HostileDir t("read-only");
  // A catalog for sm_90 (the fake GPU) of its own: the build's may hold no target (native, no GPU),
  // and a run that launches nothing proves nothing.
  fs::path ptxas = write_fake_ptxas(t.path), built = t.path / "built", ro = t.path / "catalog";
  ProcessResult b = run_process({PTXCTS_COMMAND, "--specs", small_suite_specs(), "catalog", "--out", built.string(),
                                 "--targets", "sm_90", "--ptxas", ptxas.string()},
                                300);
  ASSERT_EQ(b.exit_code, 0) << b.output;
  fs::create_directories(ro);
  ProcessResult r = run_process(
      ptxcts::test::unshared_shell_line(
          "mount --bind \"$1\" \"$2\" && mount -o remount,ro,bind \"$2\" && shift 2 && export PTXCTS_FAKE_MODE=model && "
          "exec \"$@\"",
          {built.string(), ro.string(), PTXCTS_COMMAND, "--specs", small_suite_specs(), "run", "--no-assemble", "--catalog", ro.string(), "--family",
           "movmatrix", "--ptxas", ptxas.string(), "--runner", PTXCTS_FAKE_RUNNER}),
      300);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\nConforms: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("\nNothing checked"), std::string::npos) << "nothing was launched: " << r.output;
  EXPECT_EQ(r.output.find("Read-only file system"), std::string::npos) << r.output;
  // Its probe verdicts are all there (the catalog command judged them): nothing to add, nothing to say,
  // as for a user of an installed package, whose catalog only root may write.
  EXPECT_EQ(r.output.find("cannot be written"), std::string::npos) << r.output;
}

TEST(HostileCommands, DeeplyNestedReportsAreRefusedFastWithAPlace) {
  // Before: 200 KB of nested brackets grew `diff` to 24 GB (quadratic) until it was killed.
  HostileDir t("deep");
  const fs::path deep = t.path / "deep.json";
  std::ofstream(deep) << "{\"a\":\n" << std::string(100000, '[') << std::string(100000, ']') << "}\n";
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = run_process({PTXCTS_COMMAND, "diff", deep.string(), deep.string()}, 60);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "error: " + deep.string() +
                          ":2:64: nested more than 64 deep; expected a report, journal or manifest (they nest a few "
                          "levels)\n");
}

TEST(HostileCommands, ANumberTooLargeIsPlaced) {
  // Before: "[json.exception.out_of_range.406] number overflow parsing '1e400'", no file, no place.
  HostileDir t("1e400");
  const fs::path big = t.path / "big.json";
  std::ofstream(big) << "{\n  \"schema_version\": 1e400\n}\n";
  ProcessResult r = run_process({PTXCTS_COMMAND, "diff", big.string(), big.string()}, 60);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "error: " + big.string() +
                          ":2:21: number 1e400 is out of range (does not fit a double); expected a number a report "
                          "can hold\n");
}

TEST(HostileCommands, ACopiedBuildWritesIntoItsOwnFolders) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  // Before: the source tree's absolute paths were compiled in: a copy wrote into the original tree.
  HostileDir t("copied-build");
  fs::create_directories(t.path / "build" / "harness");
  const fs::path copy = t.path / "build" / "harness" / "ptxcts";
  fs::copy_file(PTXCTS_COMMAND, copy);
  fs::path ptxas = write_fake_ptxas(t.path);
  ProcessResult r = run_process({copy.string(), "--specs", small_suite_specs(), "catalog", "--kernels",
                                 PTXCTS_SOURCE_DIR "/kernels", "--targets", "sm_90", "--ptxas", ptxas.string()},
                                300);
  EXPECT_EQ(r.exit_code, 0) << "signal " << r.signal << ": " << r.output;
  EXPECT_TRUE(fs::exists(t.path / "build" / "catalog" / "manifest.json")) << r.output;
  ProcessResult help = run_process({copy.string(), "audit", "--help"}, 60);
  EXPECT_NE(help.output.find("--reports TEXT=" + (t.path / "build" / "reports").string()), std::string::npos)
      << help.output;
  // Without the source tree beside it, the specs are not found, and it says where it looked.
  ProcessResult lost = run_process({copy.string(), "check-specs"}, 60);
  EXPECT_EQ(lost.exit_code, 2);
  EXPECT_NE(lost.output.find((t.path / "specs").string()), std::string::npos) << lost.output;
}

TEST(HostileCommands, ReportsGoUnderTheBuildUnlessTold) {
  // Before: `audit` and `run` wrote into the tracked reports/, and the next build stamped "+changes".
  ProcessResult help = run_process({PTXCTS_COMMAND, "run", "--help"}, 60);
  const std::string build_reports = (fs::path(PTXCTS_CATALOG_DIR).parent_path() / "reports").string();
  EXPECT_NE(help.output.find("--reports TEXT=" + build_reports + "\n"), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("--reports TEXT=" PTXCTS_SOURCE_DIR "/reports"), std::string::npos) << help.output;
}

TEST(HostileCommands, AuditReportsGoUnderTheBuildUnlessTold) {
  ProcessResult help = run_process({PTXCTS_COMMAND, "audit", "--help"}, 60);
  const std::string build_reports = (fs::path(PTXCTS_CATALOG_DIR).parent_path() / "reports").string();
  EXPECT_NE(help.output.find("--reports TEXT=" + build_reports + "\n"), std::string::npos) << help.output;
}

TEST(HostileCommands, APtxasThatExitsZeroWithoutOutputIsAnErrorNotACrash) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  // Before: the build's catalog step crashed (SIGABRT) instead of saying what ptxas did.
  HostileDir t("no-output");
  fs::path ptxas = write_fake_ptxas(t.path, "exit 0\n");
  ProcessResult r = run_process({PTXCTS_COMMAND, "--specs", small_suite_specs(), "catalog", "--out",
                                 (t.path / "catalog").string(), "--targets", "sm_90", "--ptxas", ptxas.string()},
                                300);
  EXPECT_EQ(r.signal, 0) << r.output.substr(0, 2000);
  EXPECT_EQ(r.exit_code, 3) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("ptxas failed: "), std::string::npos) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find(": ptxas exit 0 without writing the cubin, on a batch of "), std::string::npos)
      << r.output.substr(0, 2000);
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output.substr(0, 2000);
}

TEST(HostileCommands, TwoColdCatalogBuildsIntoOneDirectoryAtOnce) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  // Before: "cannot rename ... .cubin.tmp": one of the two ended with SIGABRT.
  HostileDir t("two-catalogs");
  fs::path ptxas = write_fake_ptxas(t.path);
  const std::vector<std::string> cmd = {PTXCTS_COMMAND, "--specs",  small_suite_specs(), "catalog",
                                        "--out",        (t.path / "catalog").string(), "--targets",
                                        "sm_90",        "--ptxas", ptxas.string()};
  ProcessResult a, b;
  std::thread other([&] { b = run_process(cmd, 600); });
  a = run_process(cmd, 600);
  other.join();
  for (const ProcessResult* r : {&a, &b}) {
    EXPECT_EQ(r->signal, 0) << r->output.substr(0, 2000);
    EXPECT_EQ(r->exit_code, 0) << r->output.substr(0, 2000);
    EXPECT_EQ(r->output.find("cannot rename"), std::string::npos) << r->output.substr(0, 2000);
  }
  // What they left is one catalog, read as such, with no temporary files.
  ProcessResult check = run_process(cmd, 600);
  EXPECT_EQ(check.exit_code, 0) << check.output.substr(0, 2000);
  EXPECT_NE(check.output.find(" 0 assembled"), std::string::npos) << check.output.substr(0, 2000);
  for (auto const& e : fs::recursive_directory_iterator(t.path / "catalog"))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(HostileCommands, AFullDiskUnderTheJournalStopsTheRunWithOneLine) {
  // Before: journal appends were unchecked: on a full disk it stopped silently while the run went on.
  if (!can_unshare()) GTEST_SKIP() << "cannot mount a small tmpfs here (unshare -rm is not allowed)";
  if (!fs::exists(fs::path(PTXCTS_CATALOG_DIR) / "manifest.json")) GTEST_SKIP() << "the build has no catalog";
  HostileDir t("full-journal");
  fs::path mnt = t.path / "small";
  fs::create_directories(mnt);
  ProcessResult r = run_process(
      ptxcts::test::unshared_shell_line(kOnASmallDisk16k, {mnt.string(), "env", "PTXCTS_FAKE_MODE=model", PTXCTS_COMMAND,
                                                           "run", "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR,
                                                           "--runner", PTXCTS_FAKE_RUNNER, "--reports",
                                                           (mnt / "reports").string()}),
      300);
  EXPECT_EQ(r.signal, 0) << r.output;
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: cannot write the journal " + mnt.string() + "/reports/"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(": No space left on device ("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" free on its filesystem); the run stops here, and what it wrote before can be resumed "
                          "with --resume\n"),
            std::string::npos)
      << r.output;
}

TEST(HostileCommands, AFileWithoutAnEndIsRefusedAtTheSizeLimit) {
  // A reader took whatever it was given whole: /dev/zero as a report would be read until memory ran out.
  ProcessResult r = run_process({PTXCTS_COMMAND, "diff", "/dev/zero", "/dev/zero"}, 120);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output,
            "error: /dev/zero: more than 256 MiB; refused unread (expected a spec, report, journal or manifest: they "
            "are a few MB)\n");
}

TEST(HostileCommands, AFullDiskUnderTheReportsIsOneClearError) {
  // Write errors are checked everywhere: the audit's report (megabytes) on a 64 KiB disk.
  if (!can_unshare()) GTEST_SKIP() << "cannot mount a small tmpfs here (unshare -rm is not allowed)";
  HostileDir t("full-reports");
  fs::path ptxas = write_fake_ptxas(t.path), mnt = t.path / "small";
  fs::create_directories(mnt);
  ProcessResult r = run_process(
      ptxcts::test::unshared_shell_line(kOnASmallDisk64k,
                                        {mnt.string(), PTXCTS_COMMAND, "audit", "--catalog", (t.path / "catalog").string(),
                                         "--ptxas", ptxas.string(), "--reports", (mnt / "reports").string()}),
      300);
  EXPECT_EQ(r.signal, 0) << r.output;
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: cannot write " + mnt.string() + "/reports/audit-cuda13.0."), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(": No space left on device (0 bytes free on its filesystem)\n"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;
}

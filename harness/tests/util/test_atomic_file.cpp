// Nothing left on disk (issue 30): a report or cache file written atomically goes through a
// temporary beside it (`NAME.tmpPID-N`); one a writer killed mid-write left is removed by the next
// write into that folder, once its writer is gone and it is over a minute old, never a live one's.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"
#include "util/atomic_file.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

// The pid of a process that has ended and been reaped.
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

fs::path left(const fs::path& dir, const std::string& name, std::chrono::seconds age) {
  const fs::path p = dir / name;
  std::ofstream(p) << "half a report";
  fs::last_write_time(p, fs::file_time_type::clock::now() - age);
  return p;
}

}  // namespace

TEST(AtomicFile, TemporariesOfKilledWritersAreSweptByTheNextWriteThere) {
  test::TempDir t("atomic-sweep");
  const std::string dead = std::to_string(dead_pid()), live = std::to_string(::getpid());
  const auto old = std::chrono::minutes(5);
  const fs::path killed = left(t.dir, "report.json.tmp" + dead + "-0", old);
  const fs::path killed_too = left(t.dir, "report.md.tmp" + dead + "-12", old);
  const fs::path living = left(t.dir, "report.json.tmp" + live + "-1", old);
  const fs::path young = left(t.dir, "report.html.tmp" + dead + "-2", std::chrono::seconds(1));
  const fs::path not_one = left(t.dir, "notes.tmp" + dead + "-x", old);
  write_file_atomically(t.dir / "report.json", "{}");
  EXPECT_FALSE(fs::exists(killed)) << "a dead writer's old temporary is left: " << killed;
  EXPECT_FALSE(fs::exists(killed_too));
  EXPECT_TRUE(fs::exists(living)) << "a live writer's temporary was removed";
  EXPECT_TRUE(fs::exists(young)) << "a temporary under a minute old was removed";
  EXPECT_TRUE(fs::exists(not_one)) << "a file not named as a temporary was removed";
  std::ifstream in(t.dir / "report.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "{}");
}

// Scratch folders whose owner is dead are swept (util/owned_folder): a zombie is dead. The owner file
// is written here as owner_text() writes it (pid, start time from /proc/PID/stat's 22nd field, pid
// namespace, boot id: proc(5)), for a child of this test's own.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/temp_dir.hpp"
#include "util/owned_folder.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

// /proc/PID/stat's fields after the command's name: [0] is the state (3rd field), [19] the start time (22nd).
std::vector<std::string> stat_fields(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream rest(stat.substr(stat.rfind(')') + 1));
  std::vector<std::string> fields;
  for (std::string f; rest >> f;) fields.push_back(f);
  return fields;
}

std::string line_of(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST(OwnedFolder, AFolderWhoseOwnerIsAZombieIsSwept) {
  // Before: a run killed with its parent (a Slurm task's node-death, the chaos soak's task-killed) is
  // reaped by PID 1, which in a container took about a second; until then its /proc entry kept its
  // start time, so the next run judged the folder alive and left it: 89 bytes to 3.6 MB a kill.
  test::TempDir t("zombie-owner");
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const fs::path folder = t.dir / "ptxcts-run-zombie";
  fs::create_directories(folder);
  std::ofstream(folder / "owner") << "pid " << child << "\nstart " << stat_fields(child).at(19) << "\npidns "
                                  << fs::read_symlink("/proc/self/ns/pid").string() << "\nboot "
                                  << line_of("/proc/sys/kernel/random/boot_id") << "\n";
  EXPECT_FALSE(owner_dead(folder)) << "its owner lives";
  ::kill(child, SIGKILL);
  for (int i = 0; i < 500 && stat_fields(child).at(0) != "Z"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(stat_fields(child).at(0), "Z") << "the child did not become a zombie";
  EXPECT_TRUE(owner_dead(folder)) << "a zombie is dead";
  const Swept s = sweep_dead_owners(t.dir);
  EXPECT_EQ(s.folders, 1);
  EXPECT_FALSE(fs::exists(folder));
  ::waitpid(child, nullptr, 0);
}

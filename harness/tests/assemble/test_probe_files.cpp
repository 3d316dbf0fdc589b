// The small files ptxcts hands to ptxas and the disassemblers (a probe's .ptx, a raw .bin) lie in a
// scratch folder of the process's own (util/scratch_file), never loose in $TMPDIR: one a SIGKILL
// left is swept by the next ptxcts, as a run's scratch folder is.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

TEST(ProbeFiles, OnesASigkillLeftAreSweptByTheNextStart) {
  // Before: `ptxcts-version-probe-PID-0.ptx` stayed in $TMPDIR for good (as did ptxcts-identity-*.ptx
  // and ptxcts-raw-*.bin): no sweep looks at loose files.
  TempDir t{"probe-files"};
  const fs::path tmp = t.dir / "tmp", ptxas = t.dir / "ptxas", said = t.dir / "probe-path";
  fs::create_directories(tmp);
  // A ptxas without --list-version (as before 13.0): its PTX ISA is read from its refusal of a
  // .version 99.9 module, which this one never gives: it hangs on it, as the run is killed.
  write_script(ptxas,
               "case \"$1\" in\n"
               "  --version) echo 'Cuda compilation tools, release 12.0, V12.0.76'; exit 0;;\n"
               "  --help) echo \"--gpu-name  Allowed values for this option: 'compute_90','sm_90'. Default value: 'sm_75'.\"; exit 0;;\n"
               "esac\n"
               "echo \"$4\" > '" + said.string() + ".part' && mv '" + said.string() + ".part' '" + said.string() +
                   "'\nexec sleep 60\n");
  const pid_t ptxcts = ::fork();
  ASSERT_GE(ptxcts, 0);
  if (ptxcts == 0) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execl(PTXCTS_COMMAND, PTXCTS_COMMAND, "catalog", "--ptxas", ptxas.c_str(), "--out", (t.dir / "catalog").c_str(),
            "--targets", "sm_90", static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  for (int i = 0; i < 600 && !fs::exists(said); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(ptxcts, SIGKILL);
  ::waitpid(ptxcts, nullptr, 0);
  ASSERT_TRUE(fs::exists(said)) << "ptxas was never given its version probe: nothing is tested";
  std::ifstream in(said);
  std::string probe;
  std::getline(in, probe);
  EXPECT_EQ(fs::path(probe).parent_path().parent_path(), tmp) << probe << ": not in a scratch folder of its own";
  // The next run (any: this one stops at its command line) sweeps what the killed one left.
  ProcessResult next = run_process(
      {"env", "TMPDIR=" + tmp.string(), PTXCTS_COMMAND, "run", "--family", "nosuch", "--runner", PTXCTS_FAKE_RUNNER},
      60);
  EXPECT_EQ(next.exit_code, 2) << next.output;
  std::string left;
  for (auto const& e : fs::directory_iterator(tmp)) left += e.path().filename().string() + " ";
  EXPECT_EQ(left, "") << next.output;
}

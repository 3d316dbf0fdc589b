// A `ptxcts run` on the build's catalog whose GPU's device runner hangs at its first launch, with a
// $TMPDIR of its own and its stdout (and stderr) redirected to a file: what the signal tests end
// (cli/test_interrupted_runs.cpp, util/test_children.cpp). The build's catalog is used as it is:
// assembling one of their own would cost each test a catalog and a toolkit audit (3-17 s).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace ptxcts::test {

struct HangingRun {
  TempDir t{"interrupted"};
  std::filesystem::path tmp = t.dir / "tmp", pids = t.dir / "runner.pids", out = t.dir / "out.txt";
  std::filesystem::path runner = t.dir / "runner";
  pid_t ptxcts = 0;

  // Whether the build's catalog holds sm_90, the hanging GPU's target (CI's does; one built for
  // 'native' on a machine without a GPU holds none, and then nothing would launch).
  static bool have_catalog() {
    std::ifstream in(std::filesystem::path(PTXCTS_CATALOG_DIR) / "manifest.json");
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    const std::size_t targets = text.find("\"targets\"");
    return targets != std::string::npos && text.find("\"sm_90\"", targets) < text.find(']', targets);
  }

  HangingRun() {
    std::filesystem::create_directories(tmp);
    write_script(runner,
                 "if [ \"$1\" = --info ]; then\n"
                 "  echo '[{\"ordinal\": 0, \"name\": \"Hanging GPU\", \"major\": 9, \"minor\": 0, "
                 "\"driver_cuda\": \"13.0\", \"driver_version\": \"0.0\"}]'; exit 0\n"
                 "fi\n"
                 "echo $$ >> '" + pids.string() + "'\nexec sleep 120\n");
  }
  ~HangingRun() {
    if (ptxcts > 0 && ::kill(ptxcts, SIGKILL) == 0) ::waitpid(ptxcts, nullptr, 0);
    for (int pid : runner_pids()) ::kill(pid, SIGKILL);  // a runner the test's SIGKILL left behind
  }
  HangingRun(const HangingRun&) = delete;
  HangingRun& operator=(const HangingRun&) = delete;

  void start() {
    ptxcts = ::fork();
    if (ptxcts == 0) {
      ::setenv("TMPDIR", tmp.c_str(), 1);
      std::freopen(out.c_str(), "w", stdout);
      std::freopen(out.c_str(), "a", stderr);
      ::execl(PTXCTS_COMMAND, PTXCTS_COMMAND, "run", "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR, "--family",
              "ldmatrix", "--runner", runner.c_str(), "--reports", t.dir.c_str(), static_cast<char*>(nullptr));
      std::_Exit(127);
    }
  }
  // Waits (up to 30 s) until the run is at its first launch, its job files written: the runners
  // started and its GPU's line printed. False if that never came, or the run ended first.
  bool wait_until_launched() {
    for (int i = 0; i < 600; ++i) {
      if (std::filesystem::exists(pids) && said().find("[GPU 0] Hanging GPU") != std::string::npos) return true;
      if (::waitpid(ptxcts, nullptr, WNOHANG) == ptxcts) {  // it ended (a stale catalog, say): no launch to wait for
        ptxcts = 0;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  // Sends `sig` and waits for the run to end: its wait status.
  int end_by(int sig) {
    if (ptxcts <= 0) return 0;  // already ended (kill(0) would signal the tests' own group)
    ::kill(ptxcts, sig);
    int status = 0;
    ::waitpid(ptxcts, &status, 0);
    ptxcts = 0;
    return status;
  }
  std::string said() const {
    std::ifstream in(out);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::vector<int> runner_pids() const {
    std::ifstream in(pids);
    std::vector<int> all;
    for (int pid; in >> pid;) all.push_back(pid);
    return all;
  }
  std::string left_in_tmp() const {
    std::string left;
    for (auto const& e : std::filesystem::directory_iterator(tmp)) left += e.path().filename().string() + " ";
    return left;
  }
};

}  // namespace ptxcts::test

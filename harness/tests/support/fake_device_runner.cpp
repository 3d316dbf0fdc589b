// A stand-in for ptxcts-device, for testing `ptxcts run` without a GPU: the same command line, job
// and results files, exit codes and progress lines.
//
// PTXCTS_FAKE_MODE = DEVICE[,abort:K][,fault:K][,hang:K][,killparent:K]
//   DEVICE: echo (executes nothing: every launch's input state comes back, the default), zero,
//           model (a correct device in software: device_emulator), or a wrong device that the
//           suite's checks must catch: shuffled, off-by-one, stale (see device_emulator.hpp).
//   K is a launch's job id (the plan's launch number, in whichever job file it is).
//   abort:K dies with SIGABRT in launch K; fault:K records launch K as a device fault and exits 3,
//   as the real runner does; hang:K never finishes launch K; killparent:K kills `ptxcts run` (its
//   parent) with SIGKILL in launch K, as a power cut would.
// An emulated launch that would fault (an address outside the tiles) is recorded as a fault.
// PTXCTS_FAKE_SPECS: the specs the emulator plans kernels from (default: the source tree's).
// PTXCTS_FAKE_DEVICES: `--info`'s answer (default: one sm_90 GPU). PTXCTS_FAKE_STARTS: a file
// each start appends its first launch to.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "kinds/kinds.hpp"
#include "run/device_protocol.hpp"
#include "spec/spec_loader.hpp"
#include "support/device_emulator.hpp"

using namespace ptxcts;

namespace {

long modifier(const std::string& mode, const char* name) {
  auto p = mode.find(name);
  return p == std::string::npos ? -1 : std::atol(mode.c_str() + p + std::strlen(name));
}

// The suite the jobs' labels ("kernel/case") name, planned from the specs once per start.
const Suite& suite() {
  static const Suite s = [] {
    const char* dir = std::getenv("PTXCTS_FAKE_SPECS");
    return build_suite(load_spec_dir(dir ? dir : PTXCTS_SOURCE_DIR "/specs"));
  }();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && !std::strcmp(argv[1], "--info")) {
    const char* devices = std::getenv("PTXCTS_FAKE_DEVICES");
    std::printf(
        "%s\n",
        devices
            ? devices
            : R"([{"ordinal": 0, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"}])");
    return 0;
  }
  const char *jobs_file = nullptr, *results_file = nullptr;
  unsigned start = 0;
  for (int k = 1; k + 1 < argc; k += 2) {
    if (!std::strcmp(argv[k], "--jobs")) jobs_file = argv[k + 1];
    if (!std::strcmp(argv[k], "--results")) results_file = argv[k + 1];
    if (!std::strcmp(argv[k], "--start")) start = static_cast<unsigned>(std::atoi(argv[k + 1]));
  }
  if (!jobs_file || !results_file) return kDeviceUsage;
  const std::string mode = std::getenv("PTXCTS_FAKE_MODE") ? std::getenv("PTXCTS_FAKE_MODE") : "echo";
  const long abort_at = modifier(mode, "abort:"), fault_at = modifier(mode, "fault:"),
             hang_at = modifier(mode, "hang:"), kill_at = modifier(mode, "killparent:");
  test::Mutant device;
  try {
    device = test::mutant_from_string(mode.substr(0, mode.find(',')));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake_device_runner: %s\n", e.what());
    return kDeviceUsage;
  }
  std::ifstream in(jobs_file, std::ios::binary);
  auto jobs = read_jobs(in);
  // Launches are named by their job id (the plan's launch number), whichever job file holds them:
  // `ptxcts run` gives the fault cases to runners of their own.
  if (const char* starts = std::getenv("PTXCTS_FAKE_STARTS"))
    std::ofstream(starts, std::ios::app) << (start < jobs.size() ? jobs[start].id : start) << "\n";
  std::ofstream out(results_file, std::ios::binary | std::ios::app);
  test::DeviceEmulator emulator;
  for (std::size_t k = start; k < jobs.size(); ++k) {
    const long at = jobs[k].id;
    if (at == abort_at) std::abort();
    if (at == hang_at) std::this_thread::sleep_for(std::chrono::hours(1));
    if (at == kill_at) {
      kill(getppid(), SIGKILL);
      return 0;
    }
    DeviceResult r;
    r.id = jobs[k].id;
    if (at == fault_at) {
      r.error = "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address";
      write_result(out, r);
      return kDeviceFaulted;
    }
    if (device == test::Mutant::Echo) {
      r.state = jobs[k].input.state;
    } else {
      const std::string& label = jobs[k].label;
      const KernelPlan* plan = suite().find_kernel(label.substr(0, label.rfind('/')));
      if (!plan) {
        std::fprintf(stderr, "fake_device_runner: job %u names no kernel of the specs: '%s'\n", r.id, label.c_str());
        return kDeviceUnusable;
      }
      try {
        r.state = emulator.run(*plan, jobs[k].input, device);
      } catch (const std::exception& e) {
        r.error = std::string("kernel: CUDA_ERROR_ILLEGAL_ADDRESS (emulated): ") + e.what();
        write_result(out, r);
        return kDeviceFaulted;
      }
    }
    r.ok = true;
    write_result(out, r);
    std::printf("done %u ok\n", r.id);  // as the real runner does: the watchdog hears progress
    std::fflush(stdout);
  }
  return 0;
}

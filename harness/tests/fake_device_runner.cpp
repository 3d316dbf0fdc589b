// A stand-in for ptxcts-device, for testing `ptxcts run`'s orchestration without a GPU.
// PTXCTS_FAKE_MODE: "echo" returns every launch's input state unchanged; "echo,abort:K" dies with
// SIGABRT in launch K; "echo,fault:K" records launch K as a device fault and exits 3, as the real
// runner does; "echo,hang:K" never finishes launch K. Each start is counted in the file named by PTXCTS_FAKE_STARTS, if set.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cstring>
#include <fstream>
#include <string>

#include "device_protocol.hpp"

int main(int argc, char** argv) {
  const char *jobs_file = nullptr, *results_file = nullptr;
  unsigned start = 0;
  for (int k = 1; k + 1 < argc; k += 2) {
    if (!std::strcmp(argv[k], "--jobs")) jobs_file = argv[k + 1];
    if (!std::strcmp(argv[k], "--results")) results_file = argv[k + 1];
    if (!std::strcmp(argv[k], "--start")) start = static_cast<unsigned>(std::atoi(argv[k + 1]));
  }
  if (!jobs_file || !results_file) return 2;
  if (const char* starts = std::getenv("PTXCTS_FAKE_STARTS")) std::ofstream(starts, std::ios::app) << start << "\n";
  std::string mode = std::getenv("PTXCTS_FAKE_MODE") ? std::getenv("PTXCTS_FAKE_MODE") : "echo";
  long abort_at = -1, fault_at = -1, hang_at = -1;
  if (auto p = mode.find("hang:"); p != std::string::npos) hang_at = std::atol(mode.c_str() + p + 5);
  if (auto p = mode.find("abort:"); p != std::string::npos) abort_at = std::atol(mode.c_str() + p + 6);
  if (auto p = mode.find("fault:"); p != std::string::npos) fault_at = std::atol(mode.c_str() + p + 6);
  std::ifstream in(jobs_file, std::ios::binary);
  auto jobs = ptxcts::read_jobs(in);
  std::ofstream out(results_file, std::ios::binary | std::ios::app);
  for (std::size_t k = start; k < jobs.size(); ++k) {
    if (static_cast<long>(k) == abort_at) std::abort();
    if (static_cast<long>(k) == hang_at) std::this_thread::sleep_for(std::chrono::hours(1));
    ptxcts::DeviceResult r;
    r.id = jobs[k].id;
    if (static_cast<long>(k) == fault_at) {
      r.error = "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address";
      ptxcts::write_result(out, r);
      return 3;
    }
    r.ok = true;
    r.state = jobs[k].input.state;
    ptxcts::write_result(out, r);
    std::printf("done %u ok\n", r.id);  // as the real runner does: the watchdog hears progress
    std::fflush(stdout);
  }
  return 0;
}

// ptxcts-device: the only program of the suite that talks to a GPU (CUDA driver API).
//   ptxcts-device --info                      prints the GPUs as JSON
//   ptxcts-device --device N --jobs F --results R [--start K]
//                                             runs jobs K.. of F on GPU N, appending each result
//                                             to R as soon as it has it.
// A device fault leaves the CUDA context unusable: the runner records the failing launch and exits
// with status 3, and `ptxcts run` starts a fresh runner from the next job. The whole contract
// (files, progress lines, exit codes) is written in device_protocol.hpp.
#include <cuda.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run/device_protocol.hpp"

namespace {

constexpr int kExitUsage = ptxcts::kDeviceUsage, kExitFault = ptxcts::kDeviceFaulted,
              kExitNoDevice = ptxcts::kDeviceUnusable;

std::string error_text(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + ": " + (text ? text : "unknown error");
}

struct CudaFailure {
  std::string what;
};

void check(CUresult r, const char* where) {
  if (r != CUDA_SUCCESS) throw CudaFailure{std::string(where) + ": " + error_text(r)};
}

// The kernel driver's version (e.g. 580.159.04), which the CUDA API does not report: the first
// dotted number on the first line of /proc/driver/nvidia/version.
std::string kernel_driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string word;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    while (words >> word) {
      bool dotted = word.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(word[0]));
      for (char c : word) dotted = dotted && (std::isdigit(static_cast<unsigned char>(c)) || c == '.');
      if (dotted) return word;
    }
    break;
  }
  return "unknown";
}

int info() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuInit: %s\n", error_text(r).c_str());
    return kExitNoDevice;
  }
  int count = 0, driver = 0;
  cuDeviceGetCount(&count);
  cuDriverGetVersion(&driver);
  for (int d = 0; d < count; ++d) {
    CUdevice dev;
    char name[256] = {};
    int major = 0, minor = 0;
    cuDeviceGet(&dev, d);
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    out.push_back({{"ordinal", d},
                   {"name", name},
                   {"major", major},
                   {"minor", minor},
                   {"driver_cuda", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10)},
                   {"driver_version", kernel_driver_version()}});
  }
  std::printf("%s\n", out.dump().c_str());
  return count > 0 ? 0 : kExitNoDevice;
}

// Device buffers kept from launch to launch, grown when a case needs more: a launch costs its
// copies, its launch and one synchronize, not five allocations and five frees.
struct Buffer {
  CUdeviceptr ptr = 0;
  std::size_t size = 0;
  CUdeviceptr at_least(std::size_t bytes) {
    bytes = bytes ? bytes : 4;
    if (bytes > size) {
      if (ptr) cuMemFree(ptr);
      ptr = 0;
      size = 0;
      check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
      size = bytes;
    }
    return ptr;
  }
};

struct Buffers {
  Buffer smem_in, offsets, regs_in, regs_out, smem_out;
};

ptxcts::LaunchState launch(CUfunction fn, const ptxcts::LaunchInput& in, Buffers& b) {
  const auto& s = in.shape;
  CUdeviceptr smem_in = b.smem_in.at_least(in.state.smem.size());
  CUdeviceptr smem_out = b.smem_out.at_least(in.state.smem.size());
  CUdeviceptr offsets = b.offsets.at_least(in.offsets.size() * 4);
  CUdeviceptr regs_in = b.regs_in.at_least(in.state.regs.size() * 4);
  CUdeviceptr regs_out = b.regs_out.at_least(in.state.regs.size() * 4);
  check(cuMemcpyHtoD(smem_in, in.state.smem.data(), in.state.smem.size()), "cuMemcpyHtoD");
  check(cuMemcpyHtoD(offsets, in.offsets.data(), in.offsets.size() * 4), "cuMemcpyHtoD");
  check(cuMemcpyHtoD(regs_in, in.state.regs.data(), in.state.regs.size() * 4), "cuMemcpyHtoD");
  // Poison the outputs so that anything the kernel fails to write shows as a difference.
  check(cuMemsetD8(smem_out, 0xEE, in.state.smem.size()), "cuMemsetD8");
  check(cuMemsetD8(regs_out, 0xEE, in.state.regs.size() * 4), "cuMemsetD8");
  unsigned tile = static_cast<unsigned>(s.tile_bytes);
  void* params[] = {&smem_in, &offsets, &regs_in, &regs_out, &smem_out, &tile};
  unsigned shared = static_cast<unsigned>(s.warps * s.tile_bytes);
  check(cuLaunchKernel(fn, 1, 1, 1, static_cast<unsigned>(s.threads()), 1, 1, shared, nullptr, params, nullptr),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), "kernel");
  ptxcts::LaunchState out;
  out.smem.resize(in.state.smem.size());
  out.regs.resize(in.state.regs.size());
  check(cuMemcpyDtoH(out.smem.data(), smem_out, out.smem.size()), "cuMemcpyDtoH");
  check(cuMemcpyDtoH(out.regs.data(), regs_out, out.regs.size() * 4), "cuMemcpyDtoH");
  return out;
}

int run(int device, const char* jobs_file, const char* results_file, unsigned start) {
  std::ifstream jin(jobs_file, std::ios::binary);
  std::vector<ptxcts::DeviceJob> jobs;
  try {
    jobs = ptxcts::read_jobs(jin);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", jobs_file, e.what());
    return kExitUsage;
  }
  std::ofstream out(results_file, std::ios::binary | std::ios::app);
  CUcontext ctx = nullptr;
  try {
    check(cuInit(0), "cuInit");
    CUdevice dev;
    check(cuDeviceGet(&dev, device), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  } catch (const CudaFailure& f) {
    std::fprintf(stderr, "%s\n", f.what.c_str());
    return kExitNoDevice;
  }
  std::map<std::string, CUmodule> modules;
  Buffers buffers;
  for (std::size_t k = start; k < jobs.size(); ++k) {
    const auto& job = jobs[k];
    ptxcts::DeviceResult result;
    result.id = job.id;
    try {
      CUmodule& mod = modules[job.cubin];
      if (!mod) check(cuModuleLoad(&mod, job.cubin.c_str()), "cuModuleLoad");
      CUfunction fn;
      check(cuModuleGetFunction(&fn, mod, job.kernel_name.c_str()), "cuModuleGetFunction");
      result.state = launch(fn, job.input, buffers);
      result.ok = true;
    } catch (const CudaFailure& f) { result.error = f.what; }
    ptxcts::write_result(out, result);
    std::printf("done %u %s\n", result.id, result.ok ? "ok" : "fault");  // progress, after the record is on disk
    std::fflush(stdout);
    if (!result.ok) {
      // A sticky error poisons the context; anything else (a module that fails to load) does not.
      if (cuCtxSynchronize() != CUDA_SUCCESS) return kExitFault;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--info") == 0) return info();
  int device = -1;
  const char *jobs = nullptr, *results = nullptr;
  unsigned start = 0;
  for (int k = 1; k + 1 < argc; k += 2) {
    if (std::strcmp(argv[k], "--device") == 0) device = std::atoi(argv[k + 1]);
    else if (std::strcmp(argv[k], "--jobs") == 0) jobs = argv[k + 1];
    else if (std::strcmp(argv[k], "--results") == 0) results = argv[k + 1];
    else if (std::strcmp(argv[k], "--start") == 0) start = static_cast<unsigned>(std::atoi(argv[k + 1]));
    else {
      std::fprintf(stderr, "ptxcts-device: unknown option '%s'\n", argv[k]);
      return kExitUsage;
    }
  }
  if (device < 0 || !jobs || !results || argc % 2 == 0) {
    std::fprintf(stderr, "usage: ptxcts-device --info | --device N --jobs FILE --results FILE [--start K]\n");
    return kExitUsage;
  }
  return run(device, jobs, results, start);
}

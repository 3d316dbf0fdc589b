// ptxcts-device: the only program of the suite that talks to a GPU (CUDA driver API).
//   ptxcts-device --info                      prints the GPUs as JSON
//   ptxcts-device --device N --jobs F --results R [--start K] [--count M] [--batch B] [--standby GO]
//                 [--toolchain cubin|jit] [--only-gpu UUID]
//                                             runs jobs K.. of F on GPU N, B launches to a batch
//                                             (one copy in, one copy out, one synchronize),
//                                             appending each result to R as soon as it has it
//                                             (every byte checked: a results file that cannot be
//                                             written is "results-unwritable ..." and exit 6).
// Every module is loaded the same way, from its bytes with cuModuleLoadDataEx and a log buffer: a
// cubin (the default), or with --toolchain jit the kernel's PTX, which the driver's compiler builds.
// A module the driver's JIT refuses (a PTX ISA version or target it does not know) gives each of its
// jobs a record saying so (a skip for `ptxcts run`); any other load failure, one with the JIT log.
// A device fault leaves the CUDA context (and, on this driver, the process) unusable: the runner
// records the failing launch and exits with status 3, and `ptxcts run` starts a fresh runner from
// the next job; a batch of several launches that faults records nothing and exits 5, and its jobs
// are run again one at a time. The whole contract
// (files, progress lines, exit codes) is written in device_protocol.hpp.
#include <cuda.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpu_uuid.hpp"
#include "run/device_protocol.hpp"
#include "util/parent_watch.hpp"

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
  ptxcts::ModuleLoad load = ptxcts::ModuleLoad::Loaded;  // a module that did not load: refused or failed
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
    char name[256] = {}, pci[32] = {};
    int major = 0, minor = 0;
    cuDeviceGet(&dev, d);
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceGetPCIBusId(pci, sizeof pci, dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    out.push_back({{"ordinal", d},
                   {"name", name},
                   {"major", major},
                   {"minor", minor},
                   {"driver_cuda", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10)},
                   {"driver_version", kernel_driver_version()},
                   {"uuid", gpu_uuid_text(dev)},
                   {"pci_bus_id", pci}});
  }
  std::printf("%s\n", out.dump().c_str());
  return count > 0 ? 0 : kExitNoDevice;
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Memory kept from batch to batch, grown when a batch needs more: a batch costs one copy in, its
// launches, one copy out and one synchronize, not allocations. The host side is pinned, so the
// copies are asynchronous DMA.
struct Arena {
  CUdeviceptr dev = 0;
  void* host = nullptr;
  std::size_t size = 0;
  void at_least(std::size_t bytes) {
    if (bytes <= size) return;
    bytes = std::max(bytes, size * 2);
    if (dev) cuMemFree(dev);
    if (host) cuMemFreeHost(host);
    dev = 0;
    host = nullptr;
    size = 0;
    check(cuMemAlloc(&dev, bytes), "cuMemAlloc");
    check(cuMemAllocHost(&host, bytes), "cuMemAllocHost");
    size = bytes;
  }
};

// Where one job's buffers lie in the arena: inputs first (the tile, offsets, registers), then the
// outputs (registers, tile), each 256-byte aligned.
struct Placement {
  std::size_t smem_in, offsets, regs_in, regs_out, smem_out;
};
std::size_t aligned(std::size_t n) { return (n + 255) & ~std::size_t{255}; }

// The driver's JIT writes its messages here (cuModuleLoadDataEx's log options); a cubin's load
// writes little or nothing.
constexpr std::size_t kLogBytes = 16384;

// Loads one module from its file's bytes (a cubin image or PTX text; the driver tells them apart),
// with the driver's info and error logs. Throws CudaFailure with how it failed.
CUmodule load_module(const std::string& path, ptxcts::RunToolchain toolchain) {
  const bool jit = toolchain == ptxcts::RunToolchain::Jit;
  const char* how = jit ? "cuModuleLoadDataEx (driver JIT of the PTX)" : "cuModuleLoadDataEx (cubin)";
  std::ifstream in(path, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof())
    throw CudaFailure{std::string(how) + ": cannot read " + path, ptxcts::ModuleLoad::Failed};
  if (image.empty())
    throw CudaFailure{std::string(how) + ": " + path + " is missing or empty", ptxcts::ModuleLoad::Failed};
  // PTX is read as a C string: image.c_str() ends it.
  std::string info(kLogBytes, '\0'), errors(kLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info.data(), reinterpret_cast<void*>(kLogBytes), errors.data(), reinterpret_cast<void*>(kLogBytes)};
  CUmodule mod = nullptr;
  const CUresult r = cuModuleLoadDataEx(&mod, image.c_str(), 4, options, values);
  if (r == CUDA_SUCCESS) return mod;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  const std::string error_name = name ? name : "CUDA_ERROR_UNKNOWN";
  errors.resize(std::strlen(errors.c_str()));
  info.resize(std::strlen(info.c_str()));
  const std::string log = errors.empty() ? info : errors;
  if (jit && ptxcts::jit_refusal(error_name, log))
    throw CudaFailure{"the driver's JIT does not take this PTX: " + error_text(r) +
                          (log.empty() ? "" : "; JIT log: " + ptxcts::first_line(log)),
                      ptxcts::ModuleLoad::Refused};
  throw CudaFailure{std::string(how) + ": " + error_text(r) + (log.empty() ? "" : "; JIT log:\n" + log),
                    ptxcts::ModuleLoad::Failed};
}

struct Runner {
  ptxcts::RunToolchain toolchain = ptxcts::RunToolchain::Cubin;
  std::map<std::string, CUmodule> modules;
  std::map<std::string, CudaFailure> unloadable;  // a module that did not load is not tried again
  std::map<std::pair<std::string, std::string>, CUfunction> functions;
  Arena arena;
  CUstream stream = nullptr;
  ptxcts::RunnerTiming timing;
  Clock::time_point last_word = Clock::now();  // when the runner last said something while loading

  CUfunction function(const ptxcts::DeviceJob& job) {
    auto key = std::make_pair(job.module, job.kernel_name);
    if (auto f = functions.find(key); f != functions.end()) return f->second;
    if (auto u = unloadable.find(job.module); u != unloadable.end()) throw u->second;
    const auto t0 = Clock::now();
    CUmodule& mod = modules[job.module];
    if (!mod) try {
        // The driver's JIT can take a while over a batch's modules: a line every few seconds tells
        // `ptxcts run`'s watchdog the runner is alive (it ignores the line itself).
        if (std::chrono::duration<double>(t0 - last_word).count() > 2) {
          std::printf("loading\n");
          std::fflush(stdout);
          last_word = t0;
        }
        mod = load_module(job.module, toolchain);
      } catch (const CudaFailure& f) {
        timing.modules_ms += ms_since(t0);
        modules.erase(job.module);
        unloadable.emplace(job.module, f);
        throw;
      }
    CUfunction fn;
    check(cuModuleGetFunction(&fn, mod, job.kernel_name.c_str()), "cuModuleGetFunction");
    timing.modules_ms += ms_since(t0);
    return functions[key] = fn;
  }

  // Runs jobs [first, end) as one batch. Returns false if the batch faulted (nothing recorded).
  // Each record is on disk before its "done" line; one that cannot be written throws ResultsUnwritable.
  bool batch(const std::vector<ptxcts::DeviceJob>& jobs, std::size_t first, std::size_t end,
             ptxcts::ResultsWriter& out) {
    std::vector<CUfunction> fns(end - first, nullptr);
    std::vector<CudaFailure> load_errors(end - first);
    for (std::size_t k = first; k < end; ++k) try {
        fns[k - first] = function(jobs[k]);
      } catch (const CudaFailure& f) {
        load_errors[k - first] = f;
        if (f.load == ptxcts::ModuleLoad::Loaded) load_errors[k - first].load = ptxcts::ModuleLoad::Failed;
      }
    std::vector<Placement> at(end - first);
    std::size_t in_bytes = 0;
    for (std::size_t k = first; k < end; ++k) {
      const auto& in = jobs[k].input;
      Placement& p = at[k - first];
      p.smem_in = in_bytes;
      in_bytes += aligned(in.state.smem.size());
      p.offsets = in_bytes;
      in_bytes += aligned(in.offsets.size() * 4);
      p.regs_in = in_bytes;
      in_bytes += aligned(in.state.regs.size() * 4);
    }
    std::size_t total = in_bytes;
    for (std::size_t k = first; k < end; ++k) {
      const auto& in = jobs[k].input;
      Placement& p = at[k - first];
      p.regs_out = total;
      total += aligned(in.state.regs.size() * 4);
      p.smem_out = total;
      total += aligned(in.state.smem.size());
    }
    arena.at_least(std::max<std::size_t>(total, 256));
    auto* host = static_cast<std::uint8_t*>(arena.host);
    for (std::size_t k = first; k < end; ++k) {
      const auto& in = jobs[k].input;
      const Placement& p = at[k - first];
      std::memcpy(host + p.smem_in, in.state.smem.data(), in.state.smem.size());
      std::memcpy(host + p.offsets, in.offsets.data(), in.offsets.size() * 4);
      std::memcpy(host + p.regs_in, in.state.regs.data(), in.state.regs.size() * 4);
    }
    std::printf("batch %zu %zu\n", first, end - first);
    std::fflush(stdout);
    const auto t0 = Clock::now();
    CUresult r = cuMemcpyHtoDAsync(arena.dev, host, in_bytes, stream);
    // Poison the outputs so that anything the kernel fails to write shows as a difference.
    if (r == CUDA_SUCCESS) r = cuMemsetD8Async(arena.dev + in_bytes, 0xEE, total - in_bytes, stream);
    for (std::size_t k = first; k < end && r == CUDA_SUCCESS; ++k) {
      if (!fns[k - first]) continue;
      const auto& s = jobs[k].input.shape;
      const Placement& p = at[k - first];
      CUdeviceptr smem_in = arena.dev + p.smem_in, offsets = arena.dev + p.offsets, regs_in = arena.dev + p.regs_in,
                  regs_out = arena.dev + p.regs_out, smem_out = arena.dev + p.smem_out;
      unsigned tile = static_cast<unsigned>(s.tile_bytes);
      void* params[] = {&smem_in, &offsets, &regs_in, &regs_out, &smem_out, &tile};
      unsigned shared = static_cast<unsigned>(s.warps * s.tile_bytes);
      r = cuLaunchKernel(fns[k - first], 1, 1, 1, static_cast<unsigned>(s.threads()), 1, 1, shared, stream, params,
                         nullptr);
      ++timing.launches;
    }
    if (r == CUDA_SUCCESS) r = cuMemcpyDtoHAsync(host + in_bytes, arena.dev + in_bytes, total - in_bytes, stream);
    if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
    timing.gpu_ms += ms_since(t0);
    ++timing.batches;
    if (r != CUDA_SUCCESS) {
      if (end - first > 1) return false;  // which launch faulted is unknown: run them again one by one
      ptxcts::DeviceResult fault{.id = jobs[first].id, .ok = false, .error = "kernel: " + error_text(r), .state = {}};
      out.write(fault);
      std::printf("done %u fault\n", fault.id);
      std::fflush(stdout);
      return false;
    }
    for (std::size_t k = first; k < end; ++k) {
      const auto& in = jobs[k].input;
      const Placement& p = at[k - first];
      ptxcts::DeviceResult result;
      result.id = jobs[k].id;
      if (fns[k - first]) {
        result.ok = true;
        result.state.smem.assign(host + p.smem_out, host + p.smem_out + in.state.smem.size());
        result.state.regs.resize(in.state.regs.size());
        std::memcpy(result.state.regs.data(), host + p.regs_out, in.state.regs.size() * 4);
      } else {
        result.error = load_errors[k - first].what;
        result.load = load_errors[k - first].load;
      }
      out.write(result);
      std::printf("done %u %s\n", result.id, result.ok ? "ok" : "fault");  // after the record is on disk
    }
    std::fflush(stdout);
    return true;
  }
};

int run(const ptxcts::RunnerArgs& args) {
  Runner runner;
  runner.toolchain = args.toolchain;
  const auto t_init = Clock::now();
  CUcontext ctx = nullptr;
  // Its own GPU alone: cuInit and the process's end then touch no other GPU of the host (a fault's
  // recovery on one GPU need not wait on another's runners starting or ending).
  if (!args.only_gpu.empty()) setenv("CUDA_VISIBLE_DEVICES", args.only_gpu.c_str(), 1);
  try {
    check(cuInit(0), "cuInit");
    CUdevice dev;
    check(cuDeviceGet(&dev, args.only_gpu.empty() ? args.device : 0), "cuDeviceGet");  // the one it sees
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    check(cuStreamCreate(&runner.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    runner.arena.at_least(std::size_t{1} << 20);
  } catch (const CudaFailure& f) {
    std::fprintf(stderr, "%s\n", f.what.c_str());
    return kExitNoDevice;
  }
  runner.timing.init_ms = ms_since(t_init);
  // The order first, then the jobs: a standby runner is started before its job file is written.
  const auto order = ptxcts::order_to_run(args);
  if (!order) return 0;  // a standby runner told to quit
  std::ifstream jin(args.jobs, std::ios::binary);
  std::vector<ptxcts::DeviceJob> jobs;
  try {
    jobs = ptxcts::read_jobs(jin);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", args.jobs.c_str(), e.what());
    return kExitUsage;
  }
  const auto range = ptxcts::jobs_in(*order, jobs.size());
  const std::size_t start = range.first, end = range.end;
  auto say_timing = [&] {
    std::printf("%s\n", ptxcts::timing_line(runner.timing).c_str());
    std::fflush(stdout);
  };
  // Every record's bytes checked: a full disk is said ("results-unwritable ...", exit 6), never a record missing.
  try {
    ptxcts::ResultsWriter out(args.results);
    for (std::size_t k = start; k < end;) {
      const std::size_t e = ptxcts::batch_end(jobs, k, end, args.batch);
      bool ok = false;
      try {
        ok = runner.batch(jobs, k, e, out);
      } catch (const CudaFailure& f) { std::fprintf(stderr, "%s\n", f.what.c_str()); }
      if (!ok) {
        say_timing();
        // A sticky error poisons the context (and the process: every context of it, on this driver).
        return e - k > 1 ? ptxcts::kDeviceBatchFaulted : kExitFault;
      }
      k = e;
    }
    out.close();
  } catch (const ptxcts::ResultsUnwritable& e) { return ptxcts::results_unwritable(e); }
  say_timing();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--info") == 0) return info();
  std::string error;
  auto args = ptxcts::parse_runner_args(argc, argv, error);
  if (!args) {
    std::fprintf(stderr,
                 "ptxcts-device: %s\nusage: ptxcts-device --info | --device N --jobs FILE --results FILE [--start K] "
                 "[--count M] [--batch B] [--standby GO] [--toolchain cubin|jit] [--only-gpu UUID]\n",
                 error.c_str());
    return kExitUsage;
  }
  // Its parent gone (ptxcts killed where no parent-death signal reaches this process), nobody reads
  // its results: it ends, as after a device fault, rather than wait or launch on.
  ptxcts::exit_when_parent_goes(ptxcts::kDeviceUnusable);
  return run(*args);
}

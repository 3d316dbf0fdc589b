// A stand-in for ptxcts-device, for testing `ptxcts run` without a GPU: the same command line, job
// and results files, exit codes and progress lines.
//
// Batches, --count and --standby as device_protocol.hpp says.
// PTXCTS_FAKE_MODE = DEVICE[,abort:K][,fault:K][,hang:K][,killparent:K][,progress:K][,chatty:K][,hugeline:K]
//   DEVICE: echo (executes nothing: every launch's input state comes back, the default), zero,
//           model (a correct device in software: device_emulator), or a wrong device that the
//           suite's checks must catch: shuffled, off-by-one, stale (see device_emulator.hpp); or
//           mma-permute-m, -n, -k (mma's layouts read with m, n or k relabelled consistently: the same
//           function as the manual's, which no case can tell apart) and mma-permute-a-m, -d-m (A's or
//           D's rows alone: inconsistent, which the cases must catch).
//   K is a launch's job id (the plan's launch number, in whichever job file it is).
//   unusable:N: the runner for GPU N cannot make a context (exit 4); the other GPUs' work as asked.
//   abort:K dies with SIGABRT in launch K; fault:K records launch K as a device fault and exits 3,
//   as the real runner does; hang:K never finishes launch K; killparent:K kills `ptxcts run` (its
//   parent) with SIGKILL in launch K, as a power cut would; progress:K, loading a batch that holds
//   launch K or a later one, prints "loading" every 50 ms and never gets further (a wedged runner
//   that looks alive); chatty:K prints "loading" every 50 ms in launch K and never finishes it;
//   hugeline:K prints 'x' without end and without a newline in launch K.
// An emulated launch that would fault (an address outside the tiles) is recorded as a fault.
// --toolchain jit: as the driver's JIT, each job's module is read as PTX text; a module that cannot
// be read, has no `.version X.Y`, or does not define the job's `.entry` fails to load (an error
// record with a log, as the real runner's), and with PTXCTS_FAKE_JIT_PTX=X.Y (the newest PTX ISA
// version the emulated driver knows) a module of a newer `.version` is refused with
// CUDA_ERROR_UNSUPPORTED_PTX_VERSION and the real JIT's log line (a skip for `ptxcts run`).
// PTXCTS_FAKE_HANG_CASES=CASE[,CASE...]: a launch of a case of one of these names (its label's part
// after the '/', on every kernel) never finishes, as hang:K (the mma cases that hung on an H200).
// PTXCTS_FAKE_SLOW_CASES=CASE[,CASE...]: a launch of such a case takes PTXCTS_FAKE_SLOW_SECONDS
// (default 1) after its "batch" line, then finishes as the mode says (a slow launch, not a hang).
// PTXCTS_FAKE_CHAOS=SEED:RATE[:KINDS]: seeded crashes, hangs and garbage at cases chosen by a hash
// of the seed and the case (support/fake_chaos.hpp; the chaos soak's faults).
// PTXCTS_FAKE_RESULTS_LIMIT=N: no file the runner writes may grow past N bytes (RLIMIT_FSIZE, as a
// quota would have it: the write past it fails with EFBIG), so that the results file fills up where
// a disk would; the runner's checked writer (ResultsWriter) then says so and exits 6, as on a full disk.
// PTXCTS_FAKE_ARCH=<target> (sm_75, sm_86, sm_100a, ...): the emulated GPU is of that target's
// architecture: `--info` gives its compute capability (unless PTXCTS_FAKE_DEVICES says otherwise),
// and where the specs' cases.yaml says the documents leave a case undefined on that target
// ('undefined'), the launch does the worst thing the words still allow, as that entry's fake_device
// says: fault (recorded as a device fault), garbage (every output word inverted) or hang (never ends:
// the limit on an undefined case, --undefined-timeout, takes it). Elsewhere it behaves as the mode
// says (model: as documented).
// PTXCTS_FAKE_SPECS: the specs the emulator plans kernels from (default: the source tree's).
// PTXCTS_FAKE_DEVICES: `--info`'s answer (default: one sm_90 GPU). PTXCTS_FAKE_STARTS: a file
// each start appends its first launch to; PTXCTS_FAKE_RUNNERS: one each start appends its --device
// and --only-gpu to. --only-gpu must name a uuid of PTXCTS_FAKE_DEVICES (else: no GPU, exit 4).
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "kinds/kinds.hpp"
#include "run/device_protocol.hpp"
#include "spec/spec_loader.hpp"
#include "util/parent_watch.hpp"
#include "support/device_emulator.hpp"
#include "support/fake_chaos.hpp"

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

// The suite read now, saying "loading" (a word of life: the idle watchdog hears it) every half second
// meanwhile, as the real runner may while it loads modules.
void load_suite() {
  auto read = std::async(std::launch::async, [] { suite(); });
  while (read.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready) {
    std::printf("loading\n");
    std::fflush(stdout);
  }
  read.get();
}

// The emulated GPU's target (PTXCTS_FAKE_ARCH), if it plays one.
const TargetInfo* fake_arch() {
  static const TargetInfo* t = [] () -> const TargetInfo* {
    const char* name = std::getenv("PTXCTS_FAKE_ARCH");
    if (!name) return nullptr;
    const TargetInfo* found = suite().specs.targets.find(name);
    if (!found) {
      std::fprintf(stderr, "fake_device_runner: PTXCTS_FAKE_ARCH=%s is no target of targets.yaml\n", name);
      std::exit(kDeviceUsage);
    }
    return found;
  }();
  return t;
}

// What the documents leave undefined for this launch on the emulated target ("" where nothing is):
// the fake_device behaviour its cases.yaml entry chose.
std::string undefined_behaviour(const std::string& label) {
  const TargetInfo* arch = fake_arch();
  if (!arch) return "";
  const std::size_t slash = label.rfind('/');
  const KernelPlan* plan = suite().find_kernel(label.substr(0, slash));
  const CaseSpec* c = suite().specs.find_case(label.substr(slash + 1));
  if (!plan || !c) return "";
  const UndefinedOn* u = undefined_on(suite().specs.targets, *c, plan->family, *arch);
  return u ? u->fake_device : "";
}

// Whether a job's case (its label's part after the '/') is one of the comma-separated names in the
// environment variable `var`.
bool case_named_in(const char* var, const std::string& label) {
  const char* names = std::getenv(var);
  if (!names) return false;
  const std::string name = label.substr(label.rfind('/') + 1);
  std::stringstream list(names);
  for (std::string one; std::getline(list, one, ',');)
    if (one == name) return true;
  return false;
}

struct LoadFailure {
  ModuleLoad load = ModuleLoad::Loaded;  // Loaded: the module loads
  std::string error;
};

// What the emulated driver's JIT makes of a PTX module for `entry` (the real runner's wording).
LoadFailure jit_load(const std::string& path, const std::string& entry) {
  const std::string how = "cuModuleLoadDataEx (driver JIT of the PTX): ";
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string ptx = text.str();
  if (!in || ptx.empty()) return {ModuleLoad::Failed, how + path + " is missing or empty"};
  std::smatch m;
  if (!std::regex_search(ptx, m, std::regex(R"(\.version\s+(\d+)\.(\d+))")))
    return {ModuleLoad::Failed, how + "CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed (emulated); JIT log:\n" +
                                    "ptxas application ptx input, line 1; error   : no .version directive"};
  const int major = std::stoi(m[1]), minor = std::stoi(m[2]);
  if (const char* known = std::getenv("PTXCTS_FAKE_JIT_PTX")) {
    int kmaj = 0, kmin = 0;
    std::sscanf(known, "%d.%d", &kmaj, &kmin);
    if (std::pair(major, minor) > std::pair(kmaj, kmin))
      return {ModuleLoad::Refused,
              fmt::format("the driver's JIT does not take this PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided "
                          "PTX was compiled with an unsupported toolchain. (emulated); JIT log: ptxas application ptx "
                          "input, line 1; fatal   : Unsupported .version {}.{}; current version is '{}'",
                          major, minor, known)};
  }
  if (!std::regex_search(ptx, std::regex("\\.entry\\s+" + entry + "\\s*\\(")))
    return {ModuleLoad::Failed,
            how + "CUDA_ERROR_NOT_FOUND: named symbol not found (emulated): the PTX defines no entry " + entry};
  return {};
}

// Runs jobs [start, end) as the real runner does, each record through `out` (which throws
// ResultsUnwritable where the file cannot take it); the exit status.
int run_jobs(const RunnerArgs& args, const std::string& mode, test::Mutant device,
             const std::optional<test::Chaos>& chaos, const std::vector<DeviceJob>& jobs, std::size_t start,
             std::size_t end, ResultsWriter& out) {
  const long abort_at = modifier(mode, "abort:"), fault_at = modifier(mode, "fault:"),
             hang_at = modifier(mode, "hang:"), kill_at = modifier(mode, "killparent:"),
             progress_at = modifier(mode, "progress:"), hugeline_at = modifier(mode, "hugeline:"),
             chatty_at = modifier(mode, "chatty:");
  test::DeviceEmulator emulator;
  RunnerTiming timing;
  std::map<std::pair<std::string, std::string>, LoadFailure> loaded;  // (module, entry): as the JIT said
  // As the real runner: a batch's records are written only when the whole batch came back; a fault
  // in a batch of several records nothing (exit 5), a fault alone is recorded (exit 3).
  for (std::size_t k = start; k < end;) {
    const std::size_t e = batch_end(jobs, k, end, args.batch);
    for (std::size_t j = k; progress_at >= 0 && j < e; ++j)  // its modules never load, but it says "loading"
      for (; jobs[j].id >= progress_at; std::this_thread::sleep_for(std::chrono::milliseconds(50))) {
        std::printf("loading\n");
        std::fflush(stdout);
      }
    std::printf("batch %zu %zu\n", k, e - k);
    std::fflush(stdout);
    std::vector<DeviceResult> got;
    std::map<std::uint32_t, std::string> garbled;  // chaos: a record of random bytes instead of the launch's
    for (std::size_t j = k; j < e; ++j) {
      const long at = jobs[j].id;
      if (const auto f = chaos ? chaos->at(jobs[j].label) : test::ChaosFault::None; f != test::ChaosFault::None) {
        chaos->strike(f, jobs[j].label);
        if (f == test::ChaosFault::Garbage) garbled[jobs[j].id] = chaos->garbage(jobs[j].label);
      }
      if (at == abort_at) std::abort();
      if (at == hang_at || case_named_in("PTXCTS_FAKE_HANG_CASES", jobs[j].label))
        std::this_thread::sleep_for(std::chrono::hours(1));
      if (case_named_in("PTXCTS_FAKE_SLOW_CASES", jobs[j].label)) {
        const char* secs = std::getenv("PTXCTS_FAKE_SLOW_SECONDS");
        std::this_thread::sleep_for(std::chrono::duration<double>(secs ? std::atof(secs) : 1.0));
      }
      for (; at == chatty_at; std::this_thread::sleep_for(std::chrono::milliseconds(50))) {
        std::printf("loading\n");
        std::fflush(stdout);
      }
      if (at == hugeline_at) {
        const std::string chunk(65536, 'x');
        while (std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size()) {}
        return 1;
      }
      if (at == kill_at) {
        kill(getppid(), SIGKILL);
        return 0;
      }
      DeviceResult r;
      r.id = jobs[j].id;
      ++timing.launches;
      LoadFailure load;
      if (args.toolchain == RunToolchain::Jit) {
        auto key = std::make_pair(jobs[j].module, jobs[j].kernel_name);
        auto it = loaded.find(key);
        if (it == loaded.end()) it = loaded.emplace(key, jit_load(jobs[j].module, jobs[j].kernel_name)).first;
        load = it->second;
      }
      if (load.load != ModuleLoad::Loaded) {  // recorded, and the runner goes on, as the real one
        r.load = load.load;
        r.error = load.error;
        got.push_back(std::move(r));
        continue;
      }
      const std::string undefined = undefined_behaviour(jobs[j].label);
      if (undefined == "hang") std::this_thread::sleep_for(std::chrono::hours(1));
      if (at == fault_at) r.error = "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address";
      else if (undefined == "fault")
        r.error = "kernel: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered (emulated: the "
                  "documents leave this case undefined on " + fake_arch()->name + ")";
      else if (device == test::Mutant::Echo) {
        r.state = jobs[j].input.state;
        r.ok = true;
      } else {
        const std::string& label = jobs[j].label;
        const KernelPlan* plan = suite().find_kernel(label.substr(0, label.rfind('/')));
        if (!plan) {
          std::fprintf(stderr, "fake_device_runner: job %u names no kernel of the specs: '%s'\n", r.id, label.c_str());
          return kDeviceUnusable;
        }
        try {
          r.state = emulator.run(*plan, jobs[j].input, device);
          r.ok = true;
          if (undefined == "garbage") {
            for (auto& w : r.state.regs) w = ~w;
            for (auto& b : r.state.smem) b = static_cast<std::uint8_t>(~b);
          }
        } catch (const std::exception& ex) {
          r.error = std::string("kernel: CUDA_ERROR_ILLEGAL_ADDRESS (emulated): ") + ex.what();
        }
      }
      if (!r.ok) {
        ++timing.batches;
        std::printf("%s\n", timing_line(timing).c_str());
        if (e - k > 1) return kDeviceBatchFaulted;
        if (auto g = garbled.find(r.id); g != garbled.end()) out.write_bytes(g->second);
        else out.write(r);
        return kDeviceFaulted;
      }
      got.push_back(std::move(r));
    }
    ++timing.batches;
    for (auto const& r : got) {
      if (auto g = garbled.find(r.id); g != garbled.end()) out.write_bytes(g->second);
      else out.write(r);
      std::printf("done %u %s\n", r.id, r.ok ? "ok" : "fault");  // as the real runner does: the watchdog hears progress
    }
    std::fflush(stdout);
    k = e;
  }
  std::printf("%s\n", timing_line(timing).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && !std::strcmp(argv[1], "--info")) {
    const char* devices = std::getenv("PTXCTS_FAKE_DEVICES");
    if (!devices && fake_arch()) {  // one GPU of the emulated target's architecture
      const int arch = fake_arch()->arch;
      fmt::print(R"json([{{"ordinal": 0, "name": "Fake GPU ({})", "major": {}, "minor": {}, "driver_cuda": "13.0", )json"
                 R"json("driver_version": "0.0"}}])json"
                 "\n",
                 fake_arch()->name, arch / 10, arch % 10);
      return 0;
    }
    std::printf(
        "%s\n",
        devices
            ? devices
            : R"([{"ordinal": 0, "name": "Fake GPU", "major": 9, "minor": 0, "driver_cuda": "13.0", "driver_version": "0.0"}])");
    return 0;
  }
  std::string error;
  auto args = parse_runner_args(argc, argv, error);
  if (!args) {
    std::fprintf(stderr, "fake_device_runner: %s\n", error.c_str());
    return kDeviceUsage;
  }
  const std::string mode = std::getenv("PTXCTS_FAKE_MODE") ? std::getenv("PTXCTS_FAKE_MODE") : "echo";
  const long unusable = modifier(mode, "unusable:");
  exit_when_parent_goes(kDeviceUnusable);
  if (const char* seen = std::getenv("PTXCTS_FAKE_RUNNERS"))  // each start: which GPU it was told to see
    std::ofstream(seen, std::ios::app) << "device " << args->device << " only-gpu " << args->only_gpu << "\n";
  if (!args->only_gpu.empty()) {  // as CUDA_VISIBLE_DEVICES=<uuid>: a UUID of no GPU leaves none
    const char* devices = std::getenv("PTXCTS_FAKE_DEVICES");
    if (!devices || std::string(devices).find("\"" + args->only_gpu + "\"") == std::string::npos) {
      std::fprintf(stderr, "cuInit: CUDA_ERROR_NO_DEVICE (emulated: --only-gpu %s names no GPU)\n",
                   args->only_gpu.c_str());
      return kDeviceUnusable;
    }
  }
  if (args->device == unusable) {  // as the real runner when the GPU cannot make a context
    std::fprintf(stderr, "cuDevicePrimaryCtxRetain: CUDA_ERROR_ECC_UNCORRECTABLE (emulated on device %d)\n",
                 args->device);
    return kDeviceUnusable;
  }
  test::Mutant device;
  std::optional<test::Chaos> chaos;
  try {
    device = test::mutant_from_string(mode.substr(0, mode.find(',')));
    chaos = test::Chaos::from_env();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake_device_runner: %s\n", e.what());
    return kDeviceUsage;
  }
  // The specs it emulates from (a second or more of a loaded machine's time) are read now, before it
  // is ready and before any "batch" line, as the real runner makes its context and loads its modules
  // before a batch's launches: never inside a launch, whose time is limited (--undefined-timeout).
  if (device != test::Mutant::Echo || fake_arch()) load_suite();
  // The order first, then the jobs, as the real runner: a standby runner is started before its job file is written.
  const auto order = order_to_run(*args);
  if (!order) return 0;  // a standby runner told to quit
  std::ifstream in(args->jobs, std::ios::binary);
  auto jobs = read_jobs(in);
  const auto range = jobs_in(*order, jobs.size());
  const std::size_t start = range.first, end = range.end;
  // Launches are named by their job id (the plan's launch number), whichever job file holds them:
  // `ptxcts run` gives the fault cases to runners of their own.
  if (const char* starts = std::getenv("PTXCTS_FAKE_STARTS"))
    std::ofstream(starts, std::ios::app) << (start < jobs.size() ? jobs[start].id : start) << "\n";
  if (const char* limit = std::getenv("PTXCTS_FAKE_RESULTS_LIMIT")) {
    const rlim_t bytes = std::strtoull(limit, nullptr, 10);
    const rlimit at{.rlim_cur = bytes, .rlim_max = bytes};
    signal(SIGXFSZ, SIG_IGN);  // a write past it fails with EFBIG instead of killing the runner
    setrlimit(RLIMIT_FSIZE, &at);
  }
  try {  // every record checked: a full disk is said as the real runner says it, never a record missing
    ResultsWriter out(args->results);
    const int status = run_jobs(*args, mode, device, chaos, jobs, start, end, out);
    if (status == kDeviceDone) out.close();
    return status;
  } catch (const ResultsUnwritable& e) { return results_unwritable(e); }
}

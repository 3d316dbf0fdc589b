// ptxcts-fault-probe: where do device faults on several GPUs of one host wait for each other?
// Not part of the suite: a measurement beside it (issue "every GPU of a host at full speed").
//
//   ptxcts-fault-probe --gpus 0,1 --faults 20 [--visible all|own] [--exit return|now]
//                      [--handoff exit|result] [--kind misaligned|illegal]
//
// For each GPU listed, a line of faulting processes runs as the suite's fault line does: a child
// makes its context ahead of time (standby), is told to go, launches one kernel that faults, says
// so and ends; the next child was started when this one was told to go. All GPUs' lines run at
// once. Knobs, each a suspect:
//   --visible own: each child sees only its own GPU (CUDA_VISIBLE_DEVICES=GPU-<uuid>), so cuInit
//                  and teardown touch no other GPU; all: every GPU, as the suite's runners did.
//   --exit now:    a child ends with _exit right after reporting the fault (no driver teardown in
//                  the process; the kernel driver cleans up when its files close).
//   --handoff result: the next child is told to go as soon as the fault is reported, not when the
//                  faulted child has exited.
// Prints, per GPU: wall per fault, the child's launch-to-error time, its init, and the time from
// the fault's report to the child's exit.
#include <cuda.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpu_uuid.hpp"

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* err_name(CUresult r) {
  const char* s = "?";
  cuGetErrorName(r, &s);
  return s;
}

// Two ways to fault: a misaligned ldmatrix row address (what the suite's fault cases do) and a store
// to an unmapped global address.
const char* kPtx = R"(
.version 7.8
.target sm_75
.address_size 64
.visible .entry misaligned(.param .u64 p) {
  .reg .b32 %r<4>; .reg .b64 %rd<3>;
  .shared .align 16 .b8 tile[512];
  mov.u32 %r1, tile; add.u32 %r1, %r1, 4;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r1];
  ld.param.u64 %rd1, [p]; st.global.u32 [%rd1], %r2; ret;
}
.visible .entry illegal(.param .u64 p) {
  .reg .b32 %r<2>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p]; add.u64 %rd2, %rd1, 0x7fff00000000; mov.u32 %r1, 7; st.global.u32 [%rd2], %r1; ret;
}
)";

// The child: context, module, "ready <ms>", wait for a line on stdin, fault, "fault <ms> <error>", end.
int child(int ordinal, const std::string& kind, bool exit_now) {
  const double t0 = now_ms();
  CUdevice d;
  CUcontext c;
  CUmodule m;
  CUfunction f;
  CUdeviceptr buf;
  CUresult r = cuInit(0);
  if (!r) r = cuDeviceGet(&d, ordinal);
  if (!r) r = cuDevicePrimaryCtxRetain(&c, d);
  if (!r) r = cuCtxSetCurrent(c);
  if (!r) r = cuModuleLoadData(&m, kPtx);
  if (!r) r = cuModuleGetFunction(&f, m, kind.c_str());
  if (!r) r = cuMemAlloc(&buf, 4096);
  if (r) {
    std::printf("error %s\n", err_name(r));
    return 4;
  }
  std::printf("ready %.1f\n", now_ms() - t0);
  std::fflush(stdout);
  char line[16];
  if (!std::fgets(line, sizeof line, stdin)) return 0;
  void* args[] = {&buf};
  const double a = now_ms();
  r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
  if (!r) r = cuCtxSynchronize();
  std::printf("fault %.1f %s\n", now_ms() - a, err_name(r));
  std::fflush(stdout);
  if (exit_now) _exit(3);
  return 3;
}

std::string uuid_of(int ordinal) {
  CUdevice d;
  return cuDeviceGet(&d, ordinal) ? "" : gpu_uuid_text(d);
}

struct Child {
  pid_t pid = -1;
  FILE* from = nullptr;  // its stdout
  int to = -1;           // its stdin
};

Child spawn(const char* self, int ordinal, const std::string& visible, const std::string& kind, bool exit_now) {
  int in[2], out[2];
  if (pipe(in) || pipe(out)) std::abort();
  Child c;
  c.pid = fork();
  if (c.pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    std::string dev = std::to_string(ordinal);
    if (!visible.empty()) {
      setenv("CUDA_VISIBLE_DEVICES", visible.c_str(), 1);
      dev = "0";
    }
    execl(self, self, "--child", dev.c_str(), kind.c_str(), exit_now ? "now" : "return", (char*)nullptr);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  c.from = fdopen(out[0], "r");
  c.to = in[1];
  return c;
}

struct LineStats {
  double wall = 0, fault_ms = 0, init_ms = 0, exit_ms = 0;
  int faults = 0;
};

// One GPU's line of `n` faults, each child made ready while the previous one works.
LineStats fault_line(const char* self, int ordinal, const std::string& visible, int n, const std::string& kind,
                     bool exit_now, bool handoff_on_result) {
  LineStats s;
  const double t0 = now_ms();
  Child ready = spawn(self, ordinal, visible, kind, exit_now);
  std::vector<std::pair<Child, double>> to_reap;  // faulted children not waited for yet, and when they said so
  for (int k = 0; k < n; ++k) {
    Child cur = ready;
    char line[128];
    if (!std::fgets(line, sizeof line, cur.from)) break;  // "ready <ms>"
    s.init_ms += std::atof(line + 6);
    if (write(cur.to, "go\n", 3) != 3) break;
    if (k + 1 < n) ready = spawn(self, ordinal, visible, kind, exit_now);
    if (!std::fgets(line, sizeof line, cur.from)) break;  // "fault <ms> <error>"
    const double said = now_ms();
    s.fault_ms += std::atof(line + 6);
    ++s.faults;
    if (handoff_on_result) {
      to_reap.push_back({cur, said});
      continue;
    }
    waitpid(cur.pid, nullptr, 0);
    s.exit_ms += now_ms() - said;
    std::fclose(cur.from);
    close(cur.to);
  }
  for (auto& [c, said] : to_reap) {
    waitpid(c.pid, nullptr, 0);
    s.exit_ms += now_ms() - said;  // an upper bound here: reaped at the end
    std::fclose(c.from);
    close(c.to);
  }
  s.wall = now_ms() - t0;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--child") == 0)
    return child(std::atoi(argv[2]), argv[3], std::strcmp(argv[4], "now") == 0);
  if (argc == 2 && std::strcmp(argv[1], "--uuids") == 0) {
    if (cuInit(0)) return 4;
    int count = 0;
    cuDeviceGetCount(&count);
    for (int d = 0; d < count; ++d) std::printf("%s\n", uuid_of(d).c_str());
    return 0;
  }
  std::vector<int> gpus{0};
  int faults = 20;
  std::string visible = "all", exit_how = "return", handoff = "exit", kind = "misaligned";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--gpus") {
      gpus.clear();
      for (std::size_t at = 0; at <= v.size();) {
        std::size_t comma = v.find(',', at);
        if (comma == std::string::npos) comma = v.size();
        gpus.push_back(std::atoi(v.substr(at, comma - at).c_str()));
        at = comma + 1;
      }
    } else if (k == "--faults") faults = std::atoi(v.c_str());
    else if (k == "--visible") visible = v;
    else if (k == "--exit") exit_how = v;
    else if (k == "--handoff") handoff = v;
    else if (k == "--kind") kind = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  std::vector<std::string> uuids;
  if (visible == "own") {  // asked of a child, so that this process never opens the driver
    std::string cmd = std::string(argv[0]) + " --uuids";
    FILE* p = popen(cmd.c_str(), "r");
    char line[128];
    while (p && std::fgets(line, sizeof line, p)) uuids.push_back(std::string(line, std::strcspn(line, "\n")));
    if (p) pclose(p);
  }
  std::vector<LineStats> stats(gpus.size());
  std::vector<std::thread> lines;
  const double t0 = now_ms();
  for (std::size_t g = 0; g < gpus.size(); ++g)
    lines.emplace_back([&, g] {
      const std::string vis =
          visible == "own" && gpus[g] < static_cast<int>(uuids.size()) ? uuids[gpus[g]] : std::string();
      stats[g] = fault_line(argv[0], gpus[g], vis, faults, kind, exit_how == "now", handoff == "result");
    });
  for (auto& t : lines) t.join();
  const double wall = now_ms() - t0;
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const LineStats& s = stats[g];
    const double n = s.faults ? s.faults : 1;
    std::printf(
        "gpu %d: %d faults (%s, visible %s, exit %s, handoff on %s) in %.0f ms: %.1f ms per fault; launch to error "
        "%.1f ms, init %.1f ms, report to exit %.1f ms (means)\n",
        gpus[g], s.faults, kind.c_str(), visible.c_str(), exit_how.c_str(), handoff.c_str(), s.wall, s.wall / n,
        s.fault_ms / n, s.init_ms / n, s.exit_ms / n);
  }
  std::printf("all lines: %.0f ms\n", wall);
  return 0;
}

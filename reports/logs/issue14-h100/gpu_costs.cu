// What a device runner's time goes to on this GPU: process start to a ready context, one launch
// with a sync each vs many launches and one sync, a device fault (launch to error, then exit),
// and whether a fault in one process stalls another process's launches.
#include <cuda.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <sys/wait.h>

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s; cuGetErrorName(r_, &s); std::printf("%s -> %s\n", #x, s); } } while (0)

__global__ void copy_kernel(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}
__global__ void fault_kernel(unsigned* p) { *(volatile unsigned*)((char*)p + 0x7fff00000000ull) = 1; }

static CUcontext ctx;
static double t_start;

static void init(const char* who) {
  double a = now();
  CK(cuInit(0));
  CUdevice d; CK(cuDeviceGet(&d, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, d));
  CK(cuCtxSetCurrent(ctx));
  CUdeviceptr p; CK(cuMemAlloc(&p, 1 << 20));
  double b = now();
  std::printf("[%s] init (cuInit+ctx+alloc) %.1f ms, since exec %.1f ms\n", who, (b - a) * 1e3, (b - t_start) * 1e3);
}

int main(int argc, char** argv) {
  t_start = now();
  std::string mode = argc > 1 ? argv[1] : "all";
  if (mode == "init") { init("child"); return 0; }
  if (mode == "fault") {
    init("fault-child");
    unsigned* p; cudaMalloc(&p, 64);
    double a = now();
    fault_kernel<<<1, 1>>>(p);
    cudaError_t e = cudaDeviceSynchronize();
    double b = now();
    std::printf("[fault-child] fault launch->error %.1f ms (%s)\n", (b - a) * 1e3, cudaGetErrorName(e));
    std::fflush(stdout);
    return 3;
  }
  if (mode == "launches") {
    init("launches");
    int n = 256;
    unsigned *in, *out; cudaMalloc(&in, n * 4 * 4096); cudaMalloc(&out, n * 4 * 4096);
    unsigned* h; cudaMallocHost(&h, n * 4 * 4096);
    for (int rep = 0; rep < 2; ++rep) {
      double a = now();
      for (int k = 0; k < 2000; ++k) {
        cudaMemcpy(in, h, 4096, cudaMemcpyHostToDevice);
        copy_kernel<<<1, 128>>>(in, out, 1024);
        cudaDeviceSynchronize();
        cudaMemcpy(h, out, 4096, cudaMemcpyDeviceToHost);
      }
      double b = now();
      for (int k = 0; k < 2000; ++k) copy_kernel<<<1, 128>>>(in + (k % 256) * 1024, out + (k % 256) * 1024, 1024);
      cudaDeviceSynchronize();
      double c = now();
      std::printf("[launches] 2000 x (copy in, launch, sync, copy out): %.1f us each; 2000 launches, one sync: %.2f us each\n",
                  (b - a) / 2000 * 1e6, (c - b) / 2000 * 1e6);
    }
    return 0;
  }
  if (mode == "spawn") {  // N processes start at once: does context creation serialize?
    int n = argc > 2 ? std::atoi(argv[2]) : 4;
    double a = now();
    for (int k = 0; k < n; ++k) if (fork() == 0) { execl("/proc/self/exe", argv[0], "init", (char*)nullptr); _exit(127); }
    for (int k = 0; k < n; ++k) wait(nullptr);
    std::printf("[spawn] %d processes to ready context and exit: %.1f ms wall\n", n, (now() - a) * 1e3);
    return 0;
  }
  if (mode == "faults") {  // sequential faulting processes: cost per fault incl. exit
    int n = argc > 2 ? std::atoi(argv[2]) : 5;
    double a = now();
    for (int k = 0; k < n; ++k) {
      if (fork() == 0) { execl("/proc/self/exe", argv[0], "fault", (char*)nullptr); _exit(127); }
      int st; wait(&st);
    }
    std::printf("[faults] %d faulting processes one after another: %.1f ms each (start, fault, exit)\n", n, (now() - a) / n * 1e3);
    return 0;
  }
  if (mode == "stall") {  // a steady launcher measures its worst launch+sync latency while another process faults
    init("stall");
    unsigned *in, *out; cudaMalloc(&in, 4096); cudaMalloc(&out, 4096);
    pid_t kid = -1;
    double worst = 0, worst_at = 0, begin = now();
    int count = 0;
    while (now() - begin < 3.0) {
      if (kid < 0 && now() - begin > 0.5) { kid = fork(); if (kid == 0) { execl("/proc/self/exe", argv[0], "fault", (char*)nullptr); _exit(127); } }
      double a = now();
      copy_kernel<<<1, 128>>>(in, out, 1024);
      cudaDeviceSynchronize();
      double d = now() - a; ++count;
      if (d > worst) { worst = d; worst_at = a - begin; }
    }
    waitpid(kid, nullptr, 0);
    std::printf("[stall] %d launches in 3 s beside a faulting process; worst launch+sync %.1f ms at t=%.2f s\n", count, worst * 1e3, worst_at);
    return 0;
  }

  if (mode == "ctxswap") {  // several contexts in one process: does a fault in one spare the others, and what do they cost?
    CK(cuInit(0));
    CUdevice d; CK(cuDeviceGet(&d, 0));
    const int K = 4;
    CUcontext c[K];
    double a = now();
    for (int k = 0; k < K; ++k) CK(cuCtxCreate(&c[k], nullptr, 0, d));
    double b = now();
    std::printf("[ctxswap] %d cuCtxCreate: %.1f ms each\n", K, (b - a) / K * 1e3);
    unsigned *in[K], *out[K];
    for (int k = 0; k < K; ++k) { CK(cuCtxSetCurrent(c[k])); cudaMalloc(&in[k], 4096); cudaMalloc(&out[k], 4096); copy_kernel<<<1,128>>>(in[k], out[k], 1024); std::printf("  ctx %d warm: %s\n", k, cudaGetErrorName(cudaDeviceSynchronize())); }
    for (int round = 0; round < K - 1; ++round) {
      CK(cuCtxSetCurrent(c[round]));
      double f0 = now();
      fault_kernel<<<1, 1>>>(out[round]);
      cudaError_t e = cudaDeviceSynchronize();
      double f1 = now();
      CK(cuCtxSetCurrent(c[round + 1]));
      double s0 = now();
      copy_kernel<<<1,128>>>(in[round + 1], out[round + 1], 1024);
      cudaError_t e2 = cudaDeviceSynchronize();
      double s1 = now();
      double d0 = now();
      CUresult dr = cuCtxDestroy(c[round]);
      double d1 = now();
      CUcontext fresh; double n0 = now(); CK(cuCtxCreate(&fresh, nullptr, 0, d)); double n1 = now();
      std::printf("[ctxswap] fault in ctx %d: %.1f ms to %s; next ctx launch+sync %.2f ms: %s; destroy faulted %.1f ms (%d); new ctx %.1f ms\n",
                  round, (f1 - f0) * 1e3, cudaGetErrorName(e), (s1 - s0) * 1e3, cudaGetErrorName(e2), (d1 - d0) * 1e3, (int)dr, (n1 - n0) * 1e3);
      CK(cuCtxSetCurrent(fresh)); unsigned* t; cudaMalloc(&t, 4096);
      copy_kernel<<<1,128>>>(t, t, 1024);
      std::printf("  fresh ctx works: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    }
    return 0;
  }
  if (mode == "reset") {  // the primary context reset in-process after a fault, several times
    init("reset");
    CUdevice d; CK(cuDeviceGet(&d, 0));
    for (int k = 0; k < 4; ++k) {
      unsigned* p; cudaMalloc(&p, 64);
      double a = now();
      fault_kernel<<<1, 1>>>(p);
      cudaError_t e = cudaDeviceSynchronize();
      double b = now();
      CUresult r = cuDevicePrimaryCtxReset(d);
      CK(cuDevicePrimaryCtxRetain(&ctx, d)); CK(cuCtxSetCurrent(ctx));
      cudaError_t clear = cudaGetLastError();
      unsigned* q; cudaError_t ma = cudaMalloc(&q, 4096);
      copy_kernel<<<1,128>>>(q, q, 1024);
      cudaError_t e2 = cudaDeviceSynchronize();
      double c2 = now();
      std::printf("[reset] fault %.1f ms (%s); reset+retain+launch %.1f ms (reset %d, malloc %s, then %s, clear %s)\n", (b - a) * 1e3, cudaGetErrorName(e), (c2 - b) * 1e3, (int)r, cudaGetErrorName(ma), cudaGetErrorName(e2), cudaGetErrorName(clear));
    }
    return 0;
  }
  return 0;
}

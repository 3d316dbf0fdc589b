// Pure driver API: several contexts in one process. Does a device fault in one context leave the
// others usable, and what do cuInit, cuCtxCreate and a module load cost?
#include <cuda.h>
#include <chrono>
#include <cstdio>
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static const char* name(CUresult r) { const char* s = "?"; cuGetErrorName(r, &s); return s; }
static const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry ok(.param .u64 p) { .reg .b64 %rd<3>; .reg .b32 %r<2>; ld.param.u64 %rd1, [p]; mov.u32 %r1, 7; st.global.u32 [%rd1], %r1; ret; }
.visible .entry bad(.param .u64 p) { .reg .b64 %rd<3>; .reg .b32 %r<2>; ld.param.u64 %rd1, [p]; add.u64 %rd2, %rd1, 0x7fff00000000; mov.u32 %r1, 7; st.global.u32 [%rd2], %r1; ret; }
)";
struct Ctx { CUcontext c; CUmodule m; CUfunction ok, bad; CUdeviceptr buf; };
static CUresult make(CUdevice d, Ctx& x, double& t_ctx, double& t_mod) {
  double a = now();
  CUctxCreateParams params = {};
  CUresult r = cuCtxCreate(&x.c, &params, 0, d);
  if (r) return r;
  double b = now();
  cuCtxSetCurrent(x.c);
  if ((r = cuModuleLoadData(&x.m, kPtx))) return r;
  cuModuleGetFunction(&x.ok, x.m, "ok"); cuModuleGetFunction(&x.bad, x.m, "bad");
  r = cuMemAlloc(&x.buf, 4096);
  t_ctx = (b - a) * 1e3; t_mod = (now() - b) * 1e3;
  return r;
}
static CUresult launch(Ctx& x, bool bad) {
  cuCtxSetCurrent(x.c);
  void* args[] = {&x.buf};
  CUresult r = cuLaunchKernel(bad ? x.bad : x.ok, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr);
  if (r) return r;
  return cuCtxSynchronize();
}
int main() {
  double a = now();
  CUresult r = cuInit(0);
  std::printf("cuInit %.1f ms (%s)\n", (now() - a) * 1e3, name(r));
  CUdevice d; cuDeviceGet(&d, 0);
  const int K = 4; Ctx x[K];
  for (int k = 0; k < K; ++k) { double tc = 0, tm = 0; r = make(d, x[k], tc, tm); std::printf("ctx %d: create %.1f ms, module+alloc %.1f ms (%s)\n", k, tc, tm, name(r)); if (r) return 1; }
  for (int k = 0; k < K; ++k) std::printf("ctx %d ok launch: %s\n", k, name(launch(x[k], false)));
  for (int k = 0; k + 1 < K; ++k) {
    double f0 = now(); CUresult e = launch(x[k], true); double f1 = now();
    CUresult e2 = launch(x[k + 1], false); double f2 = now();
    CUresult e3 = cuCtxDestroy(x[k].c); double f3 = now();
    double tc = 0, tm = 0; Ctx fresh; CUresult e4 = make(d, fresh, tc, tm);
    CUresult e5 = e4 ? e4 : launch(fresh, false);
    std::printf("fault in ctx %d: %.1f ms -> %s; ctx %d launch after it: %.2f ms -> %s; destroy faulted: %.1f ms -> %s; new ctx %.1f+%.1f ms -> %s, launch -> %s\n",
                k, (f1 - f0) * 1e3, name(e), k + 1, (f2 - f1) * 1e3, name(e2), (f3 - f2) * 1e3, name(e3), tc, tm, name(e4), name(e5));
  }
  return 0;
}

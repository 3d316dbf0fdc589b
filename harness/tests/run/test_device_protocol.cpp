#include <gtest/gtest.h>
#include <sys/resource.h>

#include <sstream>

#include "run/device_protocol.hpp"

using namespace ptxcts;

namespace {
DeviceJob job(std::uint32_t id) {
  DeviceJob j;
  j.id = id;
  j.module = "/catalog/cache/abc.cubin";
  j.kernel_name = "ptxcts_kernel";
  j.input.shape = {1, 64, 1, 2};
  j.input.offsets.assign(32, 16 + id);
  j.input.state.smem.assign(64, static_cast<std::uint8_t>(id));
  j.input.state.regs.assign(64, 0xABCD0000u + id);
  return j;
}
}  // namespace

TEST(DeviceProtocol, JobsRoundTrip) {
  std::stringstream ss;
  write_jobs(ss, {job(0), job(7)});
  auto back = read_jobs(ss);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].id, 7u);
  EXPECT_EQ(back[1].module, "/catalog/cache/abc.cubin");
  EXPECT_EQ(back[1].input.offsets, job(7).input.offsets);
  EXPECT_EQ(back[1].input.state, job(7).input.state);
}

TEST(DeviceProtocol, ShapeMismatchAndTruncationAreErrors) {
  DeviceJob bad = job(1);
  bad.input.offsets.pop_back();
  std::stringstream a;
  write_jobs(a, {bad});
  EXPECT_THROW(read_jobs(a), std::runtime_error);
  std::stringstream b;
  write_jobs(b, {job(1)});
  std::string half = b.str().substr(0, b.str().size() / 2);
  std::stringstream c(half);
  EXPECT_THROW(read_jobs(c), std::runtime_error);
  std::stringstream d("not a job file at all");
  EXPECT_THROW(read_jobs(d), std::runtime_error);
}

TEST(DeviceProtocol, ATruncatedLastResultIsDroppedTheRestKept) {
  std::stringstream ss;
  DeviceResult ok{3, true, "", {{1, 2, 3}, {4, 5}}};
  DeviceResult fault{4, false, "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address", {}};
  write_result(ss, ok);
  write_result(ss, fault);
  write_result(ss, ok);
  std::string all = ss.str();
  std::stringstream cut(all.substr(0, all.size() - 5));
  auto back = read_results(cut);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].state, ok.state);
  EXPECT_FALSE(back[1].ok);
  EXPECT_EQ(back[1].error, fault.error);
}

namespace {
long max_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
std::string bytes_of(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s += static_cast<char>(c);
  return s;
}
}  // namespace

// Fuzzing findings F1 and F3 (harness/fuzz/FINDINGS.md): a count or a length in a job or result file
// cost what it stated (768 GiB for a 12-byte job file), not what the file holds.
TEST(DeviceProtocol, AJobCountIsNotTrustedBeyondTheFile) {
  const long before = max_rss_kb();
  std::istringstream in(bytes_of({0x50, 0x54, 0x58, 0x43, 0x54, 0x53, 0x4a, 0x32, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_THROW(read_jobs(in), std::runtime_error);
  EXPECT_LT(max_rss_kb() - before, 64 * 1024);
}

TEST(DeviceProtocol, AVectorLengthIsNotTrustedBeyondTheFile) {
  const long before = max_rss_kb();
  std::istringstream smem(bytes_of({0x50, 0x43, 0x52, 0x31, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0}));
  EXPECT_TRUE(read_results(smem).empty());
  std::istringstream regs(bytes_of(
      {0x50, 0x43, 0x52, 0x31, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0}));
  EXPECT_TRUE(read_results(regs).empty());
  EXPECT_LT(max_rss_kb() - before, 64 * 1024);
}

// A result says why a job did not launch: its module refused by the driver (a skip for `ptxcts run`),
// its module not loaded (an error), or the launch itself failed; each reads back as written.
TEST(DeviceProtocol, AResultSaysWhetherItsModuleWasRefusedOrFailedToLoad) {
  std::stringstream ss;
  DeviceResult refused{5, false, "the driver's JIT does not take this PTX: ...", {}, ModuleLoad::Refused};
  DeviceResult failed{
      6, false, "cuModuleLoadDataEx (driver JIT of the PTX): CUDA_ERROR_INVALID_PTX", {}, ModuleLoad::Failed};
  DeviceResult fault{7, false, "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address", {}};
  DeviceResult ok{8, true, "", {{1}, {2}}};
  for (auto const* r : {&refused, &failed, &fault, &ok}) write_result(ss, *r);
  auto back = read_results(ss);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[0].load, ModuleLoad::Refused);
  EXPECT_EQ(back[1].load, ModuleLoad::Failed);
  EXPECT_EQ(back[2].load, ModuleLoad::Loaded);
  EXPECT_EQ(back[3].load, ModuleLoad::Loaded);
  EXPECT_FALSE(back[0].ok || back[1].ok || back[2].ok);
  EXPECT_TRUE(back[3].ok);
  EXPECT_EQ(back[0].error, refused.error);
}

TEST(DeviceProtocol, TheRunnersToolchainIsCubinOrJit) {
  std::string error;
  const char* jit[] = {"r", "--device", "0", "--jobs", "j", "--results", "r", "--toolchain", "jit"};
  auto a = parse_runner_args(9, jit, error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->toolchain, RunToolchain::Jit);
  const char* plain[] = {"r", "--device", "0", "--jobs", "j", "--results", "r"};
  EXPECT_EQ(parse_runner_args(7, plain, error)->toolchain, RunToolchain::Cubin);
  const char* bad[] = {"r", "--device", "0", "--jobs", "j", "--results", "r", "--toolchain", "ptx"};
  EXPECT_FALSE(parse_runner_args(9, bad, error));
  EXPECT_EQ(error, "--toolchain expects cubin or jit, got 'ptx'");
}

// Which JIT failures are the driver refusing the PTX (the logs as the driver's JIT writes them).
TEST(DeviceProtocol, AJitRefusalIsAnUnknownVersionOrTargetNothingElse) {
  EXPECT_TRUE(jit_refusal("CUDA_ERROR_UNSUPPORTED_PTX_VERSION", ""));
  EXPECT_TRUE(jit_refusal("CUDA_ERROR_NO_BINARY_FOR_GPU", ""));
  EXPECT_TRUE(jit_refusal("CUDA_ERROR_INVALID_PTX",
                          "ptxas application ptx input, line 2; fatal   : Unsupported .target 'sm_110a'"));
  EXPECT_FALSE(
      jit_refusal("CUDA_ERROR_INVALID_PTX", "ptxas application ptx input, line 9; error   : Unknown symbol 'x'"));
  EXPECT_FALSE(jit_refusal("CUDA_ERROR_OUT_OF_MEMORY", "Unsupported .version 9.9"));
  EXPECT_EQ(first_line("\n  \nptxas application ptx input, line 1; fatal   : Unsupported .version 9.0  \nmore\n"),
            "ptxas application ptx input, line 1; fatal   : Unsupported .version 9.0");
  EXPECT_EQ(first_line(""), "");
}

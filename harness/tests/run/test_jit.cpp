// `ptxcts run --toolchain jit` against the fake device runner: the same launches, checks and
// statuses as the cubin run, the kernel's PTX read by the (emulated) driver JIT, and a module the
// driver refuses (a PTX ISA version newer than it knows) a skip with the reason, never an error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

struct JitRun {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog;
  fs::path work = fs::temp_directory_path() / ("ptxcts-jit-test-" + std::to_string(::getpid()));

  JitRun() {
    catalog = fake_catalog(suite, {"sm_90"}, {7, 8}, [](auto const& k, auto const&) { return "entry_" + k.name; });
    write_fake_ptx(catalog, work);
  }
  ~JitRun() {
    unsetenv("PTXCTS_FAKE_JIT_PTX");
    fs::remove_all(work);
  }

  std::vector<CaseResult> run(const std::string& mode, RunToolchain toolchain, std::set<std::string> families) {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .families = std::move(families),
                   .progress = {},
                   .case_timeout = 30,
                   .journal = nullptr,
                   .done = {}};
    opt.toolchain = toolchain;
    return run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt).results;
  }
  std::string ptx_of(const std::string& kernel) const {
    return (work / catalog.find(kernel, "sm_90")->ptx_file).string();
  }
};

std::map<Status, int> counts(const std::vector<CaseResult>& rs) {
  std::map<Status, int> n;
  for (auto const& r : rs) ++n[r.status];
  return n;
}

}  // namespace

// A correct device gives every case the same status, reason and observation through either toolchain;
// a wrong one is caught through the JIT as through the cubin.
TEST(Jit, GivesTheSameResultsAsTheCubinRun) {
  JitRun f;
  for (const char* mode : {"model", "zero"}) {
    const std::set<std::string> families = std::string(mode) == "model" ? std::set<std::string>{"ldmatrix", "movmatrix"}
                                                                        : std::set<std::string>{"stmatrix"};
    const auto cubin = f.run(mode, RunToolchain::Cubin, families);
    const auto jit = f.run(mode, RunToolchain::Jit, families);
    ASSERT_EQ(cubin.size(), jit.size());
    for (std::size_t n = 0; n < cubin.size(); ++n) {
      const CaseResult &c = cubin[n], &j = jit[n];
      EXPECT_EQ(c.kernel + "/" + c.case_name, j.kernel + "/" + j.case_name);
      EXPECT_EQ(c.status, j.status) << mode << " " << c.kernel << " / " << c.case_name << ": " << j.reason;
      EXPECT_EQ(c.reason, j.reason);
      EXPECT_EQ(c.observed_layout, j.observed_layout);
      EXPECT_EQ(c.roundtrip_identity, j.roundtrip_identity);
    }
    // Each mode ran its cases, and they came out as that device must (every case of the correct device
    // passes but the fault cases; the zero device fails those that are not fault cases).
    auto n = counts(jit);
    EXPECT_GT(n[std::string(mode) == "model" ? Status::Pass : Status::Fail], 100) << mode;
    EXPECT_EQ(n[Status::Error], 0) << mode;
  }
}

// The JIT run loads the kernel's PTX, not its cubin: a PTX missing or without the kernel's entry is an
// error of that kernel's cases, with what the JIT said; the cubin run does not read the PTX at all.
TEST(Jit, ReadsTheKernelsPtxAndAModuleThatDoesNotLoadIsAnError) {
  JitRun f;
  std::string missing, garbled;  // two kernels that run here
  for (auto const& r : f.run("model", RunToolchain::Cubin, {"ldmatrix"}))
    if (r.status == Status::Pass && r.kernel != missing) (missing.empty() ? missing : garbled) = r.kernel;
  ASSERT_FALSE(garbled.empty());
  fs::remove(f.ptx_of(missing));
  std::ofstream(f.ptx_of(garbled)) << ".version 7.8\n.target sm_90\n// the entry is gone\n";
  for (RunToolchain t : {RunToolchain::Cubin, RunToolchain::Jit}) {
    const auto results = f.run("model", t, {"ldmatrix"});
    int errors = 0;
    for (auto const& r : results) {
      const bool broken = r.kernel == missing || r.kernel == garbled;
      if (t == RunToolchain::Cubin || !broken) {
        EXPECT_NE(r.status, Status::Error) << r.kernel << " / " << r.case_name << ": " << r.reason;
        continue;
      }
      ++errors;
      EXPECT_EQ(r.status, Status::Error) << r.kernel << " / " << r.case_name;
      EXPECT_NE(r.reason.find(r.kernel == missing ? "is missing or empty" : "named symbol not found"),
                std::string::npos)
          << r.reason;
    }
    if (t == RunToolchain::Jit) { EXPECT_GT(errors, 2); }
  }
}

// The driver refuses PTX newer than it knows: every case of those modules (fault cases too) is a skip
// whose reason is the driver's error and the JIT log's first line; the same run with a driver that
// knows the version runs them.
TEST(Jit, PtxNewerThanTheDriverKnowsIsASkipWithTheReason) {
  JitRun f;
  setenv("PTXCTS_FAKE_JIT_PTX", "7.7", 1);
  const auto refused = f.run("model", RunToolchain::Jit, {"ldmatrix"});
  int launched = 0;
  for (auto const& r : refused) {
    // The driver refusing the PTX is a skip (the GPU and its targets have the form); a form the GPU
    // lacks is not supported before any module is loaded.
    if (r.status == Status::NotSupported) continue;
    ASSERT_EQ(r.status, Status::Skip) << r.kernel << " / " << r.case_name << ": " << r.reason;
    if (r.target.empty()) continue;  // skipped before any launch (a form this device cannot run)
    ++launched;
    EXPECT_EQ(r.reason,
              "the driver's JIT does not take this PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was "
              "compiled with an unsupported toolchain. (emulated); JIT log: ptxas application ptx input, line 1; "
              "fatal   : Unsupported .version 7.8; current version is '7.7'");
  }
  EXPECT_GT(launched, 100);
  setenv("PTXCTS_FAKE_JIT_PTX", "7.8", 1);
  int ran = 0;
  for (auto const& r : f.run("model", RunToolchain::Jit, {"ldmatrix"}))
    if (!r.target.empty()) {
      ++ran;
      EXPECT_NE(r.status, Status::Skip) << r.kernel << " / " << r.case_name << ": " << r.reason;
    }
  EXPECT_EQ(ran, launched);
}

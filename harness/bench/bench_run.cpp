// The scheduling and compare path of `ptxcts run` without a GPU: the whole suite (or one family)
// handed to the fake device runner (its GPU in software), checked against the reference. Counts
// launches per second. Batches of 256 (the default) against one launch per batch and, for the
// fault line, a runner made ready ahead of time against fresh starts (the naive way, as before).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "kinds/kinds.hpp"
#include "run/runner.hpp"
#include "spec/spec_loader.hpp"
#include "support/fake_catalog.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

DeviceRun run_fake(const Suite& suite, const Catalog& catalog, std::set<std::string> families, unsigned batch,
                   bool standby) {
  const fs::path work = fs::temp_directory_path() / ("ptxcts-bench-run-" + std::to_string(::getpid()));
  RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                 .catalog_dir = work,
                 .work_dir = work,
                 .families = std::move(families),
                 .progress = {},
                 .case_timeout = 60,
                 .journal = nullptr,
                 .done = {}};
  opt.batch = batch;
  opt.standby = standby;
  DeviceRun r = run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  fs::remove_all(work);
  return r;
}

// Arguments: batch size, standby (1) or fresh starts (0), whole suite (1) or ldmatrix alone (0).
void BM_RunOnFakeDevice(benchmark::State& state) {
  setenv("PTXCTS_FAKE_MODE", "model", 1);
  const Suite suite = build_suite(load_spec_dir(PTXCTS_SOURCE_DIR "/specs"));
  const Catalog catalog =
      test::fake_catalog(suite, {"sm_90"}, {9, 0}, [](auto const& k, auto const&) { return "entry_" + k.name; });
  std::set<std::string> families;
  if (state.range(2) == 0) families = {"ldmatrix"};
  int launches = 0, passed = 0;
  for (auto _ : state) {
    DeviceRun r = run_fake(suite, catalog, families, static_cast<unsigned>(state.range(0)), state.range(1) != 0);
    launches += r.timing.launch_count;
    passed = 0;
    for (auto const& c : r.results) passed += c.status == Status::Pass;
  }
  state.counters["launches/s"] = benchmark::Counter(launches, benchmark::Counter::kIsRate);
  state.counters["passed"] = passed;  // the same in every configuration, or the comparison is void
}

}  // namespace

BENCHMARK(BM_RunOnFakeDevice)
    ->ArgNames({"batch", "standby", "suite"})
    ->Args({256, 1, 0})
    ->Args({1, 0, 0})
    ->Args({256, 1, 1})
    ->Args({1, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

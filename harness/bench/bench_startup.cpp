// `ptxcts run` as a process, warm, on the fake device runner: the time from its start to its first
// launch (the benchmark's time: the report's timing.first_launch) and its peak memory
// (timing.peak_rss_mib), the way a user runs it against the naive ways (no runner started before
// the specs load, the manifest parsed in full, every case's inputs made before its job file is
// written). On the build's catalog (sm_90) and on an all-targets one: the build's catalog with
// every kernel's record copied for every other real target of the specs (none of which loads on
// the fake sm_90 GPU, so the run is the same), its manifest the size an all-targets build writes.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "assemble/catalog_manifest.hpp"
#include "report/run/report_json.hpp"
#include "run/cubin_selection.hpp"
#include "spec/spec_loader.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

const fs::path kWork = fs::temp_directory_path() / ("ptxcts-bench-startup-" + std::to_string(::getpid()));
struct RemoveWork {
  ~RemoveWork() {
    std::error_code ec;
    fs::remove_all(kWork, ec);
  }
} remove_work;

// The build's catalog widened to every real target (its cubins and probes shared by links).
fs::path all_targets_catalog() {
  static const fs::path dir = [] {
    const fs::path build = PTXCTS_CATALOG_DIR, out = kWork / "catalog-all";
    fs::create_directories(out);
    Catalog c = load_catalog(build);
    const SpecSet specs = load_spec_dir(PTXCTS_SOURCE_DIR "/specs");
    const std::vector<Assembly> own = c.assemblies;
    for (auto const& t : specs.targets.targets) {
      if (runs_on(specs.targets, t, 9, 0) || std::find(c.targets.begin(), c.targets.end(), t.name) != c.targets.end())
        continue;
      c.targets.push_back(t.name);
      for (Assembly a : own) {
        a.target = t.name;
        c.assemblies.push_back(std::move(a));
      }
    }
    save_catalog(c, out);
    for (const char* sub : {"cache", "probes"})
      if (fs::exists(build / sub)) fs::create_directory_symlink(fs::absolute(build / sub), out / sub);
    return out;
  }();
  return dir;
}

RunTiming run_once(const fs::path& catalog, bool naive) {
  const fs::path reports = kWork / "reports";
  fs::remove_all(reports);
  std::vector<std::string> argv = {
      "env",      "PTXCTS_FAKE_MODE=model", PTXCTS_COMMAND, "run",       "--no-assemble", "--catalog", catalog.string(),
      "--runner", PTXCTS_FAKE_RUNNER,       "--quiet",      "--reports", reports.string()};
  if (naive) argv.insert(argv.end(), {"--no-early-runner", "--no-manifest-index", "--no-stream"});
  const ProcessResult r = run_process(argv, 600);
  if (r.exit_code != 0) throw std::runtime_error("ptxcts run failed:\n" + r.output);
  for (auto const& e : fs::directory_iterator(reports))
    if (e.path().extension() == ".json") return parse_report_json(read_file_text(e.path()), e.path().string()).timing;
  throw std::runtime_error("no report");
}

// Arguments: naive (1) or as usual (0); the build's catalog (0) or all targets (1).
void BM_RunStartup(benchmark::State& state) {
  if (!fs::exists(fs::path(PTXCTS_CATALOG_DIR) / "manifest.json")) {
    state.SkipWithError("the build has no catalog");
    return;
  }
  const bool naive = state.range(0) != 0;
  const fs::path catalog = state.range(1) ? all_targets_catalog() : fs::path(PTXCTS_CATALOG_DIR);
  run_once(catalog, naive);  // warm: the page cache, and the manifest's index made
  double rss = 0, wall = 0, plan = 0;
  int runs = 0;
  for (auto _ : state) {
    const RunTiming t = run_once(catalog, naive);
    state.SetIterationTime(t.first_launch);
    rss += t.peak_rss_mib;
    wall += t.wall;
    plan += t.plan;
    ++runs;
  }
  state.counters["peak_rss_mib"] = rss / runs;
  state.counters["wall_s"] = wall / runs;
  state.counters["plan_s"] = plan / runs;
  state.counters["manifest_mib"] = static_cast<double>(fs::file_size(catalog / "manifest.json")) / (1024.0 * 1024.0);
}

}  // namespace

BENCHMARK(BM_RunStartup)
    ->ArgNames({"naive", "all_targets"})
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Args({0, 1})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// The release package as a user runs it: what checking it whole costs every command
// (commands/release_manifest: every file's size, the programs', specs' and skeletons' seals) against
// the naive check (every file of the package hashed, the catalog's 500 MB with it), and the packaged
// `ptxcts run` under env -i against the fake device runner: process start to first launch, with the
// all-targets catalog the package ships. Needs the package made (cmake --build build --target
// package); skipped without it.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands/release_manifest.hpp"
#include "report/run/report_json.hpp"
#include "util/file_text.hpp"
#include "util/sealed_file.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

const fs::path kWork = fs::temp_directory_path() / ("ptxcts-bench-release-" + std::to_string(::getpid()));
struct RemoveWork {
  ~RemoveWork() {
    std::error_code ec;
    fs::remove_all(kWork, ec);
  }
} remove_work;

// The package the build made, unpacked once; "" if there is none.
fs::path unpacked_release() {
  static const fs::path prefix = []() -> fs::path {
    const fs::path archive = fs::path(PTXCTS_BUILD_DIR) / ("ptxcts-" PTXCTS_VERSION "-Linux-x86_64.tar.gz");
    if (!fs::exists(archive)) return "";
    fs::create_directories(kWork);
    const ProcessResult r = run_process({"tar", "xzf", archive.string(), "-C", kWork.string()}, 600);
    if (r.exit_code != 0) throw std::runtime_error("cannot unpack " + archive.string() + ": " + r.output);
    return kWork / ("ptxcts-" PTXCTS_VERSION "-Linux-x86_64");
  }();
  return prefix;
}

std::string release_commit(const fs::path& prefix) {  // the package's own (its programs check against it)
  const std::string text = read_file_text(prefix / "share/ptxcts/release.json");
  const auto at = text.find("\"suite_commit\": \"") + 17;
  return text.substr(at, text.find('"', at) - at);
}

void BM_ReleaseCheck(benchmark::State& state) {
  const fs::path prefix = unpacked_release();
  if (prefix.empty()) return state.SkipWithError("no package (cmake --build build --target package)");
  const std::string commit = release_commit(prefix);
  std::size_t files = 0;
  for (auto _ : state) files = check_release(prefix, PTXCTS_VERSION, commit).files;
  state.counters["files"] = static_cast<double>(files);
}

// The naive way: every file's content hashed, as a checksum list would be checked.
void BM_ReleaseCheckEveryFileHashed(benchmark::State& state) {
  const fs::path prefix = unpacked_release();
  if (prefix.empty()) return state.SkipWithError("no package (cmake --build build --target package)");
  double bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (auto const& e : fs::recursive_directory_iterator(prefix)) {
      if (!e.is_regular_file()) continue;
      const std::string text = read_file_text(e.path());
      benchmark::DoNotOptimize(content_seal(text));
      bytes += static_cast<double>(text.size());
    }
  }
  state.counters["MiB"] = bytes / (1 << 20);
}

// The packaged ptxcts under env -i (no PATH, no ptxas) on the fake runner: first launch (manual time).
void BM_PackagedRunStartup(benchmark::State& state) {
  const fs::path prefix = unpacked_release();
  if (prefix.empty()) return state.SkipWithError("no package (cmake --build build --target package)");
  const fs::path reports = kWork / "reports";
  auto once = [&] {
    fs::remove_all(reports);
    const ProcessResult r = run_process({"env", "-i", "PTXCTS_FAKE_MODE=model",
                                         "PTXCTS_FAKE_SPECS=" + (prefix / "share/ptxcts/specs").string(),
                                         (prefix / "bin/ptxcts").string(), "run", "--runner", PTXCTS_FAKE_RUNNER,
                                         "--quiet", "--reports", reports.string()},
                                        600);
    if (r.exit_code != 0) throw std::runtime_error("the packaged run failed:\n" + r.output);
    for (auto const& e : fs::directory_iterator(reports))
      if (e.path().extension() == ".json") return parse_report_json(read_file_text(e.path()), e.path().string()).timing;
    throw std::runtime_error("no report");
  };
  once();  // warm
  double wall = 0;
  int runs = 0;
  for (auto _ : state) {
    const RunTiming t = once();
    state.SetIterationTime(t.first_launch);
    wall += t.wall;
    ++runs;
  }
  state.counters["wall_s"] = wall / runs;
}

}  // namespace

BENCHMARK(BM_ReleaseCheck)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_ReleaseCheckEveryFileHashed)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_PackagedRunStartup)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

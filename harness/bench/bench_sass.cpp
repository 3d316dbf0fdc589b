// What disassembly costs: the sm_90 catalog built cold with and without its SASS (the issue's
// target: disassembly adds at most 20%), every cubin of a built catalog disassembled (nvdisasm's
// raw-binary mode, a process per target and worker; and one process per cubin, a cubin holding a
// batch of up to 128 kernels, as before), and the naive way, one process per kernel
// (cuobjdump -fun), on a sample, extrapolated to the catalog in a counter. The disassembler is the
// one `ptxcts catalog` would use ($PTXCTS_DISASSEMBLER, beside ptxas, another toolkit's); without
// one the benchmarks say so and are skipped.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

#include "assemble/catalog.hpp"
#include "assemble/catalog_sass.hpp"
#include "assemble/toolkits.hpp"
#include "kinds/kinds.hpp"
#include "util/worker_threads.hpp"
#include "spec/spec_loader.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

const std::string kSpecs = PTXCTS_SOURCE_DIR "/specs";

DisassemblerChoice disassembler(const Toolchain& tc) {
  std::vector<std::string> others;
  for (auto const& c : toolkit_candidates(default_toolkit_search({}, default_toolkit_cache())))
    others.push_back(c.ptxas);
  const char* env = std::getenv("PTXCTS_DISASSEMBLER");
  return choose_disassembler(tc.ptxas, tc.release, env ? env : "", others);
}

// The cached listings of a catalog, removed so that the next disassembly is cold.
void forget_listings(const fs::path& dir) {
  for (auto const& e : fs::directory_iterator(dir / "cache"))
    if (e.path().extension() == ".sass") fs::remove(e.path());
}

// The sm_90 catalog built in `dir` with the installed toolkit, and the disassembler to use; nullopt
// (the benchmark skipped, saying why) without one.
struct BuiltCatalog {
  Suite suite;
  Catalog catalog;
  Disassembler tool;
};
std::optional<BuiltCatalog> built_sm90_catalog(benchmark::State& state, const fs::path& dir) {
  BuiltCatalog b{.suite = build_suite(load_spec_dir(kSpecs)), .catalog = {}, .tool = {}};
  Toolchain tc = Toolchain::discover();
  DisassemblerChoice choice = disassembler(tc);
  if (!choice.tool) {
    state.SkipWithError(choice.unavailable.c_str());
    return std::nullopt;
  }
  b.tool = *choice.tool;
  b.catalog = build_catalog(b.suite, tc, read_kernel_skeletons(PTXCTS_SOURCE_DIR "/kernels"), dir, 2, nullptr, {},
                            std::vector<std::string>{"sm_90"});
  return b;
}

}  // namespace

// The sm_90 catalog from nothing: ptxas only (0), or ptxas then the disassembler (1).
static void BM_ColdCatalogSm90(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  KernelSkeletons sk = read_kernel_skeletons(PTXCTS_SOURCE_DIR "/kernels");
  const bool sass = state.range(0) == 1;
  DisassemblerChoice choice = disassembler(tc);
  if (sass && !choice.tool) {
    state.SkipWithError(choice.unavailable.c_str());
    return;
  }
  CatalogStats stats;
  SassStats st;
  for (auto _ : state) {
    fs::path dir = fs::temp_directory_path() / "ptxcts-bench-cold-sm90";
    fs::remove_all(dir);
    Catalog cat = build_catalog(suite, tc, sk, dir, 2, &stats, {}, std::vector<std::string>{"sm_90"});
    if (sass) add_sass(cat, suite, dir, choice, 2, &st);
    fs::remove_all(dir);
  }
  state.counters["assembled"] = stats.assembled;
  state.counters["ptxas_runs"] = stats.ptxas_runs;
  state.counters["disassembler_runs"] = sass ? st.processes : 0;
  state.counters["kernels_with_sass"] = sass ? st.kernels : 0;
  state.SetLabel(sass ? "with SASS: " + choice.tool->describe() : "without SASS");
}
BENCHMARK(BM_ColdCatalogSm90)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

// A built sm_90 catalog's every cubin disassembled as `ptxcts catalog` does it (nvdisasm: its
// raw-binary mode, the target's cubins in two processes for the two workers).
static void BM_DisassembleCatalogBatched(benchmark::State& state) {
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-sass-batched";
  auto b = built_sm90_catalog(state, dir);
  if (!b) return;
  const Suite& suite = b->suite;
  const Catalog& built = b->catalog;
  const DisassemblerChoice choice{.tool = b->tool, .unavailable = ""};
  SassStats st;
  for (auto _ : state) {
    forget_listings(dir);
    Catalog cat = built;
    add_sass(cat, suite, dir, choice, 2, &st);
  }
  state.counters["cubins"] = st.cubins;
  state.counters["disassembler_runs"] = st.processes;
  state.counters["kernels"] = st.kernels;
  state.counters["kernels/s"] = benchmark::Counter(
      static_cast<double>(st.kernels) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  fs::remove_all(dir);
}
BENCHMARK(BM_DisassembleCatalogBatched)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

// The way before nvdisasm's raw-binary mode was used: one process per cubin (its ELF listing), two at
// a time, on the same built catalog.
static void BM_DisassembleCatalogOneProcessPerCubin(benchmark::State& state) {
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-sass-batched";
  auto b = built_sm90_catalog(state, dir);
  if (!b) return;
  const Catalog& built = b->catalog;
  const std::optional<Disassembler> tool = b->tool;
  const DisassemblerChoice choice{.tool = tool, .unavailable = ""};
  std::vector<std::string> cubins;
  for (auto const& a : built.assemblies)
    if (a.accepted && std::find(cubins.begin(), cubins.end(), a.cubin) == cubins.end()) cubins.push_back(a.cubin);
  std::size_t functions = 0;
  for (auto _ : state) {
    std::atomic<std::size_t> next{0}, listed{0};
    run_threads(2, [&] {
      for (std::size_t k; (k = next++) < cubins.size();) listed += disassemble_cubin(*choice.tool, dir / cubins[k]).functions.size();
    });
    functions = listed;
  }
  state.counters["cubins"] = static_cast<double>(cubins.size());
  state.counters["disassembler_runs"] = static_cast<double>(cubins.size());
  state.counters["kernels"] = static_cast<double>(functions);
  fs::remove_all(dir);
}
BENCHMARK(BM_DisassembleCatalogOneProcessPerCubin)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

// The naive way: one process per kernel (cuobjdump -sass -fun ENTRY CUBIN), 32 kernels of the sm_90
// catalog; s_per_kernel x catalog_kernels is what the whole catalog would take that way (an
// extrapolation, not a run).
static void BM_DisassembleNaiveOneProcessPerKernel(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  DisassemblerChoice choice = disassembler(tc);
  // cuobjdump beside the chosen disassembler: -fun takes a name there (nvdisasm's takes an index).
  std::optional<Disassembler> cuobjdump;
  if (choice.tool) cuobjdump = probe_disassembler(fs::path(choice.tool->path).parent_path() / "cuobjdump");
  if (!cuobjdump) {
    state.SkipWithError("the naive way needs cuobjdump (-fun NAME) beside the disassembler");
    return;
  }
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-sass-naive";
  Catalog built = build_catalog(suite, tc, read_kernel_skeletons(PTXCTS_SOURCE_DIR "/kernels"), dir, 2, nullptr, {},
                                std::vector<std::string>{"sm_90"});
  std::vector<const Assembly*> sample, accepted;
  for (auto const& a : built.assemblies)
    if (a.accepted) accepted.push_back(&a);
  for (std::size_t n = 0; n < accepted.size() && sample.size() < 32;
       n += std::max<std::size_t>(1, accepted.size() / 32))
    sample.push_back(accepted[n]);
  std::string failed;
  for (auto _ : state)
    for (const Assembly* a : sample)
      if (auto r = disassemble_function(*cuobjdump, dir / a->cubin, a->entry); !r.error.empty() && failed.empty())
        failed = a->entry + ": " + r.error;
  if (!failed.empty()) state.SkipWithError(failed.c_str());
  state.counters["kernels"] = static_cast<double>(sample.size());
  state.counters["s_per_kernel"] =
      benchmark::Counter(static_cast<double>(sample.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["catalog_kernels"] = static_cast<double>(accepted.size());
  fs::remove_all(dir);
}
BENCHMARK(BM_DisassembleNaiveOneProcessPerKernel)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

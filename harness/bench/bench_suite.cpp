// What a run costs on the host: loading specs, the reference model and case data for every
// (kernel, case), one ptxas assembly of one kernel and of a batch of kernels, a warm catalog
// rebuild (every assembly from the cache), cold catalogs by number of targets, and the whole audit
// cold and warm. Catalog builds count their ptxas processes (ptxas_runs): kernels go in batches.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <random>
#include <fstream>
#include <sstream>

#include "assemble/assembly_batch.hpp"
#include "assemble/catalog.hpp"
#include "judge/audit.hpp"
#include "judge/audit_plan.hpp"
#include "judge/version_ladder.hpp"
#include "kinds/kinds.hpp"
#include "kinds/matrix_move/case_data.hpp"
#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "spec/spec_loader.hpp"
#include "util/subprocess.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {
const std::string kSpecs = PTXCTS_SOURCE_DIR "/specs";
KernelSkeletons skeleton() { return read_kernel_skeletons(PTXCTS_SOURCE_DIR "/kernels"); }
}  // namespace

static void BM_LoadSpecsAndBuildSuite(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(build_suite(load_spec_dir(kSpecs)).kernels.size());
}
BENCHMARK(BM_LoadSpecsAndBuildSuite)->Unit(benchmark::kMillisecond);

// Everything the host does per launch except the device: case data plus expected state.
static void BM_CaseDataAndReferenceModel_AllKernelsAndCases(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  std::size_t launches = 0;
  for (auto _ : state) {
    for (auto const& k : suite.kernels) {
      if (!k.runnable()) continue;
      const InstructionKind& kind = kind_of(k);
      for (auto const& c : suite.specs.cases.cases) {
        if (!kind.takes(k, c) || c.fault != Fault::None) continue;  // fault cases have no expected state
        auto prepared = kind.prepare(suite.specs.cases, c, k);
        benchmark::DoNotOptimize(
            prepared->check(prepared->input.state).comparison.mismatches);  // the input stands in for a result
        ++launches;
      }
    }
  }
  state.counters["launches/s"] = benchmark::Counter(static_cast<double>(launches), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CaseDataAndReferenceModel_AllKernelsAndCases)->Unit(benchmark::kMillisecond);

// One ptxas process on one kernel: the unit cost of a cold catalog.
static void BM_AssembleOneKernelWithPtxas(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-assemble";
  fs::create_directories(dir);
  std::ofstream(dir / "k.ptx") << emit_kernel_ptx(skeleton(), suite.kernels.front(), "sm_90", {7, 8});
  for (auto _ : state) benchmark::DoNotOptimize(assemble(tc, dir / "k.ptx", "sm_90", dir / "k.cubin").accepted());
  fs::remove_all(dir);
}
BENCHMARK(BM_AssembleOneKernelWithPtxas)->Unit(benchmark::kMillisecond)->UseRealTime();

// One ptxas process on N kernels as entries of one module (those PTX ISA 7.8 can express, for
// sm_90, where ptxas accepts them all): what a catalog batch costs, per kernel.
static void BM_AssembleOneBatchWithPtxas(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  std::vector<std::string> texts;
  for (auto const& k : suite.kernels) {
    bool expressible = true;
    for (auto const* s : k.steps) expressible = expressible && !(PtxVersion{7, 8} < s->min_ptx());
    if (!expressible) continue;
    texts.push_back(emit_kernel_ptx(skeleton(), k, "sm_90", {7, 8}));
    if (texts.size() == static_cast<std::size_t>(state.range(0))) break;
  }
  std::vector<ModuleParts> parts;
  std::vector<BatchMember> members;
  for (auto const& t : texts) parts.push_back(*split_module(t));
  for (std::size_t k = 0; k < texts.size(); ++k)
    members.push_back(
        {std::string_view(texts[k]).substr(parts[k].entry_offset), parts[k].entry_line, "k" + std::to_string(k)});
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-batch";
  fs::create_directories(dir);
  std::ofstream(dir / "b.ptx") << compose_batch(parts.front().header, members).text;
  bool accepted = false;
  for (auto _ : state) accepted = assemble(tc, dir / "b.ptx", "sm_90", dir / "b.cubin").accepted();
  if (!accepted) state.SkipWithError("ptxas rejected the batch");
  state.counters["kernels"] = static_cast<double>(members.size());
  state.counters["kernels/s"] = benchmark::Counter(
      static_cast<double>(members.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  fs::remove_all(dir);
}
BENCHMARK(BM_AssembleOneBatchWithPtxas)->Arg(8)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();

// A rebuild with nothing changed: every (kernel, target) emitted, hashed and found in the cache.
static void BM_WarmCatalogRebuild(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  fs::path dir = fs::temp_directory_path() / "ptxcts-bench-catalog";
  KernelSkeletons sk = skeleton();
  build_catalog(suite, tc, sk, dir, 2);  // cold, outside the timing
  CatalogStats stats;
  for (auto _ : state) build_catalog(suite, tc, sk, dir, 2, &stats);
  state.counters["assembled"] = stats.assembled;
  state.counters["cached"] = stats.cached;
  state.counters["ptxas_runs"] = stats.ptxas_runs;
  fs::remove_all(dir);
}
BENCHMARK(BM_WarmCatalogRebuild)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// Cold catalogs of the first 12 kernels for the first N targets: how the cost grows with targets.
static void BM_ColdCatalogByTargets(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  suite.kernels.resize(12);
  suite.specs.forms.clear();
  Toolchain tc = Toolchain::discover();
  tc.real_targets.resize(static_cast<std::size_t>(state.range(0)));
  KernelSkeletons sk = skeleton();
  CatalogStats stats;
  for (auto _ : state) {
    fs::path dir = fs::temp_directory_path() / "ptxcts-bench-cold";
    fs::remove_all(dir);
    build_catalog(suite, tc, sk, dir, 2, &stats);
    fs::remove_all(dir);
  }
  state.counters["assemblies/s"] = benchmark::Counter(
      static_cast<double>(stats.assembled) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["assembled"] = stats.assembled;
  state.counters["ptxas_runs"] = stats.ptxas_runs;
}
BENCHMARK(BM_ColdCatalogByTargets)
    ->Arg(1)
    ->Arg(6)
    ->Arg(12)
    ->Arg(23)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

// The whole audit of one toolkit from nothing (every probe of the plan: the grammar on every target,
// its negative space, the examples, the version probes, then the version ladders their answers call
// for), and warm (nothing changed).
// CPU seconds of this process and the children it waited for (ptxas), user and system: on a
// machine other work shares, the figure that says what the audit costs.
static double cpu_seconds_with_children() {
  double s = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    s += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  return s;
}

static void BM_AuditCold(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  ProbeStats stats;
  std::size_t probes = 0;
  const double cpu0 = cpu_seconds_with_children();
  for (auto _ : state) {
    fs::path dir = fs::temp_directory_path() / "ptxcts-bench-audit";
    fs::remove_all(dir);
    AuditPlan plan = plan_audit(suite, tc);
    auto verdicts = ask_audit(plan, suite.specs, [&](const std::vector<Probe>& p) {
      ProbeStats round;  // each round's ptxas runs, both rounds counted
      auto v = assemble_probes(tc, p, dir, 2, ProbeMode::ParseOnly, &round);
      stats.ptxas_runs += round.ptxas_runs;
      stats.distinct += round.distinct;
      stats.modules += round.modules;
      return v;
    });
    benchmark::DoNotOptimize(judge_audit(suite, plan, verdicts).findings.size());
    probes = plan.probes.size();
    fs::remove_all(dir);
  }
  state.counters["probes"] = static_cast<double>(probes);
  state.counters["ptxas_runs"] = static_cast<double>(stats.ptxas_runs);
  state.counters["distinct"] = static_cast<double>(stats.distinct);  // judged: the repeats of identical probes left out
  state.counters["modules"] = static_cast<double>(stats.modules);
  state.counters["probes/s"] = benchmark::Counter(static_cast<double>(probes) * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["cpu_s_with_ptxas"] = (cpu_seconds_with_children() - cpu0) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_AuditCold)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Warm in process: the plan made and judged anew, every verdict read from the cache (each round's
// one record: assemble_probes keeps a call's verdicts whole). Its probes stay for BM_AuditWarmCommand.
static fs::path warm_catalog() { return fs::temp_directory_path() / "ptxcts-bench-audit-warm"; }

static void BM_AuditWarm(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  fs::path dir = warm_catalog() / "probes";
  ProbeStats stats;
  auto ask = [&](const std::vector<Probe>& p) { return assemble_probes(tc, p, dir, 2, ProbeMode::ParseOnly, &stats); };
  AuditPlan first = plan_audit(suite, tc);
  ask_audit(first, suite.specs, ask);
  stats = {};
  for (auto _ : state) {
    AuditPlan plan = plan_audit(suite, tc);
    auto verdicts = ask_audit(plan, suite.specs, ask);
    benchmark::DoNotOptimize(judge_audit(suite, plan, verdicts).findings.size());
  }
  state.counters["cached"] = static_cast<double>(stats.cached);
  state.counters["distinct"] = static_cast<double>(stats.distinct);
  state.counters["whole_call_cached"] = stats.whole_call_cached;
  state.counters["ptxas_runs"] = static_cast<double>(stats.ptxas_runs);
}
BENCHMARK(BM_AuditWarm)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// `ptxcts audit` warm, as a user runs it with nothing changed, a whole process: its reports up to
// date (this program, the specs and ptxas as when they were written), so it says again what it said.
// The first, untimed, writes the reports from BM_AuditWarm's probes (run it in the same run).
static void BM_AuditWarmCommand(benchmark::State& state) {
  const fs::path catalog = warm_catalog(), reports = catalog / "reports";
  const std::vector<std::string> audit = {PTXCTS_COMMAND, "--specs", kSpecs, "audit", "--catalog", catalog.string(),
                                          "--reports", reports.string(), "--no-history"};
  run_process(audit, 600);
  bool up_to_date = false;
  for (auto _ : state) up_to_date = run_process(audit, 600).output.find("audit: up to date") != std::string::npos;
  if (!up_to_date) state.SkipWithError("the second audit was not up to date");
  fs::remove_all(catalog);
}
BENCHMARK(BM_AuditWarmCommand)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// The naive way, for comparison in the same run: one ptxas process per probe, a full assembly for
// the real target, on a fixed random sample of 300 of the audit's probes; the counters give the
// time per probe and what the whole audit would take that way (extrapolated: say so).
static void BM_AuditNaiveOneProcessPerProbe(benchmark::State& state) {
  Suite suite = build_suite(load_spec_dir(kSpecs));
  Toolchain tc = Toolchain::discover();
  AuditPlan plan = plan_audit(suite, tc);
  std::vector<Probe> sample;
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, plan.probes.size() - 1);
  for (int k = 0; k < 300; ++k) {
    Probe p = plan.probes[pick(rng)];
    if (!p.arch.empty()) p.arch = p.arch.replace(0, 8, "sm_");  // a .target ptxas no longer knows: its oldest real one
    sample.push_back(std::move(p));
  }
  for (auto _ : state) {
    fs::path dir = fs::temp_directory_path() / "ptxcts-bench-naive";
    fs::remove_all(dir);
    for (auto const& p : sample) benchmark::DoNotOptimize(assemble_probes(tc, {p}, dir, 1, ProbeMode::Full));
    fs::remove_all(dir);
  }
  state.counters["probes"] = static_cast<double>(sample.size());
  state.counters["s_per_probe"] = benchmark::Counter(static_cast<double>(sample.size()) * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["audit_probes"] = static_cast<double>(plan.probes.size());
  // The same rate as BM_AuditCold's probes/s (one process at a time here, two there), and what the
  // whole audit would take this way: extrapolated from the sample, not measured.
  const double asked = static_cast<double>(sample.size()) * static_cast<double>(state.iterations());
  state.counters["probes/s"] = benchmark::Counter(asked, benchmark::Counter::kIsRate);
  state.counters["audit_s_extrapolated"] = benchmark::Counter(asked / static_cast<double>(plan.probes.size()),
                                                              benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_AuditNaiveOneProcessPerProbe)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

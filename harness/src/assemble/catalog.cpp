#include "assemble/catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "assemble/assembly_batch.hpp"
#include "assemble/assembly_cache.hpp"
#include "assemble/catalog_index.hpp"
#include "util/worker_threads.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// Kernels per batch module: past a few dozen, ptxas's cost per entry no longer falls (about 8 ms),
// and smaller batches keep every worker busy and make a batch's rounds cheaper.
constexpr std::size_t kBatchKernels = 128;

// One unit of work for a thread: a module alone, or a batch; `weight` assemblies for progress.
struct Work {
  Job* job = nullptr;
  Batch* batch = nullptr;
  std::size_t weight = 1;
};

void run_parallel(std::vector<Work>& work, int threads, const Toolchain& tc, const fs::path& dir,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
  std::size_t total = 0;
  for (auto const& w : work) total += w.weight;
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex report;
  const std::size_t step = std::max<std::size_t>(1, total / 10);
  auto worker = [&] {
    for (std::size_t k; (k = next++) < work.size();) {
      if (work[k].batch) run_batch(tc, dir, *work[k].batch);
      else run_job(tc, dir, *work[k].job);
      std::size_t before = done.fetch_add(work[k].weight), d = before + work[k].weight;
      if (progress && (d / step != before / step || d == total)) {
        std::lock_guard lock(report);
        progress(d, total);
      }
    }
  };
  run_threads(threads, worker);
}

}  // namespace

CatalogScope catalog_scope(const Suite& suite, const Toolchain& tc) {
  CatalogScope scope;
  // The binary's own word; targets.yaml's toolkits: table only for a stand-in that has none (the
  // audit checks the table against the binary).
  auto tk = suite.specs.targets.toolkits.find(tc.release);
  if (tc.ptx_isa != PtxVersion{}) scope.toolkit_ptx = tc.ptx_isa;
  else if (tk != suite.specs.targets.toolkits.end()) scope.toolkit_ptx = tk->second;
  else
    throw std::runtime_error(fmt::format(
        "ptxas {} did not say which PTX ISA version it speaks, nor does specs/targets.yaml (toolkits:)", tc.version));
  // In targets.yaml's order (by architecture), keeping those this ptxas knows.
  for (auto const& t : suite.specs.targets.targets)
    if (std::find(tc.real_targets.begin(), tc.real_targets.end(), t.name) != tc.real_targets.end())
      scope.targets.push_back(t.name);
  return scope;
}

PtxVersion kernel_min_ptx(const KernelPlan& kernel) {
  PtxVersion v{};
  for (auto const* s : kernel.steps) v = std::max(v, s->min_ptx());
  return v;
}

namespace {

// What is to be assembled, and where each verdict goes. Kernels that cannot share a module are
// assembled alone; the other kernels go in batches of one target and one
// module header, in suite order.
struct AssemblyPlan {
  std::vector<Job> alone;
  std::vector<std::size_t> alone_slots;  // per job in `alone`: its assembly
  std::vector<Batch> batches;
  std::vector<std::vector<std::size_t>> batch_slots;                   // per batch: its assemblies
  std::map<std::pair<std::string, std::string>, std::size_t> filling;  // (target, header) -> batch

  void add_alone(Job job, std::size_t index) {
    alone.push_back(std::move(job));
    alone_slots.push_back(index);
  }
  // A kernel's module that can share one: into the open batch of its target and header, or a new one.
  void add_to_batch(Job job, const ModuleParts& parts, const std::string& entry, std::size_t assembly) {
    auto [at, fresh] = filling.try_emplace({job.target, parts.header}, 0);
    if (fresh || batches[at->second].kernels.size() == kBatchKernels) {
      at->second = batches.size();
      batches.push_back({.target = job.target, .header = parts.header, .kernels = {}, .ptxas_runs = 0});
      batch_slots.emplace_back();
    }
    batches[at->second].kernels.push_back({.alone = std::move(job),
                                           .entry_offset = parts.entry_offset,
                                           .entry_line = parts.entry_line,
                                           .entry = entry,
                                           .outcome = {},
                                           .cubin = "",
                                           .cubin_seal = "",
                                           .cubin_entry = ""});
    batch_slots[at->second].push_back(assembly);
  }
};

Job make_job(const std::string& target, std::string ptx_text, const Toolchain& tc) {
  Job j;
  j.target = target;
  j.ptx_text = std::move(ptx_text);
  j.key = content_key(j.ptx_text, target, tc.version);
  return j;
}

// Batch modules rename each kernel's entry after its name: two names must not give one entry.
void check_entry_names(const std::vector<KernelPlan>& kernels) {
  std::map<std::string, std::string> entries;  // entry name -> kernel
  for (auto const& k : kernels) {
    const std::string entry = entry_name(k.name);
    if (auto [at, fresh] = entries.emplace(entry, k.name); !fresh)
      throw std::runtime_error(
          fmt::format("kernels {} and {} would have the same entry name {}", at->second, k.name, entry));
  }
}

// One kernel on every target of the catalog, at its version or the target's, if newer; those
// beyond the toolkit's PTX ISA version are recorded as not attempted.
void plan_kernel(const KernelPlan& k, const Suite& suite, const Toolchain& tc, const KernelSkeletons& skeleton,
                 Catalog& cat, AssemblyPlan& plan) {
  const std::string entry = entry_name(k.name);
  const PtxVersion kernel_ptx = kernel_min_ptx(k);
  const std::string instruction = kernel_instruction_text(k);  // the same for every target
  for (auto const& tname : cat.targets) {
    const TargetInfo& t = *suite.specs.targets.find(tname);
    Assembly a;
    a.kernel = k.name;
    a.target = tname;
    a.ptx = std::max(kernel_ptx, t.ptx);
    a.instruction = instruction;
    if (cat.toolkit_ptx < a.ptx) {
      a.attempted = false;
      a.message = fmt::format("needs PTX ISA {}; this toolkit speaks {}", a.ptx.str(), cat.toolkit_ptx.str());
      cat.assemblies.push_back(a);
      continue;
    }
    Job j = make_job(tname, emit_kernel_ptx(skeleton, k, tname, a.ptx), tc);
    a.ptx_file = "cache/" + j.key + ".ptx";
    if (auto parts = split_module(j.ptx_text)) plan.add_to_batch(std::move(j), *parts, entry, cat.assemblies.size());
    else plan.add_alone(std::move(j), cat.assemblies.size());
    cat.assemblies.push_back(a);
  }
}

// Batches first, the largest first, so that no long one starts last; then the modules alone.
void run_plan(AssemblyPlan& plan, int jobs, const Toolchain& tc, const fs::path& dir,
              const std::function<void(std::size_t, std::size_t)>& progress) {
  std::vector<Work> work;
  for (auto& b : plan.batches) work.push_back({.batch = &b, .weight = b.kernels.size()});
  std::stable_sort(work.begin(), work.end(), [](const Work& x, const Work& y) { return x.weight > y.weight; });
  for (auto& j : plan.alone) work.push_back({.job = &j, .weight = 1});
  run_parallel(work, std::max(1, jobs), tc, dir, progress);
}

// What each batch said about each of its kernels, into their assemblies.
void collect_batches(const AssemblyPlan& plan, Catalog& cat, CatalogStats& s) {
  for (std::size_t n = 0; n < plan.batches.size(); ++n) {
    const Batch& b = plan.batches[n];
    s.ptxas_runs += b.ptxas_runs;
    for (std::size_t m = 0; m < b.kernels.size(); ++m) {
      const BatchKernel& bk = b.kernels[m];
      (b.ptxas_runs ? s.assembled : s.cached)++;
      Assembly& a = cat.assemblies[plan.batch_slots[n][m]];
      a.accepted = bk.outcome.accepted();
      a.message = bk.outcome.message;
      a.cubin = bk.cubin;
      a.cubin_seal = bk.cubin_seal;
      a.entry = bk.cubin_entry;
      if (bk.outcome.error()) a.error = bk.outcome.why(), ++s.errors;
    }
  }
}

// What ptxas said about each module assembled alone, into its assembly.
void collect_alone(const AssemblyPlan& plan, Catalog& cat, CatalogStats& s) {
  for (std::size_t n = 0; n < plan.alone.size(); ++n) {
    const Job& j = plan.alone[n];
    (j.cached ? s.cached : s.assembled)++;
    s.ptxas_runs += !j.cached;
    const std::string error = j.outcome.error() ? j.outcome.why() : "";
    s.errors += !error.empty();
    Assembly& a = cat.assemblies[plan.alone_slots[n]];
    a.accepted = j.outcome.accepted();
    a.message = j.outcome.message;
    a.error = error;
    if (a.accepted) {
      a.cubin = "cache/" + j.key + ".cubin";
      a.cubin_seal = j.cubin_seal;
      a.entry = kSkeletonEntry;
    }
  }
}

}  // namespace

Catalog build_catalog(const Suite& suite, const Toolchain& tc, const KernelSkeletons& skeleton, const fs::path& dir,
                      int jobs, CatalogStats* stats, const std::function<void(std::size_t, std::size_t)>& progress,
                      const std::optional<std::vector<std::string>>& targets, const CatalogOrigin& origin) {
  Catalog cat;
  cat.ptxas_version = tc.version;
  cat.cuda_release = tc.release;
  cat.ptxas_targets = tc.real_targets;
  cat.origin = origin;
  CatalogScope scope = catalog_scope(suite, tc);
  cat.toolkit_ptx = scope.toolkit_ptx;
  cat.ptx_isa_read_by = tc.ptx_isa_read_by.empty() ? "specs/targets.yaml's toolkits: table" : tc.ptx_isa_read_by;
  if (targets) {
    for (auto const& t : *targets)
      if (std::find(scope.targets.begin(), scope.targets.end(), t) == scope.targets.end())
        throw std::invalid_argument(fmt::format("unknown target '{}'; ptxas {} with these specs knows {}", t,
                                                tc.version, fmt::join(scope.targets, ", ")));
    std::erase_if(scope.targets, [&](const std::string& t) {
      return std::find(targets->begin(), targets->end(), t) == targets->end();
    });
  }
  cat.targets = std::move(scope.targets);
  fs::create_directories(dir / "cache");

  check_entry_names(suite.kernels);
  AssemblyPlan plan;
  for (auto const& k : suite.kernels) plan_kernel(k, suite, tc, skeleton, cat, plan);
  run_plan(plan, jobs, tc, dir, progress);

  CatalogStats s;
  collect_batches(plan, cat, s);
  collect_alone(plan, cat, s);
  for (auto const& a : cat.assemblies) s.not_attempted += !a.attempted;
  if (stats) *stats = s;
  save_catalog_indexed(cat, dir);
  return cat;
}

Toolchain catalog_toolchain(const Catalog& c, const std::string& ptxas) {
  Toolchain tc;
  tc.ptxas = ptxas;
  tc.version = c.ptxas_version;
  tc.release = c.cuda_release;
  tc.real_targets = c.ptxas_targets;
  tc.ptx_isa = c.toolkit_ptx;
  tc.ptx_isa_read_by = "the catalog's manifest (" + c.ptx_isa_read_by + ")";
  return tc;
}

}  // namespace ptxcts

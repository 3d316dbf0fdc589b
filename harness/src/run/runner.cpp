#include "run/runner.hpp"

#include <fmt/format.h>

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "model/case_check.hpp"
#include "model/compare.hpp"
#include "run/cubin_selection.hpp"
#include "run/device_protocol.hpp"
#include "util/subprocess.hpp"
#include "kinds/wmma/wmma_model.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

struct Pending {
  std::size_t result;  // index into results
  const KernelPlan* kernel;
  std::vector<ModelStep> steps;
  LaunchInput input;
  const CaseSpec* spec = nullptr;
};

// Region 1's rows equal region 0's input rows: what a load/store round trip must give.
bool roundtrip_identity(const Pending& p, const LaunchState& actual) {
  const Layout& L = p.steps[0].layout;
  const LaunchShape& s = p.input.shape;
  const std::size_t row_bytes = static_cast<std::size_t>(L.cols * L.element_bits / 8);
  for (int w = 0; w < s.warps; ++w)
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (!L.active[static_cast<std::size_t>(lane)]) continue;
      std::size_t t = static_cast<std::size_t>(w * kWarpLanes + lane), tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(s.tile_bytes);
      std::size_t from = tile + p.input.offsets[t], to = tile + p.input.offsets[static_cast<std::size_t>(s.threads()) + t];
      for (std::size_t b = 0; b < row_bytes; ++b)
        if (actual.smem[to + b] != p.input.state.smem[from + b]) return false;
    }
  return true;
}

// A run's own directory for its job and result files: runs at the same time (ctest -j, two
// shells) never share one, and the catalog may be read-only. Removed when the run ends, failed or
// not: every result is in the run's results and journal, and the job file is made again from the
// suite and the catalog.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const fs::path& parent) {
    fs::create_directories(parent);
    std::string name = (parent / "ptxcts-run-XXXXXX").string();
    if (!mkdtemp(name.data()))
      throw std::runtime_error(fmt::format("{}: cannot make the run's scratch directory: {}", name, std::strerror(errno)));
    path = name;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

DeviceRun run_on_device(const Suite& suite, const Catalog& catalog, const DeviceInfo& device, const RunOptions& opt) {
  DeviceRun run;
  std::vector<Pending> pending;
  std::vector<DeviceJob> jobs;

  for (auto const& k : suite.kernels) {
    if (!opt.families.empty() && !opt.families.count(k.family)) continue;
    std::string instruction;
    for (auto const* s : k.steps) instruction += (instruction.empty() ? "" : " ; ") + s->mnemonic();
    CubinChoice choice = select_cubin(suite.specs.targets, catalog, k, device.major, device.minor);
    std::string skip = choice.skip, error = choice.error;
    if (skip.empty() && error.empty() && !k.runnable())
      skip = "the spec gives this form's syntax and requirements but no layout yet, so nothing can check its result";
    const Assembly* a = choice.assembly;
    for (auto const& c : suite.specs.cases.cases) {
      if (!k.takes(c)) continue;
      if (auto d = opt.done.find({k.name, c.name}); d != opt.done.end()) {  // resumed: already known
        run.results.push_back(d->second);
        continue;
      }
      CaseResult r;
      r.fault_case = c.fault != Fault::None;
      r.kernel = k.name;
      r.family = k.family;
      r.instruction = instruction;
      r.case_name = c.name;
      if (!skip.empty() || !error.empty()) {
        r.status = skip.empty() ? Status::Error : Status::Skip;
        r.reason = skip.empty() ? error : skip;
        if (opt.journal) opt.journal->append(r);
        run.results.push_back(r);
        continue;
      }
      r.target = a->target;
      r.ptx_isa = a->ptx.str();
      Pending p{run.results.size(), &k, k.model_steps(), {}, &c};
      try {
        p.input = case_input(suite.specs.cases, c, k, p.steps);
      } catch (const std::exception& e) {
        r.status = Status::Error;
        r.reason = fmt::format("cannot build the case's data: {}", e.what());
        if (opt.journal) opt.journal->append(r);
        run.results.push_back(r);
        continue;
      }
      jobs.push_back({.id = static_cast<std::uint32_t>(jobs.size()),
                      .cubin = fs::absolute(opt.catalog_dir / a->cubin).string(),
                      .kernel_name = a->entry,
                      .label = k.name + "/" + c.name,
                      .input = p.input});
      run.results.push_back(r);
      pending.push_back(std::move(p));
    }
  }

  // Hand the launches to the device runner; after a fault it exits and a fresh one goes on from
  // the next launch, so that one bad case never costs another. Results are compared as they arrive.
  const ScratchDir scratch(opt.work_dir.empty() ? fs::temp_directory_path() : opt.work_dir);
  fs::path jobs_file = scratch.path / fmt::format("device{}-jobs.bin", device.ordinal);
  fs::path results_file = scratch.path / fmt::format("device{}-results.bin", device.ordinal);
  {
    std::ofstream out(jobs_file, std::ios::binary | std::ios::trunc);
    write_jobs(out, jobs);
  }
  { std::ofstream truncate(results_file, std::ios::binary | std::ios::trunc); }

  std::vector<bool> finished(pending.size(), false);
  std::map<const KernelPlan*, int> left;  // cases of each kernel still to finish
  for (auto const& p : pending) ++left[p.kernel];
  std::size_t kernels_done = 0;
  auto finish = [&](std::size_t n, const DeviceResult* got, const std::string& lost_reason, Status lost_status = Status::Crash) {
    if (n >= pending.size() || finished[n]) return;
    finished[n] = true;
    Pending& p = pending[n];
    CaseResult& r = run.results[p.result];
    if (!got) {
      r.status = lost_status;
      r.reason = lost_reason;
    } else if (!got->ok) {
      r.status = Status::Crash;
      r.reason = got->error;
    } else {
      try {
        Comparison cmp = check_case(*p.kernel, p.steps, p.input, got->state);
        if (p.kernel->is_wmma() && p.spec->data == DataKind::Unique && !p.spec->wide_stride && p.spec->fault == Fault::None)
          r.observed_layout = observe_wmma_layout(*p.kernel, p.input, got->state);
        r.mismatches = cmp.mismatches;
        r.diff = cmp.diff;
        r.status = cmp.mismatches == 0 ? Status::Pass : Status::Fail;
        if (cmp.mismatches) r.reason = fmt::format("{} element(s) differ from the reference model", cmp.mismatches);
        if (!p.kernel->claim.empty() && !p.kernel->is_wmma())
          r.roundtrip_identity = roundtrip_identity(p, got->state);
      } catch (const std::exception& e) {
        r.status = r.fault_case ? Status::Fail : Status::Error;
        r.reason = r.fault_case ? fmt::format("the GPU did not fault, and the reference model cannot say what it should give: {}", e.what())
                                : fmt::format("reference model: {}", e.what());
      }
    }
    if (opt.journal) opt.journal->append(r);
    if (--left[p.kernel] == 0 && opt.progress) {
      int pass = 0, total = 0, faults = 0, faulted = 0;
      for (auto const& q : pending) {
        if (q.kernel != p.kernel) continue;
        const CaseResult& qr = run.results[q.result];
        if (qr.fault_case) { ++faults; faulted += qr.status == Status::Crash || qr.status == Status::Timeout; continue; }
        ++total;
        pass += qr.status == Status::Pass;
      }
      opt.progress(fmt::format("[{:>3}/{}] {:<5} {} ({}/{} cases pass{})", ++kernels_done, left.size(), pass == total ? "pass" : "FAIL",
                               p.kernel->name, pass, total, faults ? fmt::format("; fault cases: {} of {} faulted", faulted, faults) : ""));
    }
  };

  std::ifstream results_in(results_file, std::ios::binary);
  auto drain = [&] {
    while (auto g = read_result(results_in)) finish(g->id, &*g, "");
  };
  // The runner's exit codes (device_protocol.hpp): done, stopped after recording a device fault, or
  // cannot run at all; anything else (a signal, an abort) means it died inside the launch after its
  // last record.
  std::size_t next = 0;
  while (next < jobs.size()) {
    ProcessResult pr = run_process({opt.runner, "--device", std::to_string(device.ordinal), "--jobs", jobs_file.string(),
                                    "--results", results_file.string(), "--start", std::to_string(next)},
                                   0, [&](const std::string& line) { if (line.rfind("done ", 0) == 0) drain(); }, opt.case_timeout);
    drain();
    std::size_t after = next;
    while (after < jobs.size() && finished[after]) ++after;
    if (pr.exit_code == kDeviceDone && pr.signal == 0 && after == jobs.size()) break;
    if (pr.exit_code == kDeviceUsage || pr.exit_code == kDeviceUnusable || pr.exit_code == 127 || (pr.exit_code == kDeviceDone && pr.signal == 0)) {
      for (std::size_t k = after; k < jobs.size(); ++k) finish(k, nullptr, "the device runner could not run: " + pr.output);
      break;
    }
    if (pr.went_quiet) {  // the watchdog: the launch in flight hung
      finish(after, nullptr, fmt::format("no result within {} s; the device runner was killed", opt.case_timeout), Status::Timeout);
      ++after;
    } else if (pr.exit_code != kDeviceFaulted || after == next) {
      finish(after, nullptr, pr.signal ? fmt::format("the device runner died with signal {} during this launch", pr.signal)
                                       : fmt::format("the device runner exited with {} during this launch", pr.exit_code));
      ++after;
    }
    next = after;
  }
  return run;
}

}  // namespace ptxcts

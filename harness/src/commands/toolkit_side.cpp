#include "commands/toolkit_side.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "commands/catalog_command.hpp"
#include "commands/run_console.hpp"
#include "commands/toolkit_audit.hpp"
#include "judge/claims.hpp"
#include "kinds/kinds.hpp"
#include "report/run/report_junit.hpp"
#include "run/case_selection.hpp"
#include "util/atomic_file.hpp"

namespace ptxcts {

namespace {

// Assemblies counted by what became of them.
struct AssemblyCounts {
  int accepted = 0, rejected = 0, not_attempted = 0, failed = 0;
  void add(const Assembly& a) { (!a.attempted ? not_attempted : !a.error.empty() ? failed : a.accepted ? accepted : rejected)++; }
};

void print_catalog_line(const Catalog& c, Verbosity v) {
  AssemblyCounts all;
  for (auto const& a : c.assemblies) all.add(a);
  if (v != Verbosity::Quiet)
    fmt::print("\nCatalog (ptxas {}, {} targets): {} assemblies accepted, {} rejected, {} beyond its PTX ISA{}\n",
               c.ptxas_version, c.targets.size(), all.accepted, all.rejected, all.not_attempted,
               all.failed ? fmt::format(", {} ptxas failed", all.failed) : "");
  if (v != Verbosity::Verbose) return;
  for (auto const& t : c.targets) {
    AssemblyCounts n;
    for (auto const& a : c.assemblies)
      if (a.target == t) n.add(a);
    fmt::print("  {:<8} {:>4} accepted  {:>4} rejected  {:>4} not attempted{}\n", t, n.accepted, n.rejected,
               n.not_attempted, n.failed ? fmt::format("  {:>4} ptxas failed", n.failed) : "");
  }
}

// The report a run without a GPU stands for: every case it would have run, skipped with the reason,
// and the claims the toolkit alone judged.
RunReport no_gpu_report(const Suite& suite, const Catalog& c, std::vector<ClaimVerdict> claims, const NoGpuRun& run) {
  RunReport r;
  r.info = {.gpu_name = "no GPU",
            .cuda_release = c.cuda_release,
            .ptxas_version = c.ptxas_version,
            .ptx_isa = c.toolkit_ptx.str(),
            .toolchain = cubin_toolchain(c.ptxas_version),
            .host = host_name(),
            .date = utc_now(),
            .suite_version = program().version,
            .suite_commit = program().commit};
  for (auto const& k : suite.kernels) {
    if (!run.families.empty() && std::find(run.families.begin(), run.families.end(), k.family) == run.families.end())
      continue;
    std::string instruction;  // as the runner names it (run/runner)
    for (auto const* s : k.steps) instruction += (instruction.empty() ? "" : " ; ") + s->mnemonic();
    for (auto const& cs : suite.specs.cases.cases) {
      if (!kind_of(k).takes(k, cs) || !selected_case(run.globs, case_id(k.name, cs.name))) continue;
      CaseResult x;
      x.kernel = k.name;
      x.family = k.family;
      x.instruction = instruction;
      x.case_name = cs.name;
      x.status = Status::Skip;
      x.reason = "no GPU: " + run.reason;
      r.results.push_back(std::move(x));
    }
  }
  r.claims = std::move(claims);
  return r;
}

}  // namespace

std::string no_gpu_junit_name(const Catalog& c) {
  return c.cuda_release.empty() ? std::string("no-gpu.xml") : "no-gpu-cuda" + c.cuda_release + ".xml";
}

void print_toolkit_side(const Suite& suite, const Catalog& c, const Paths& paths, Verbosity v, const NoGpuRun& run) {
  print_catalog_line(c, v);
  std::string said;
  ToolkitAudit a = audit_toolkit(suite, catalog_audit_toolchain(c, paths), paths, &said);
  if (v == Verbosity::Verbose) fmt::print("{}", said);
  print_audit_findings(stdout, a.audit, v);
  std::vector<ClaimVerdict> claims = evaluate_claims(suite, a.audit, {}, "no GPU on this machine");
  // The JUnit file, so that a CI's junit step finds one; a folder that cannot be written only says so.
  std::string junit = (std::filesystem::path(paths.reports) / no_gpu_junit_name(c)).string();
  try {
    std::filesystem::create_directories(paths.reports);
    write_file_atomically(junit, report_junit(no_gpu_report(suite, c, claims, run)));
  } catch (const std::exception& e) {
    fmt::print("run: the JUnit file was not written: {}\n", e.what());
    junit.clear();
  }
  print_toolkit_side_end(stdout, claims, v, junit);
}

}  // namespace ptxcts

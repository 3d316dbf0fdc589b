#include "commands/toolkit_audit.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

namespace ptxcts {

ToolkitAudit audit_toolkit(const Suite& suite, const Toolchain& tc, const Paths& p, std::string* said) {
  const auto t0 = std::chrono::steady_clock::now();
  ToolkitAudit a;
  a.plan = plan_audit(suite, tc);
  const double planned = seconds_since(t0);
  ProbeStats stats;
  a.verdicts = assemble_probes(tc, a.plan.probes, std::filesystem::path(p.catalog) / "probes", p.jobs,
                               ProbeMode::ParseOnly, &stats);
  const double assembled = seconds_since(t0);
  a.audit = judge_audit(suite, a.plan, a.verdicts);
  std::string text = fmt::format(
      "audit: {} probes (ptxas {}, {} targets): {} ptxas runs, {} probes from cache, in {:.2f} s (plan {:.2f} s, "
      "probes {:.2f} s, judging {:.2f} s)\n",
      a.plan.probes.size(), tc.version, a.plan.targets.size(), stats.ptxas_runs, stats.cached, seconds_since(t0),
      planned, assembled - planned, seconds_since(t0) - assembled);
  for (auto const& e : a.audit.errors) text += fmt::format("  ptxas failed: {}\n", e);
  if (said) *said += text;
  else fmt::print("{}", text);
  return a;
}

}  // namespace ptxcts

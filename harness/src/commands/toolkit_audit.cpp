#include "commands/toolkit_audit.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "judge/version_ladder.hpp"

namespace ptxcts {

ToolkitAudit audit_toolkit(const Suite& suite, const Toolchain& tc, const Paths& p, std::string* said) {
  const auto t0 = std::chrono::steady_clock::now();
  ToolkitAudit a;
  a.plan = plan_audit(suite, tc);
  const double planned = seconds_since(t0);
  ProbeStats stats;
  // Two rounds: the plan's probes, then the version ladders their answers call for.
  std::size_t ladder_probes = 0;
  double ladder_seconds = 0;
  a.verdicts = ask_audit(a.plan, suite.specs, [&](const std::vector<Probe>& probes) {
    const auto r0 = std::chrono::steady_clock::now();
    ProbeStats round;
    auto verdicts =
        assemble_probes(tc, probes, std::filesystem::path(p.catalog) / "probes", p.jobs, ProbeMode::ParseOnly, &round);
    if (stats.probes) ladder_probes = probes.size(), ladder_seconds = seconds_since(r0);
    stats.probes += probes.size();
    stats.ptxas_runs += round.ptxas_runs;
    stats.cached += round.cached;
    stats.distinct += round.distinct;
    stats.modules += round.modules;
    return verdicts;
  });
  const double assembled = seconds_since(t0);
  a.audit = judge_audit(suite, a.plan, a.verdicts);
  std::string text = fmt::format(
      "audit: {} probes (ptxas {}, {} targets; {} distinct, in {} modules): {} ptxas runs, {} probes from cache, in "
      "{:.2f} s (plan {:.2f} s, probes {:.2f} s, of which the version ladders' {} {:.2f} s, judging {:.2f} s)\n",
      a.plan.probes.size(), tc.version, a.plan.targets.size(), stats.distinct, stats.modules, stats.ptxas_runs,
      stats.cached, seconds_since(t0),
      planned, assembled - planned, ladder_probes, ladder_seconds, seconds_since(t0) - assembled);
  for (auto const& e : a.audit.errors) text += fmt::format("  ptxas failed: {}\n", e);
  if (said) *said += text;
  else fmt::print("{}", text);
  return a;
}

}  // namespace ptxcts

#include "commands/toolkit_side.hpp"

#include <fmt/format.h>

#include "commands/catalog_command.hpp"
#include "commands/run_console.hpp"
#include "commands/toolkit_audit.hpp"
#include "judge/claims.hpp"

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

}  // namespace

void print_toolkit_side(const Suite& suite, const Catalog& c, const Paths& paths, Verbosity v) {
  print_catalog_line(c, v);
  std::string said;
  ToolkitAudit a = audit_toolkit(suite, catalog_audit_toolchain(c, paths), paths, &said);
  if (v == Verbosity::Verbose) fmt::print("{}", said);
  print_audit_findings(stdout, a.audit, v);
  print_toolkit_side_end(stdout, evaluate_claims(suite, a.audit, {}, "no GPU on this machine"), v);
}

}  // namespace ptxcts

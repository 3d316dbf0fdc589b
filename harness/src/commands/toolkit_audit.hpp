// The audit of one toolkit as the commands run it: every probe of the plan, parse-only, cached
// beside the catalog (probes/), judged; its summary line said on stdout or handed back.
#pragma once

#include <string>
#include <vector>

#include "assemble/probe_assembly.hpp"
#include "commands/command_context.hpp"
#include "judge/audit.hpp"
#include "judge/audit_plan.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

struct ToolkitAudit {
  AuditPlan plan;
  std::vector<ProbeVerdict> verdicts;
  Audit audit;
};

// `said`, if given, takes the summary line instead of stdout (an audit run beside the GPU work).
ToolkitAudit audit_toolkit(const Suite& suite, const Toolchain& tc, const Paths& p, std::string* said = nullptr);

}  // namespace ptxcts

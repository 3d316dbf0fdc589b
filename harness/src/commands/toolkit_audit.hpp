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

// The plan and its verdicts are hundreds of MB of small objects, made and dropped at once: the heap
// grows 256 MB at a time and keeps what is freed, instead of giving memory back to the kernel and
// faulting it in again (a warm audit of ptxas 13.0: 0.39 s -> 0.30 s). Called before the specs are
// read: set once the audit starts, after them, it saves nothing.
void keep_the_heap_for_an_audit();

// `said`, if given, takes the summary line instead of stdout (an audit run beside the GPU work).
ToolkitAudit audit_toolkit(const Suite& suite, const Toolchain& tc, const Paths& p, std::string* said = nullptr);

}  // namespace ptxcts

// The PTX ISA version ladder: the audit's second round of questions. Where the first round's
// answers about a version disagree with the documents (a form rejected at its documented minimum
// PTX ISA version or accepted below it; a target accepted before, or rejected at, its first
// version), or where a statement is about versions by its nature (a hand-listed form of a feature
// the documents say is removed from a version on), the same probe is asked again at every PTX ISA version the toolkit
// knows, from the oldest targets.yaml lists to the toolkit's own. A finding then states the real
// bound ("accepted from PTX ISA 6.3; the documents say 6.0"), and a window as one ("accepted only
// from PTX ISA 6.3 to 6.4").
//
// Why not every form on every version: the documented forms (about 1,500) on the ~26 versions a
// toolkit knows would add some 40,000 probes, doubling the cold audit, to re-ask what the first
// round already answers: a form accepted at its minimum and at the toolkit's own version (the
// grammar's probe) and rejected below is taken as accepted in between, and says so.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/audit_plan.hpp"

namespace ptxcts {

// What a ladder's verdicts say, in words: "accepted from PTX ISA 6.3", "accepted only from PTX ISA
// 6.3 to 6.4", "accepted at PTX ISA 6.3 to 6.4 and 7.0 to 9.0", "rejected at every PTX ISA version
// asked"; `targets` the targets the rungs were asked on.
struct LadderReading {
  std::optional<PtxVersion> first, last;  // the oldest and newest accepted version
  bool window = false;                    // accepted, but not up to the newest version asked
  bool gaps = false;                      // rejected at a version between two accepted ones
  bool decided = false;                   // ptxas gave a verdict on every rung
  std::string text;
};
LadderReading read_ladder(const std::vector<VersionRung>& ladder, const std::vector<ProbeVerdict>& verdicts);

// Appends to the plan the ladders that the first round's verdicts (plan.probes' order) call for:
// their probes and, on each subject, its rungs.
void plan_version_ladders(AuditPlan& plan, const SpecSet& specs, const std::vector<ProbeVerdict>& verdicts);

// Asks the plan's probes, then the ladders their answers call for; the verdicts of both rounds, in
// plan.probes' order. `ask` answers probes in order (assemble_probes, or a test's stand-in).
using AskProbes = std::function<std::vector<ProbeVerdict>(const std::vector<Probe>&)>;
std::vector<ProbeVerdict> ask_audit(AuditPlan& plan, const SpecSet& specs, const AskProbes& ask);

}  // namespace ptxcts

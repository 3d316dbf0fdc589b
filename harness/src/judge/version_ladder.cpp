#include "judge/version_ladder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "judge/version_spellings.hpp"

namespace ptxcts {
namespace {

// The diagnostic class (specs/diagnostics.yaml) of a hand-listed form that is about versions and may
// show a window: a feature removed from a version on. (A form too old for its feature says what the
// version subjects' first round already asks: at the documented minimum and below.)
const std::set<std::string> kVersionDiagnostics = {"removed-feature"};

// Where the rungs go: a target of targets.yaml the version knows, asked under the oldest
// architecture this ptxas knows when ptxas itself no longer knows the target (sm_70, sm_72).
struct RungTargets {
  const TargetCatalog& cat;
  const std::vector<std::string>& real;

  std::string arch(const std::string& t) const {
    const bool known = std::find(real.begin(), real.end(), t) != real.end();
    return known || real.empty() ? "" : "compute_" + real.front().substr(3);
  }
  // The first target supporting `inst` that `v` knows (portable first, then the lowest architecture).
  const TargetInfo* for_instance(const Instance& inst, PtxVersion v) const {
    const TargetInfo* best = nullptr;
    for (auto const& t : cat.targets) {
      if (v < t.ptx || !supports(cat, inst, t)) continue;
      auto key = [](const TargetInfo& x) { return std::tuple(!x.suffix.empty(), x.arch); };
      if (!best || key(t) < key(*best)) best = &t;
    }
    return best;
  }
  // The oldest portable target not newer than `name` that `v` knows: one target for every rung where
  // it can be (its modules shared with the other ladders'), the reading then says which.
  const TargetInfo* for_form(const std::string& name, PtxVersion v) const {
    const TargetInfo* home = cat.find(name);
    const TargetInfo* best = nullptr;
    for (auto const& t : cat.targets)
      if (home && t.suffix.empty() && t.arch <= home->arch && !(v < t.ptx) && (!best || t.arch < best->arch))
        best = &t;
    return best;
  }
};

struct LadderBuilder {
  AuditPlan& plan;
  const SpecSet& specs;
  const std::vector<ProbeVerdict>& v;
  RungTargets targets{.cat = specs.targets, .real = plan.targets};

  // Every version targets.yaml lists, up to the toolkit's own.
  std::vector<PtxVersion> versions() const {
    std::vector<PtxVersion> out;
    for (auto const& p : specs.targets.ptx_versions)
      if (!(plan.toolkit_ptx < p)) out.push_back(p);
    return out;
  }
  bool answered(const std::optional<OnTarget>& on) const { return on && v[on->probe].error.empty(); }
  bool accepted(const std::optional<OnTarget>& on) const { return answered(on) && v[on->probe].accepted; }
  bool rejected(const std::optional<OnTarget>& on) const { return answered(on) && !v[on->probe].accepted; }

  VersionRung rung(const std::string& target, PtxVersion version, const std::string& body) {
    // Group 0: a version's rungs of every ladder in as few modules as its targets allow (a ptxas run
    // costs more than the entries; the rejected rungs' errors are pinned on their lines).
    plan.probes.push_back(
        {.target = target, .ptx = version, .body = body, .arch = targets.arch(target), .group = 0});
    return {.version = version, .on = {.target = target, .probe = plan.probes.size() - 1}};
  }

  void version_subject(VersionSubject& vs) {
    if (!rejected(vs.at) && !accepted(vs.below)) return;
    const Instance& inst = *plan.grammar[vs.of].cc.instance;
    // The grammar's probe (spelled at the toolkit's version), a copy: rung() grows plan.probes;
    // each rung spelled as the documents spell the form at its version.
    const std::string body = plan.probes[plan.grammar[vs.of].on.front().probe].body;
    for (auto const& p : versions()) {
      const TargetInfo* t = targets.for_instance(inst, p);
      vs.ladder.push_back(rung(t ? t->name : vs.at->target, p, spelled_at(specs, body, p)));
    }
  }

  void target_subject(TargetVersionSubject& ts) {
    if (!rejected(ts.at) && !accepted(ts.below)) return;
    for (auto const& p : versions()) ts.ladder.push_back(rung(ts.target->name, p, ""));
  }

  void form_subject(FormSubject& fs) {
    if (!answered(fs.on) || !kVersionDiagnostics.count(fs.form->diagnostic)) return;
    const std::string body = plan.probes[fs.on->probe].body;
    for (auto const& p : versions())
      if (const TargetInfo* t = targets.for_form(fs.form->target, p)) fs.ladder.push_back(rung(t->name, p, body));
  }
};

// Versions as runs: "6.3 to 6.4", "7.0".
std::string runs_text(const std::vector<std::pair<PtxVersion, PtxVersion>>& runs) {
  std::vector<std::string> parts;
  for (auto const& [a, b] : runs) parts.push_back(a == b ? a.str() : a.str() + " to " + b.str());
  return fmt::format("{}", fmt::join(parts, " and "));
}

}  // namespace

LadderReading read_ladder(const std::vector<VersionRung>& ladder, const std::vector<ProbeVerdict>& verdicts) {
  LadderReading r;
  if (ladder.empty()) return r;
  r.decided = true;
  std::vector<std::pair<PtxVersion, PtxVersion>> runs;  // accepted versions, in runs
  std::set<std::string> on;
  bool open = false;  // the last rung was accepted
  for (auto const& rung : ladder) {
    const ProbeVerdict& pv = verdicts[rung.on.probe];
    on.insert(rung.on.target);
    if (!pv.error.empty()) {
      r.decided = false;
      open = false;
      continue;
    }
    if (pv.accepted && open) runs.back().second = rung.version;
    else if (pv.accepted) runs.push_back({rung.version, rung.version});
    open = pv.accepted;
  }
  std::vector<std::string> targets(on.begin(), on.end());
  const std::string asked = fmt::format("every PTX ISA version from {} to {} asked, on {}", ladder.front().version.str(),
                                        ladder.back().version.str(), fmt::join(targets, ", "));
  if (runs.empty()) {
    r.text = "rejected at every PTX ISA version (" + asked + ")";
    return r;
  }
  r.first = runs.front().first;
  r.last = runs.back().second;
  r.gaps = runs.size() > 1;
  r.window = runs.back().second != ladder.back().version;
  if (!r.gaps && !r.window) r.text = "accepted from PTX ISA " + r.first->str();
  else if (!r.gaps) r.text = fmt::format("accepted only from PTX ISA {} to {}", r.first->str(), r.last->str());
  else r.text = "accepted only at PTX ISA " + runs_text(runs);
  r.text += " (" + asked + ")";
  return r;
}

void plan_version_ladders(AuditPlan& plan, const SpecSet& specs, const std::vector<ProbeVerdict>& verdicts) {
  LadderBuilder b{.plan = plan, .specs = specs, .v = verdicts};
  for (auto& vs : plan.versions) b.version_subject(vs);
  for (auto& ts : plan.target_versions) b.target_subject(ts);
  for (auto& fs : plan.forms) b.form_subject(fs);
}

std::vector<ProbeVerdict> ask_audit(AuditPlan& plan, const SpecSet& specs, const AskProbes& ask) {
  std::vector<ProbeVerdict> verdicts = ask(plan.probes);
  const std::size_t first = plan.probes.size();
  plan_version_ladders(plan, specs, verdicts);
  if (plan.probes.size() == first) return verdicts;
  std::vector<Probe> more(plan.probes.begin() + static_cast<std::ptrdiff_t>(first), plan.probes.end());
  std::vector<ProbeVerdict> answers = ask(more);
  verdicts.insert(verdicts.end(), answers.begin(), answers.end());
  return verdicts;
}

}  // namespace ptxcts

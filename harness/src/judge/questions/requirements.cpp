// Each variant's documented targets (QuestionKind::GrammarForms: every documented form on every
// target) and minimum PTX ISA versions (QuestionKind::PtxVersions: at the version and one below),
// judged into requirements and findings.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "judge/version_ladder.hpp"

namespace ptxcts {
namespace {

struct Requirements : AuditContext {
  void requirements();
  // requirements(): each variant's documented targets and minimum PTX ISA versions.
  struct TargetTally {
    std::set<std::string> accepted_on, rejected_on;
    int checked = 0, failed = 0, beyond = 0;  // beyond: forms newer than the toolkit's PTX ISA
  };
  struct VersionTally {
    int at_ok = 0, below_ok = 0, below_other = 0, untried = 0;
  };
  std::map<std::string, std::vector<const GrammarSubject*>> target_groups(const Variant& var) const;
  RequirementVerdict target_requirement(const Variant& var, const std::string& boundary,
                                        const std::vector<const GrammarSubject*>& subjects);
  void judge_target_probe(RequirementVerdict& rv, const std::string& finding_key, const GrammarSubject& g,
                          const OnTarget& on, TargetTally& tally);
  std::string in_target_order(const std::set<std::string>& s) const;
  std::string targets_not_known(const std::vector<const GrammarSubject*>& subjects) const;
  void target_evidence(RequirementVerdict& rv, const TargetTally& tally,
                       const std::vector<const GrammarSubject*>& subjects) const;
  std::map<PtxVersion, std::vector<const VersionSubject*>> version_groups(const Variant& var) const;
  RequirementVerdict version_requirement(const Variant& var, const PtxVersion& min,
                                         const std::vector<const VersionSubject*>& subjects);
  void judge_version_probes(RequirementVerdict& r, const PtxVersion& min, const VersionSubject& vs,
                            VersionTally& tally);
  void version_evidence(RequirementVerdict& r, const PtxVersion& min, std::size_t forms,
                        const VersionTally& tally) const;
};

// The qualifier values of an instance that carry a target requirement of their own ("" if none):
// each such set of values is a requirement judged on exactly its forms.
std::string target_boundary(const Instance& inst) {
  std::string key;
  for (auto const& a : inst.variant().axes) {
    const QualifierOption& o = inst.option(a.name);
    if (o.requires_.targets) key += (key.empty() ? "" : " ") + o.text;
  }
  return key;
}

void Requirements::requirements() {
  for (auto const& var : suite.specs.variants) {
    for (auto const& [boundary, subjects] : target_groups(var))
      audit.requirements.push_back(target_requirement(var, boundary, subjects));
    for (auto const& [min, subjects] : version_groups(var))
      audit.requirements.push_back(version_requirement(var, min, subjects));
  }
}

// Every documented form of the variant, by target boundary: forms whose qualifier values carry a
// target requirement of their own are a requirement of their own. At least the variant's own ("").
std::map<std::string, std::vector<const GrammarSubject*>> Requirements::target_groups(const Variant& var) const {
  std::map<std::string, std::vector<const GrammarSubject*>> groups;
  for (auto const& g : plan.grammar)
    if (g.cc.doc == DocClass::Valid && &g.cc.instance->variant() == &var)
      groups[target_boundary(*g.cc.instance)].push_back(&g);
  if (groups.empty()) groups[""];
  return groups;
}

// The targets requirement of a variant (or of its forms past a boundary): every form on every target.
RequirementVerdict Requirements::target_requirement(const Variant& var, const std::string& boundary,
                                                    const std::vector<const GrammarSubject*>& subjects) {
  std::string documented = var.requires_.targets->text, source = var.requires_.source;
  if (!boundary.empty() && !subjects.empty())
    for (auto const* r : subjects.front()->cc.instance->requirements())
      if (r != &var.requires_ && r->targets) documented += " and " + r->targets->text, source = r->source;
  RequirementVerdict rv{.variant = var.name,
                        .family = var.family,
                        .requirement = boundary.empty() ? "targets" : "targets (" + boundary + ")",
                        .documented = documented,
                        .source = source,
                        .verdict = Verdict::NotCheckable,
                        .evidence = "",
                        .mismatches = {},
                        .known = {}};
  const std::string finding_key = boundary.empty() ? "targets" : "targets-" + boundary;
  TargetTally tally;
  for (auto const* g : subjects)
    for (auto const& on : g->on) judge_target_probe(rv, finding_key, *g, on, tally);
  target_evidence(rv, tally, subjects);
  return rv;
}

// One form on one target against the documented targets; a disagreement is a mismatch (or a known
// one) and a finding.
void Requirements::judge_target_probe(RequirementVerdict& rv, const std::string& finding_key, const GrammarSubject& g,
                                      const OnTarget& on, TargetTally& tally) {
  const bool documented_ok = supports(suite.specs.targets, *g.cc.instance, *suite.specs.targets.find(on.target));
  // A form of a PTX ISA version newer than the toolkit's is not known to it: no rejection.
  if (documented_ok && plan.toolkit_ptx < g.cc.instance->min_ptx()) {
    ++tally.beyond;
    return;
  }
  if (!decided(on, g.cc.combo.text)) {
    ++tally.failed;
    return;
  }
  const ProbeVerdict& pv = verdict(on);
  ++tally.checked;
  (pv.accepted ? tally.accepted_on : tally.rejected_on).insert(on.target);
  if (documented_ok == pv.accepted) return;
  std::string m = fmt::format("{} on {}: documented {}, ptxas {}", g.instruction, on.target,
                              documented_ok ? "supported" : "unsupported", accepted_or(pv));
  const KnownDiscrepancy* kd = known_for(rv.variant, on.target, pv.accepted);
  if (kd) {
    used.insert(kd);
    rv.known.push_back(m + " [known: " + kd->source + "]");
  } else {
    rv.mismatches.push_back(m);
  }
  const bool accepts = pv.accepted;
  Finding& f = findings.at(
      QuestionKind::GrammarForms,
      fmt::format("{}/requirement/{}/{}", accepts ? "toolkit-accepts" : "toolkit-rejects", rv.variant, finding_key),
      accepts ? FindingClass::ToolkitAccepts : FindingClass::ToolkitRejects, false, rv.variant + " " + rv.requirement,
      "requires " + rv.documented, rv.source);
  findings.saw(f, g.instruction, on.target, accepted_or(pv));
  if (kd) f.known = kd;
}

// The targets of the set, in the plan's order ("none" if none).
std::string Requirements::in_target_order(const std::set<std::string>& s) const {
  std::vector<std::string> out;
  for (auto const& t : plan.targets)
    if (s.count(t)) out.push_back(t);
  return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, ", "));
}

// The targets the documents name for these forms that this toolkit does not know: not known, not rejected.
std::string Requirements::targets_not_known(const std::vector<const GrammarSubject*>& subjects) const {
  std::vector<std::string> unknown;
  for (auto const& t : suite.specs.targets.targets)
    if (std::find(plan.targets.begin(), plan.targets.end(), t.name) == plan.targets.end() && !subjects.empty() &&
        supports(suite.specs.targets, *subjects.front()->cc.instance, t))
      unknown.push_back(t.name);
  return unknown.empty() ? "" : fmt::format("; not known to this toolkit: {}", fmt::join(unknown, ", "));
}

// The verdict of a targets requirement and the evidence for it, from its tally.
void Requirements::target_evidence(RequirementVerdict& rv, const TargetTally& tally,
                                   const std::vector<const GrammarSubject*>& subjects) const {
  const std::string not_known = targets_not_known(subjects);
  if (tally.checked == 0) {
    rv.evidence = tally.failed ? fmt::format("ptxas failed on all {} probes", tally.failed)
                  : tally.beyond
                      ? fmt::format(
                            "its {} assemblies need PTX ISA {}, newer than this toolkit's {}: not "
                            "known to this toolkit",
                            tally.beyond, subjects.front()->cc.instance->min_ptx().str(), plan.toolkit_ptx.str())
                  : subjects.empty() ? "no documented form of this variant in the grammar"
                                     : "no target it needs is known to this toolkit";
    rv.evidence += not_known;
  } else if (!rv.mismatches.empty()) {
    rv.verdict = Verdict::Contradicted;
    rv.evidence = fmt::format("{} of {} assemblies of {} forms disagree with the documented targets; first: {}",
                              rv.mismatches.size(), tally.checked, subjects.size(), rv.mismatches.front());
  } else if (!rv.known.empty()) {
    rv.verdict = Verdict::Contradicted;
    rv.evidence = fmt::format("{} of {} assemblies disagree, each a known discrepancy; first: {}", rv.known.size(),
                              tally.checked, rv.known.front());
  } else {
    rv.verdict = Verdict::Confirmed;
    rv.evidence =
        fmt::format("{} assemblies of {} forms agree: accepted on {}; rejected on {}{}", tally.checked, subjects.size(),
                    in_target_order(tally.accepted_on), in_target_order(tally.rejected_on), not_known);
  }
}

// The variant's version subjects by the minimum PTX ISA version each documents.
std::map<PtxVersion, std::vector<const VersionSubject*>> Requirements::version_groups(const Variant& var) const {
  std::map<PtxVersion, std::vector<const VersionSubject*>> by_min;
  for (auto const& vs : plan.versions)
    if (&plan.grammar[vs.of].cc.instance->variant() == &var) by_min[vs.documented].push_back(&vs);
  return by_min;
}

// A documented minimum PTX ISA version: at it on a supporting target, and one below.
RequirementVerdict Requirements::version_requirement(const Variant& var, const PtxVersion& min,
                                                     const std::vector<const VersionSubject*>& subjects) {
  std::string documented = fmt::format("PTX ISA {}", min.str()), source = var.requires_.source;
  for (auto const& a : var.axes)
    for (auto const& o : a.options)
      if (o.requires_.ptx && *o.requires_.ptx == min && !(var.requires_.ptx && *var.requires_.ptx == min)) {
        documented += fmt::format(" ({})", o.text);
        source = o.requires_.source;
      }
  RequirementVerdict r{.variant = var.name,
                       .family = var.family,
                       .requirement = "ptx " + min.str(),
                       .documented = documented,
                       .source = source,
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .mismatches = {},
                       .known = {}};
  VersionTally tally;
  for (auto const* vs : subjects) judge_version_probes(r, min, *vs, tally);
  version_evidence(r, min, subjects.size(), tally);
  return r;
}

// One form at the documented version (it should be accepted) and at the one below (it should be
// rejected, ptxas naming the version requirement).
void Requirements::judge_version_probes(RequirementVerdict& r, const PtxVersion& min, const VersionSubject& vs,
                                        VersionTally& tally) {
  const std::string& ins = plan.grammar[vs.of].instruction;
  const std::string subject = r.variant + " " + r.documented, words = "introduced in " + r.documented;
  const LadderReading ladder = read_ladder(vs.ladder, v);
  const std::string asked = vs.ladder.empty() ? "" : "; " + ladder.text;
  if (!vs.at) ++tally.untried;
  if (vs.at && decided(*vs.at, ins + " at PTX ISA " + min.str())) {
    const ProbeVerdict& pv = verdict(*vs.at);
    if (pv.accepted) ++tally.at_ok;
    else {
      r.mismatches.push_back(
          fmt::format("{} on {} at PTX ISA {}: {}{}", ins, vs.at->target, min.str(), accepted_or(pv), asked));
      Finding& f = findings.at(QuestionKind::PtxVersions,
                               fmt::format("toolkit-rejects/requirement/{}/ptx-{}", r.variant, min.str()),
                               FindingClass::ToolkitRejects, false, subject, words, r.source);
      findings.saw(f, ins, vs.at->target, accepted_or(pv));
      if (!vs.ladder.empty()) ++ladders[f.id][ladder.text];
    }
  }
  if (vs.below && decided(*vs.below, ins + " at PTX ISA " + vs.below_version.str())) {
    const ProbeVerdict& pv = verdict(*vs.below);
    if (pv.accepted) {
      r.mismatches.push_back(fmt::format("{} on {} at PTX ISA {}: accepted below the documented minimum{}", ins,
                                         vs.below->target, vs.below_version.str(), asked));
      Finding& f = findings.at(QuestionKind::PtxVersions,
                               fmt::format("toolkit-accepts/requirement/{}/ptx-{}", r.variant, min.str()),
                               FindingClass::ToolkitAccepts, false, subject, words, r.source);
      findings.saw(f, ins, vs.below->target, "accepted at PTX ISA " + vs.below_version.str());
      if (!vs.ladder.empty()) ++ladders[f.id][ladder.text];
    } else if (names_version_requirement(pv.message)) ++tally.below_ok;
    else ++tally.below_other;
  }
}

// The verdict of a version requirement and the evidence for it, from its tally.
void Requirements::version_evidence(RequirementVerdict& r, const PtxVersion& min, std::size_t forms,
                                    const VersionTally& tally) const {
  if (!r.mismatches.empty()) {
    r.verdict = Verdict::Contradicted;
    r.evidence =
        fmt::format("{} disagreement(s) in {} forms; first: {}", r.mismatches.size(), forms, r.mismatches.front());
  } else if (tally.at_ok && tally.below_ok) {
    r.verdict = Verdict::Confirmed;
    r.evidence = fmt::format(
        "{} forms accepted at PTX ISA {} on a supporting target; {} rejected at the version below, ptxas naming "
        "the version requirement",
        tally.at_ok, min.str(), tally.below_ok);
  } else {
    r.evidence = plan.toolkit_ptx < min
                     ? fmt::format("PTX ISA {} is newer than this toolkit's {}: not known to this toolkit", min.str(),
                                   plan.toolkit_ptx.str())
                 : tally.at_ok == 0
                     ? fmt::format("no supporting target known at PTX ISA {} ({} forms)", min.str(), tally.untried)
                     : fmt::format(
                           "the version below is not known to the documents or ptxas named no "
                           "version requirement ({} probes)",
                           tally.below_other);
  }
}

}  // namespace

void judge_requirements(AuditContext& cx) { Requirements{cx}.requirements(); }

}  // namespace ptxcts

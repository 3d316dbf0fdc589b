#include "judge/audit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "kinds/mma/formula_text.hpp"
#include "judge/fragment_sections.hpp"
#include "judge/type_shape_product.hpp"
#include "judge/version_ladder.hpp"
#include "judge/target_agreement.hpp"

namespace ptxcts {
namespace {

// What ptxas said, in one line: its first error (else first) line, without the file and line prefix.
std::string said(const std::string& message) {
  std::size_t at = message.find("error");
  std::size_t start = at == std::string::npos ? 0 : message.rfind('\n', at);
  start = start == std::string::npos || at == std::string::npos ? 0 : start + 1;
  std::string line = message.substr(start, message.find('\n', start) - start);
  if (auto semi = line.find("; "); line.rfind("ptxas ", 0) == 0 && semi != std::string::npos) line.erase(0, semi + 2);
  return line;
}

// ptxas says so when a feature needs a newer PTX ISA version (rather than a target the version does not know).
bool names_version_requirement(const std::string& message) {
  return message.find("requires PTX ISA") != std::string::npos;
}

// Findings gathered by id, in the order first seen.
struct Findings {
  std::vector<Finding> list;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::set<std::string>> forms, targets;

  Finding& at(const std::string& id, FindingClass cls, bool undocumented, const std::string& subject,
              const std::string& words, const std::string& source) {
    auto [it, fresh] = index.emplace(id, list.size());
    if (fresh)
      list.push_back({.id = id,
                      .cls = cls,
                      .undocumented = undocumented,
                      .subject = subject,
                      .words = words,
                      .source = source,
                      .observed = "",
                      .targets = {},
                      .forms = 0,
                      .example = "",
                      .known = nullptr});
    return list[it->second];
  }
  void saw(Finding& f, const std::string& form, const std::string& target, const std::string& observed) {
    if (f.example.empty()) f.example = form;
    if (f.observed.empty()) f.observed = observed;
    forms[f.id].insert(form);
    if (!target.empty()) targets[f.id].insert(target);
    f.forms = forms[f.id].size();
  }
  void finish(const std::vector<std::string>& order) {
    for (auto& f : list)
      for (auto const& t : order)
        if (targets[f.id].count(t)) f.targets.push_back(t);
    for (auto& f : list)  // targets the toolkit does not know (sm_70 probes)
      for (auto const& t : targets[f.id])
        if (std::find(f.targets.begin(), f.targets.end(), t) == f.targets.end()) f.targets.push_back(t);
  }
};

std::string accepted_or(const ProbeVerdict& v) { return v.accepted ? "accepted" : "rejected: " + said(v.message); }

struct Judge {
  const Suite& suite;
  const AuditPlan& plan;
  const std::vector<ProbeVerdict>& v;
  Audit& audit;
  Findings findings{};
  std::set<const KnownDiscrepancy*> used{};
  // Version findings whose forms were asked at every version: finding id -> what the ladder said -> forms.
  std::map<std::string, std::map<std::string, std::size_t>> ladders{};

  const ProbeVerdict& verdict(const OnTarget& on) const { return v[on.probe]; }
  // Whether ptxas gave a verdict; records the failure otherwise.
  bool decided(const OnTarget& on, const std::string& what) {
    const ProbeVerdict& pv = verdict(on);
    if (pv.error.empty()) return true;
    audit.errors.push_back(fmt::format("{} on {}: {}", what, on.target, pv.error));
    return false;
  }

  const KnownDiscrepancy* known_for(const std::string& variant, const std::string& target, bool accepted) {
    for (auto const& k : suite.specs.known_discrepancies)
      if (k.form.empty() && k.finding.empty() && k.variant == variant && k.target == target &&
          k.observed_accepted == accepted)
        return &k;
    return nullptr;
  }

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
  void rules_and_blocks();
  void unencoded(const GrammarSubject& g, const std::vector<std::string>& accepted_on);
  void negative_space();
  void examples();
  void example_disagreement(const ExampleSubject& e, const std::vector<std::string>& ok, const std::string& observed);
  void fragment_shapes();
  std::string said_on(const std::string& form, const std::vector<OnTarget>& on,
                      std::vector<std::pair<std::string, std::string>>& seen);
  void register_claims();
  void formula_texts();
  void sparse_fragments();
  void versions_of_targets();
  void forms();
  void ladder_findings();
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

void Judge::requirements() {
  for (auto const& var : suite.specs.variants) {
    for (auto const& [boundary, subjects] : target_groups(var))
      audit.requirements.push_back(target_requirement(var, boundary, subjects));
    for (auto const& [min, subjects] : version_groups(var))
      audit.requirements.push_back(version_requirement(var, min, subjects));
  }
}

// Every documented form of the variant, by target boundary: forms whose qualifier values carry a
// target requirement of their own are a requirement of their own. At least the variant's own ("").
std::map<std::string, std::vector<const GrammarSubject*>> Judge::target_groups(const Variant& var) const {
  std::map<std::string, std::vector<const GrammarSubject*>> groups;
  for (auto const& g : plan.grammar)
    if (g.cc.doc == DocClass::Valid && &g.cc.instance->variant() == &var)
      groups[target_boundary(*g.cc.instance)].push_back(&g);
  if (groups.empty()) groups[""];
  return groups;
}

// The targets requirement of a variant (or of its forms past a boundary): every form on every target.
RequirementVerdict Judge::target_requirement(const Variant& var, const std::string& boundary,
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
void Judge::judge_target_probe(RequirementVerdict& rv, const std::string& finding_key, const GrammarSubject& g,
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
      fmt::format("{}/requirement/{}/{}", accepts ? "toolkit-accepts" : "toolkit-rejects", rv.variant, finding_key),
      accepts ? FindingClass::ToolkitAccepts : FindingClass::ToolkitRejects, false, rv.variant + " " + rv.requirement,
      "requires " + rv.documented, rv.source);
  findings.saw(f, g.instruction, on.target, accepted_or(pv));
  if (kd) f.known = kd;
}

// The targets of the set, in the plan's order ("none" if none).
std::string Judge::in_target_order(const std::set<std::string>& s) const {
  std::vector<std::string> out;
  for (auto const& t : plan.targets)
    if (s.count(t)) out.push_back(t);
  return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, ", "));
}

// The targets the documents name for these forms that this toolkit does not know: not known, not rejected.
std::string Judge::targets_not_known(const std::vector<const GrammarSubject*>& subjects) const {
  std::vector<std::string> unknown;
  for (auto const& t : suite.specs.targets.targets)
    if (std::find(plan.targets.begin(), plan.targets.end(), t.name) == plan.targets.end() && !subjects.empty() &&
        supports(suite.specs.targets, *subjects.front()->cc.instance, t))
      unknown.push_back(t.name);
  return unknown.empty() ? "" : fmt::format("; not known to this toolkit: {}", fmt::join(unknown, ", "));
}

// The verdict of a targets requirement and the evidence for it, from its tally.
void Judge::target_evidence(RequirementVerdict& rv, const TargetTally& tally,
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
std::map<PtxVersion, std::vector<const VersionSubject*>> Judge::version_groups(const Variant& var) const {
  std::map<PtxVersion, std::vector<const VersionSubject*>> by_min;
  for (auto const& vs : plan.versions)
    if (&plan.grammar[vs.of].cc.instance->variant() == &var) by_min[vs.documented].push_back(&vs);
  return by_min;
}

// A documented minimum PTX ISA version: at it on a supporting target, and one below.
RequirementVerdict Judge::version_requirement(const Variant& var, const PtxVersion& min,
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
void Judge::judge_version_probes(RequirementVerdict& r, const PtxVersion& min, const VersionSubject& vs,
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
      Finding& f = findings.at(fmt::format("toolkit-rejects/requirement/{}/ptx-{}", r.variant, min.str()),
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
      Finding& f = findings.at(fmt::format("toolkit-accepts/requirement/{}/ptx-{}", r.variant, min.str()),
                               FindingClass::ToolkitAccepts, false, subject, words, r.source);
      findings.saw(f, ins, vs.below->target, "accepted at PTX ISA " + vs.below_version.str());
      if (!vs.ladder.empty()) ++ladders[f.id][ladder.text];
    } else if (names_version_requirement(pv.message)) ++tally.below_ok;
    else ++tally.below_other;
  }
}

// The verdict of a version requirement and the evidence for it, from its tally.
void Judge::version_evidence(RequirementVerdict& r, const PtxVersion& min, std::size_t forms,
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

void Judge::rules_and_blocks() {
  std::map<const GrammarRule*, std::pair<std::size_t, std::size_t>> rule_tally;  // forms forbidden, accepted
  std::map<std::pair<std::string, DocClass>, GrammarCount> counts;
  std::map<std::string, std::pair<std::size_t, std::size_t>> disagree;  // block -> forms, accepted somewhere
  for (auto const& g : plan.grammar) {
    const GrammarBlock& b = *g.cc.combo.block;
    GrammarCount& c = counts[{b.id, g.cc.doc}];
    c.block = b.id;
    c.family = b.family;
    c.document = b.cite.document;
    c.doc = g.cc.doc;
    ++c.forms;
    std::vector<std::string> accepted_on;
    for (auto const& on : g.on)
      if (decided(on, g.cc.combo.text) && verdict(on).accepted) {
        ++c.accepted[on.target];
        accepted_on.push_back(on.target);
      }
    for (auto const* r : g.cc.forbidden_by) {
      auto& [forms, accepted] = rule_tally[r];
      ++forms;
      accepted += !accepted_on.empty();
      // Accepted: against a rule of the block's own document, the toolkit takes what it forbids;
      // against another document's rule (the block's document spells the form), that document errs.
      if (!accepted_on.empty()) {
        const bool own = r->cite.document == b.cite.document;
        Finding& f = findings.at((own ? "toolkit-accepts/rule/" : "document-error/rule/") + r->id,
                                 own ? FindingClass::ToolkitAccepts : FindingClass::DocumentError, false, r->id,
                                 r->text, r->cite.source);
        for (auto const& t : accepted_on) findings.saw(f, g.instruction, t, "accepted");
      }
      // one document (or one section of it) spells what another forbids
      if (r->cite.document != b.cite.document || !r->other_section.empty()) {
        Finding& f = findings.at(fmt::format("documents-disagree/syntax/{}/{}", b.id, r->id),
                                 FindingClass::DocumentsDisagree, false, b.id + " vs " + r->id,
                                 fmt::format("{} ({}: {}) vs \"{}\" ({}: {})", b.manual, b.cite.document,
                                             b.cite.source, r->text, r->cite.document, r->cite.source),
                                 b.cite.source);
        findings.saw(f, g.instruction, accepted_on.empty() ? "" : accepted_on.front(),
                     accepted_on.empty() ? "ptxas rejects it on every target"
                                         : fmt::format("ptxas accepts it on {}", fmt::join(accepted_on, ", ")));
        auto& [n, acc] = disagree[b.id];
        ++n;
        acc += !accepted_on.empty();
      }
    }
    if (g.cc.doc == DocClass::Unencoded) unencoded(g, accepted_on);
    if (g.cc.doc == DocClass::Undocumented && !accepted_on.empty()) {
      Finding& f = findings.at("toolkit-accepts-undocumented/syntax/" + b.id, FindingClass::ToolkitAccepts, true, b.id,
                               "no document gives these combinations of " + b.manual, b.cite.source);
      for (auto const& t : accepted_on) findings.saw(f, g.instruction, t, "accepted");
    }
  }
  for (auto& [k, c] : counts) audit.grammar.push_back(std::move(c));
  for (auto const& r : suite.specs.rules) {
    auto [forms, accepted] = rule_tally[&r];
    StatementVerdict s{.id = r.id, .kind = "rule", .family = r.family, .words = r.text, .source = r.cite.source,
                       .verdict = Verdict::NotCheckable, .evidence = "", .forms = forms};
    if (forms == 0) s.evidence = "no combination of the grammar falls under it";
    else if (accepted) {
      s.verdict = Verdict::Contradicted;
      s.evidence = fmt::format("ptxas {} accepts {} of the {} forms it forbids", plan.ptxas_version, accepted, forms);
    } else {
      s.verdict = Verdict::Confirmed;
      s.evidence = fmt::format("ptxas {} rejects all {} forms it forbids, on every target", plan.ptxas_version, forms);
    }
    audit.statements.push_back(std::move(s));
  }
  for (auto const& b : suite.specs.grammar) {
    std::size_t valid = 0;
    for (auto const& c : audit.grammar)
      if (c.block == b.id && c.doc == DocClass::Valid) valid = c.forms;
    StatementVerdict s{.id = b.id, .kind = "syntax", .family = b.family, .words = b.manual, .source = b.cite.source,
                       .verdict = Verdict::NotCheckable, .evidence = "", .forms = b.product()};
    auto d = disagree.find(b.id);
    if (d != disagree.end()) {
      s.verdict = Verdict::Contradicted;
      s.evidence = fmt::format("{} of its {} combinations are forbidden by another document's rule ({} of them "
                               "accepted by ptxas somewhere)",
                               d->second.first, b.product(), d->second.second);
    } else if (valid) {
      s.verdict = Verdict::Confirmed;
      s.evidence = fmt::format("{} of its {} combinations are documented forms (judged under their variants' "
                               "requirements)",
                               valid, b.product());
    } else {
      s.evidence = "none of its combinations is a documented form";
    }
    audit.statements.push_back(std::move(s));
  }
}

// A combination the document spells (no rule of its own forbids it) that no variant encodes: its
// requirements are not in the specs, so it is judged only where ptxas refuses it on every target.
void Judge::unencoded(const GrammarSubject& g, const std::vector<std::string>& accepted_on) {
  if (!accepted_on.empty()) return;
  const GrammarBlock& b = *g.cc.combo.block;
  std::string newest;  // the newest target's message: the likeliest to know what the form spells
  for (auto it = g.on.rbegin(); it != g.on.rend() && newest.empty(); ++it)
    if (verdict(*it).error.empty()) newest = it->target + ": " + said(verdict(*it).message);
  if (newest.empty()) return;  // ptxas gave no verdict anywhere
  Finding& f = findings.at("toolkit-rejects/syntax/" + b.id, FindingClass::ToolkitRejects, false, b.id, b.manual,
                           b.cite.source);
  for (auto const& on : g.on)
    if (verdict(on).error.empty()) findings.saw(f, g.instruction, on.target, "rejected on every target; " + newest);
}

void Judge::negative_space() {
  std::map<std::tuple<std::string, std::string, DocClass>, MutationCount> counts;
  for (auto const& ms : plan.mutations) {
    const GrammarBlock& b = *plan.grammar[ms.of].cc.combo.block;
    MutationCount& c = counts[{b.id, ms.m.kind, ms.m.expected}];
    c.block = b.id;
    c.kind = ms.m.kind;
    c.expected = ms.m.expected;
    c.forms += ms.home;  // a question asked again on another target is counted once (its findings on each)
    if (!decided(ms.on, ms.instruction)) continue;
    const ProbeVerdict& pv = verdict(ms.on);
    if (ms.home) (pv.accepted ? c.accepted : c.rejected)++;
    if (pv.message.find(kPtxasCrashed) != std::string::npos) {  // rejected, and then ptxas crashed on it
      Finding& f = findings.at("toolkit-rejects-crashing/negative-space/" + b.id + "/" + ms.m.kind,
                               FindingClass::ToolkitRejects, true,
                               b.id + ": ptxas crashes on it", "no document gives this form (" + b.manual + ")",
                               b.cite.source);
      findings.saw(f, ms.instruction + "   (" + ms.m.detail + ")", ms.on.target,
                   said(pv.message) + "; then " + pv.message.substr(pv.message.find(kPtxasCrashed)));
    }
    if (ms.m.expected == DocClass::Valid && !pv.accepted) {
      Finding& f = findings.at(fmt::format("toolkit-rejects/negative-space/{}/{}", b.id, ms.m.kind),
                               FindingClass::ToolkitRejects, false, b.id + " " + ms.m.kind, ms.m.words, ms.m.source);
      findings.saw(f, ms.instruction + "   (" + ms.m.detail + ")", ms.on.target, accepted_or(pv));
    } else if (ms.m.expected != DocClass::Valid && pv.accepted) {
      const bool undocumented = ms.m.expected == DocClass::Undocumented;
      Finding& f = findings.at(fmt::format("toolkit-accepts{}/negative-space/{}/{}", undocumented ? "-undocumented" : "",
                                           b.id, ms.m.kind),
                               FindingClass::ToolkitAccepts, undocumented, b.id + " " + ms.m.kind,
                               undocumented ? "no document gives this form (" + b.manual + ")" : ms.m.words,
                               undocumented ? b.cite.source : ms.m.source);
      findings.saw(f, ms.instruction + "   (" + ms.m.detail + ")", ms.on.target, "accepted");
    }
  }
  for (auto& [k, c] : counts) {
    if (c.expected != DocClass::Undocumented) {
      const bool valid = c.expected == DocClass::Valid;
      const std::size_t bad = valid ? c.rejected : c.accepted;
      StatementVerdict s{.id = fmt::format("{}/{}/{}", c.block, c.kind, valid ? "valid" : "invalid"),
                         .kind = "negative-space",
                         .family = "",
                         .words = fmt::format("{} forms of {} are {}", c.kind, c.block, to_string(c.expected)),
                         .source = "",
                         .verdict = c.accepted + c.rejected == 0 ? Verdict::NotCheckable
                                    : bad                       ? Verdict::Contradicted
                                                                : Verdict::Confirmed,
                         .evidence = fmt::format("{} forms: {} accepted, {} rejected", c.forms, c.accepted, c.rejected),
                         .forms = c.forms};
      for (auto const& b : suite.specs.grammar)
        if (b.id == c.block) s.family = b.family;
      audit.statements.push_back(std::move(s));
    }
    audit.negative_space.push_back(std::move(c));
  }
}

// An example is judged as an example: does ptxas take its own text where its instruction is
// documented to exist (the targets of its requirements; at the version whose spelling it uses)?
// A rejection elsewhere is its requirement's business. Whether a syntax block spells it is another
// statement: where none does, or a rule forbids it, the documents disagree (a finding apart).
void Judge::examples() {
  for (auto const& e : plan.examples) {
    const DocExample& ex = *e.example;
    StatementVerdict s{.id = ex.id, .kind = "example", .family = ex.family, .words = ex.text,
                       .source = ex.cite.source, .verdict = Verdict::NotCheckable, .evidence = "", .forms = 1};
    std::vector<std::string> ok, bad;
    std::string first_bad;  // the newest target's: the likeliest to know what the example spells
    for (auto const& on : e.on) {
      if (!decided(on, "example " + ex.id)) continue;
      const ProbeVerdict& pv = verdict(on);
      (pv.accepted ? ok : bad).push_back(on.target);
      if (!pv.accepted) first_bad = on.target + ": " + said(pv.message);
    }
    const std::string at = e.version == plan.toolkit_ptx ? "" : " at PTX ISA " + e.version.str();
    const std::string observed =
        bad.empty() ? fmt::format("ptxas accepts it on {} targets{}", ok.size(), at)
                    : fmt::format("ptxas rejects it on {} of {} targets{}: {}", bad.size(), ok.size() + bad.size(), at,
                                  first_bad);
    const std::string where =
        e.spelling ? fmt::format("a target of its instruction at PTX ISA {}, the newest that spells it so: \"{}\"",
                                 e.version.str(), e.spelling->text)
        : e.instance ? "the targets its instruction is documented for"
                     : "every target: its instruction is in no variant of the specs";
    if (e.too_new)
      s.evidence = fmt::format("this toolkit's PTX ISA {} is older than the {} its instruction needs: not asked",
                               plan.toolkit_ptx.str(), e.instance->min_ptx().str());
    else if (ok.empty() && bad.empty())
      s.evidence = e.on.empty() ? "no target of its instruction is known at PTX ISA " + e.version.str()
                                : "ptxas gave no verdict";
    else {
      // Rejected where its instruction is documented (or, where that is not known, everywhere): the example errs.
      const bool errs = !bad.empty() && (e.instance || ok.empty());
      s.verdict = bad.empty() ? Verdict::Confirmed : errs ? Verdict::Contradicted : Verdict::NotCheckable;
      s.evidence = observed + " (" + where + ")";
      if (errs) {
        Finding& f = findings.at("document-error/example/" + ex.id, FindingClass::DocumentError, false,
                                 ex.id + " (" + ex.cite.document + ")", ex.text, ex.cite.source);
        for (auto const& t : bad) findings.saw(f, ex.instructions.front(), t, "rejected: " + first_bad);
      }
    }
    if (e.doc != DocClass::Valid) example_disagreement(e, ok, e.on.empty() || e.too_new ? "not asked" : observed);
    audit.statements.push_back(std::move(s));
  }
}

// An example no syntax block spells as written, or one a rule forbids: the documents disagree (the
// example and the block(s) that spell its instruction, or the rule), whatever ptxas does with it.
void Judge::example_disagreement(const ExampleSubject& e, const std::vector<std::string>& ok,
                                 const std::string& observed) {
  const DocExample& ex = *e.example;
  const std::string written = ex.instructions.front().substr(0, ex.instructions.front().find_first_of(" \t"));
  std::vector<std::string> ids, lines;
  for (auto const* b : e.blocks) ids.push_back(b->id), lines.push_back(b->manual + " (" + b->cite.source + ")");
  std::string why, subject;
  if (e.doc == DocClass::Invalid) {
    why = fmt::format("rule '{}' forbids it: \"{}\" ({})", e.forbidden_by.front()->id, e.forbidden_by.front()->text,
                      e.forbidden_by.front()->cite.source);
    subject = fmt::format("example {} vs rule {}", ex.id, e.forbidden_by.front()->id);
  } else if (!e.blocks.empty()) {
    why = fmt::format("no syntax block spells {} as written; {} spell{} its instruction {}: {}", written,
                      fmt::join(ids, ", "), ids.size() == 1 ? "s" : "", e.documented_text, fmt::join(lines, "; "));
    subject = fmt::format("example {} vs {}", ex.id, fmt::join(ids, ", "));
  } else {
    why = fmt::format("no syntax block of the documents spells {}, in any order", written);
    subject = fmt::format("example {} vs the syntax blocks of {}", ex.id, ex.family);
  }
  if (e.spelling)
    why += fmt::format("; it is written without {}, as the documents spell it below PTX ISA {}: \"{}\" ({})",
                       e.spelling->qualifier, e.spelling->from.str(), e.spelling->text, e.spelling->cite.source);
  Finding& f = findings.at("documents-disagree/example/" + ex.id, FindingClass::DocumentsDisagree, false, subject,
                           ex.id + " (" + ex.cite.document + ", " + ex.cite.source + "): " + written + "; but " + why,
                           ex.cite.source);
  findings.saw(f, ex.instructions.front(), ok.empty() ? "" : ok.front(), observed);
  if (!ok.empty() && e.doc == DocClass::Invalid) {  // and ptxas takes what the rule forbids
    Finding& g = findings.at("toolkit-accepts/example/" + ex.id, FindingClass::ToolkitAccepts, false, ex.id,
                             e.forbidden_by.front()->text, e.forbidden_by.front()->cite.source);
    for (auto const& t : ok) findings.saw(g, ex.instructions.front(), t, "accepted");
  }
}

// What ptxas said of a form on its targets, in a line; `seen` gets the form and a target it was judged on.
std::string Judge::said_on(const std::string& form, const std::vector<OnTarget>& on,
                           std::vector<std::pair<std::string, std::string>>& seen) {
  std::vector<std::string> ok, bad;
  std::string first_bad;
  for (auto const& o : on) {
    if (!decided(o, form)) continue;
    (verdict(o).accepted ? ok : bad).push_back(o.target);
    if (!verdict(o).accepted && first_bad.empty()) first_bad = o.target + ": " + said(verdict(o).message);
  }
  if (ok.empty() && bad.empty()) return "ptxas gave no verdict on " + form;
  seen.emplace_back(form, ok.empty() ? bad.front() : ok.front());
  if (ok.empty()) return fmt::format("ptxas rejects {} on every target ({})", form, first_bad);
  if (bad.empty()) return fmt::format("ptxas accepts {} on {} targets", form, ok.size());
  return fmt::format("ptxas accepts {} on {} of {} targets ({})", form, ok.size(), ok.size() + bad.size(), first_bad);
}

// A syntax block and its instruction's fragment sections disagreeing on the shapes
// (judge/fragment_sections.hpp): a finding citing both in their words, with what ptxas says of the
// block's forms of a shape no section names and of the examples of a shape no block spells.
void Judge::fragment_shapes() {
  for (auto const& d : fragment_disagreements(suite.specs)) {
    std::vector<std::string> parts, cited, observed;
    std::vector<std::pair<std::string, std::string>> seen;  // form, a target it was judged on
    for (auto const& shape : d.unnamed_shapes) {
      parts.push_back(fmt::format("{} spells {}, which no fragment section of {} names", d.block->id, shape,
                                  d.instruction));
      std::size_t forms = 0;
      for (auto const& g : plan.grammar)
        if (g.cc.combo.block == d.block && spells_shape(g.instruction, shape) && forms++ == 0)
          observed.push_back(said_on(g.instruction, g.on, seen));
      if (forms > 1) observed.back() += fmt::format(" (the first of its {} forms)", forms);
    }
    for (auto const& s : d.unspelled) {
      parts.push_back(fmt::format("{} names {}{}, which no syntax block of {} spells", s.number, s.shape,
                                  s.types.empty() ? "" : fmt::format(" with {}", fmt::join(s.types, ", ")),
                                  d.instruction));
      cited.push_back(fmt::format("\"{}\" (manual: {}{}, its title)", s.title,
                                  s.source.substr(0, s.source.find(s.number)), s.number));
      for (auto const& e : plan.examples)
        if (const std::string& text = e.example->instructions.front();
            !e.too_new && product_instruction(text) == d.instruction && spells_section(text, s))
          observed.push_back("example " + e.example->id + ": " + said_on(text, e.on, seen));
    }
    const std::string against = fmt::format("{}", fmt::join(cited, " and "));
    const std::string words = d.block ? fmt::format("{} ({}: {}) vs {}", d.block->manual, d.block->cite.document,
                                                    d.block->cite.source, against)
                                      : against;
    Finding& f = findings.at(
        "documents-disagree/fragment-sections/" + (d.block ? d.block->id : d.unspelled.front().number),
        FindingClass::DocumentsDisagree, false, fmt::format("{}", fmt::join(parts, "; ")), words,
        d.block ? d.block->cite.source : d.unspelled.front().source);
    const std::string all =
        observed.empty() ? "ptxas was asked no form of them" : fmt::format("{}", fmt::join(observed, "; "));
    if (seen.empty()) findings.saw(f, "", "", all);
    for (auto const& [form, target] : seen) findings.saw(f, form, target, all);
  }
}

void Judge::register_claims() {
  for (auto const& rc : plan.register_claims) {
    const RegisterClaim& c = *rc.claim;
    StatementVerdict s{.id = c.id, .kind = "register-count", .family = c.family, .words = c.text,
                       .source = c.cite.source, .verdict = Verdict::NotCheckable, .evidence = "", .forms = 1};
    if (!rc.instance) s.evidence = "no form of the variant matches the claim's qualifiers";
    else if (!rc.on) s.evidence = "no target of this toolkit supports the form, or its PTX ISA is older than the form's";
    else if (decided(*rc.on, "register claim " + c.id)) {
      const ProbeVerdict& pv = verdict(*rc.on);
      s.verdict = pv.accepted ? Verdict::Confirmed : Verdict::Contradicted;
      s.evidence = fmt::format("{} with {} registers for {{{}}} on {}: {}{}", rc.instance->mnemonic(), c.registers,
                               c.operand, rc.on->target, accepted_or(pv),
                               rc.spec_registers != c.registers
                                   ? fmt::format(" (the spec's variant {} uses {})", c.variant, rc.spec_registers)
                                   : "");
      if (!pv.accepted) {
        Finding& f = findings.at("document-error/register-count/" + c.id, FindingClass::DocumentError, false, c.id,
                                 c.text, c.cite.source);
        findings.saw(f, rc.instruction, rc.on->target, accepted_or(pv));
      }
    }
    audit.statements.push_back(std::move(s));
  }
}

// The printed fragment formulas: each one a statement; one that cannot be right a document error,
// with the reading the suite evaluates instead.
void Judge::formula_texts() {
  for (auto const& c : check_formula_texts(suite.specs)) {
    const std::string id = fmt::format("{}/{}{}.{}", c.variant, c.operand, c.layout.empty() ? "" : c.layout, c.axis);
    StatementVerdict s{.id = id, .kind = "fragment-formula", .family = c.family, .words = c.manual,
                       .source = c.source, .verdict = c.printed_holds ? Verdict::Confirmed : Verdict::Contradicted,
                       .evidence = c.evidence, .forms = 1};
    if (!c.printed_holds) {
      std::string reading = c.reading;
      std::replace(reading.begin(), reading.end(), '\n', '/');
      s.evidence += fmt::format("; the suite reads it as \"{}\" ({})", reading, c.why);
      Finding& f = findings.at("document-error/formula/" + id, FindingClass::DocumentError, false,
                               fmt::format("{} operand {} {} formula", c.variant, c.operand, c.axis), c.manual, c.source);
      findings.saw(f, c.reading, "", s.evidence);
    }
    audit.statements.push_back(std::move(s));
  }
}

// mma.sp's fragment sections: each A block a statement (the document against itself: evaluated for
// every lane and element); each operand the manual only draws, or defers to a dense section for, a
// statement that says so.
void Judge::sparse_fragments() {
  for (auto const& c : check_sparse_fragments(suite.specs)) {
    const std::string id = c.entry + "/" + c.operand;
    StatementVerdict s{.id = id, .kind = "fragment-" + c.what, .family = c.family, .words = c.words,
                       .source = c.source,
                       .verdict = !c.checked ? Verdict::NotCheckable
                                  : c.holds  ? Verdict::Confirmed
                                             : Verdict::Contradicted,
                       .evidence = c.evidence, .forms = 1};
    if (s.verdict == Verdict::Contradicted) {
      Finding& f = findings.at("document-error/sparse-" + c.what + "/" + id, FindingClass::DocumentError, false,
                               fmt::format("{} operand {} ({})", c.entry, c.operand, c.what), c.words, c.source);
      findings.saw(f, c.entry, "", c.evidence);
    }
    audit.statements.push_back(std::move(s));
  }
}

void Judge::versions_of_targets() {
  const std::string source = "specs/targets.yaml, from the PTX ISA manual's release notes (first PTX ISA version of each target)";
  for (auto const& tv : plan.target_versions) {
    const TargetInfo& t = *tv.target;
    StatementVerdict s{.id = t.name, .kind = "target-version", .family = "",
                       .words = fmt::format("{} is supported from PTX ISA {}", t.name, t.ptx.str()), .source = source,
                       .verdict = Verdict::NotCheckable, .evidence = "", .forms = 1};
    if (!tv.at) s.evidence = "this toolkit's PTX ISA version is older";
    else if (decided(*tv.at, ".target " + t.name)) {
      const ProbeVerdict& at = verdict(*tv.at);
      std::string below = "no earlier PTX ISA version in targets.yaml";
      bool below_ok = true;
      if (tv.below && decided(*tv.below, ".target " + t.name)) {
        const ProbeVerdict& b = verdict(*tv.below);
        below_ok = !b.accepted;
        below = fmt::format("PTX ISA {}: {}", tv.below_version.str(), accepted_or(b));
      }
      s.verdict = at.accepted && below_ok ? Verdict::Confirmed : Verdict::Contradicted;
      s.evidence = fmt::format("PTX ISA {}: {}; {}", t.ptx.str(), accepted_or(at), below);
      if (!tv.ladder.empty())
        s.evidence += fmt::format("; {}; the documents say PTX ISA {}", read_ladder(tv.ladder, v).text, t.ptx.str());
      if (s.verdict == Verdict::Contradicted) {  // rejected at the documented version, or accepted before it
        const FindingClass cls = !at.accepted ? FindingClass::ToolkitRejects : FindingClass::ToolkitAccepts;
        Finding& f = findings.at(fmt::format("{}/target-version/{}", finding_class_id(cls), t.name), cls, false,
                                 t.name, s.words, source);
        findings.saw(f, ".target " + t.name, t.name, s.evidence);
      }
    }
    audit.statements.push_back(std::move(s));
  }
  if (auto const& tk = plan.toolkit_version) {
    StatementVerdict s{.id = "toolkit-ptx-isa", .kind = "toolkit-version", .family = "",
                       .words = fmt::format("CUDA {} speaks PTX ISA {}", plan.cuda_release, tk->documented.str()),
                       .source = "specs/targets.yaml toolkits, from the CUDA release notes",
                       .verdict = Verdict::NotCheckable, .evidence = "", .forms = 1};
    if (decided(*tk->at, ".version") && decided(*tk->above, ".version")) {
      const ProbeVerdict &at = verdict(*tk->at), &above = verdict(*tk->above);
      s.verdict = at.accepted && !above.accepted ? Verdict::Confirmed : Verdict::Contradicted;
      s.evidence = fmt::format(".version {}: {}; .version {}: {}", tk->documented.str(), accepted_or(at),
                               tk->above_version.str(), accepted_or(above));
      if (s.verdict == Verdict::Contradicted) {
        const FindingClass cls = !at.accepted ? FindingClass::ToolkitRejects : FindingClass::ToolkitAccepts;
        Finding& f = findings.at(fmt::format("{}/toolkit-version/{}", finding_class_id(cls), plan.cuda_release), cls,
                                 false, s.id, s.words, s.source);
        findings.saw(f, ".version " + tk->documented.str(), tk->at->target, s.evidence);
      }
    }
    audit.statements.push_back(std::move(s));
  } else if (!plan.targets.empty()) {
    audit.statements.push_back(
        {.id = "toolkit-ptx-isa",
         .kind = "toolkit-version",
         .family = "",
         .words = fmt::format("the PTX ISA version CUDA {} speaks (not listed)", plan.cuda_release),
         .source = "specs/targets.yaml toolkits, from the CUDA release notes",
         .verdict = Verdict::NotCheckable,
         .evidence = fmt::format("specs/targets.yaml lists no PTX ISA version for CUDA {}; ptxas {} says it speaks "
                                 "PTX ISA {} ({})",
                                 plan.cuda_release, plan.ptxas_version, plan.toolkit_ptx.str(),
                                 plan.toolkit_ptx_read_by.empty() ? "targets.yaml" : plan.toolkit_ptx_read_by),
         .forms = 1});
  }
}

void Judge::forms() {
  for (auto const& fs : plan.forms) {
    const AuditForm& f = *fs.form;
    FormVerdict fv;
    fv.form = &f;
    fv.instruction = fs.instruction;
    if (!fs.on) fv.evidence = fmt::format("{}: not known to this toolkit", f.target);
    else if (!decided(*fs.on, f.name)) {
      fv.evidence = "ptxas failed: " + verdict(*fs.on).error;
      for (auto const& k : suite.specs.known_discrepancies)
        if (k.form == f.name) used.insert(&k);
    } else {
      const ProbeVerdict& pv = verdict(*fs.on);
      fv.assembled = true;
      fv.accepted = pv.accepted;
      fv.message = pv.message;
      if (f.kind == AuditForm::Kind::Spelling) {
        fv.evidence = pv.accepted ? "ptxas accepts this undocumented spelling" : "ptxas rejects it: " + said(pv.message);
        if (pv.accepted) {
          Finding& fd = findings.at("toolkit-accepts-undocumented/spelling/" + f.name, FindingClass::ToolkitAccepts,
                                    true, f.name, "not in any document's syntax; seen in: " + f.source, f.source);
          findings.saw(fd, fs.instruction, f.target, "accepted");
        }
      } else if (pv.accepted) {
        fv.verdict = Verdict::Contradicted;
        fv.evidence = fmt::format("accepted by ptxas {} for {}, although documented invalid: {}", plan.ptxas_version,
                                  f.target, f.reason);
      } else {
        std::set<std::string> seen;  // every class that one of ptxas's lines falls in
        for (std::size_t at = 0; at < pv.message.size();) {
          std::size_t nl = pv.message.find('\n', at);
          std::string line = pv.message.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
          if (std::string c = classify_diagnostic(suite.specs, line); !c.empty()) seen.insert(c);
          at = nl == std::string::npos ? pv.message.size() : nl + 1;
        }
        fv.diagnostic_seen = fmt::format("{}", fmt::join(seen, ", "));
        fv.verdict = seen.count(f.diagnostic) ? Verdict::Confirmed : Verdict::Contradicted;
        // A spelling the documents give a PTX ISA version newer than this toolkit's: the toolkit
        // does not know it at all, so its reason says nothing about the documented one.
        const std::string head = f.text.substr(0, f.text.find(' '));
        for (auto const& i : suite.instances)
          if (fv.verdict == Verdict::Contradicted && i.text().substr(0, i.text().find(' ')) == head &&
              plan.toolkit_ptx < i.min_ptx()) {
            fv.verdict = Verdict::NotCheckable;
            fv.evidence = fmt::format("not known to this toolkit: the documents give {} PTX ISA {}, this toolkit "
                                      "speaks {} (ptxas: {})",
                                      head, i.min_ptx().str(), plan.toolkit_ptx.str(), said(pv.message));
            break;
          }
        if (fv.verdict == Verdict::NotCheckable) {
          audit.forms.push_back(std::move(fv));
          continue;
        }
        fv.evidence = seen.count(f.diagnostic)
                          ? "rejected as documented: " + said(pv.message)
                          : fmt::format("rejected, but not for the documented reason ({}): {}", f.diagnostic,
                                        said(pv.message));
      }
      if (fv.verdict == Verdict::Contradicted) {
        for (auto const& k : suite.specs.known_discrepancies)
          if (k.form == f.name && k.observed_accepted == pv.accepted) {
            fv.known = &k;
            used.insert(&k);
          }
        Finding& fd = findings.at(
            fmt::format("{}/form/{}", pv.accepted ? "toolkit-accepts" : "document-error", f.name),
            pv.accepted ? FindingClass::ToolkitAccepts : FindingClass::DocumentError, false, f.name, f.reason,
            f.source);
        findings.saw(fd, fs.instruction, f.target, accepted_or(pv));
        if (fv.known) fd.known = fv.known;
      }
    }
    if (!fs.ladder.empty()) fv.evidence += "; " + read_ladder(fs.ladder, v).text;
    audit.forms.push_back(std::move(fv));
  }
}

// What the ladders said, on the findings they were asked for: the real bound beside the documented one.
void Judge::ladder_findings() {
  for (auto const& [id, said_by] : ladders) {
    Finding& f = findings.list[findings.index.at(id)];
    std::vector<std::string> parts;
    for (auto const& [text, n] : said_by) parts.push_back(fmt::format("{} ({} form{})", text, n, n == 1 ? "" : "s"));
    f.observed += fmt::format("; {}; the documents say {}", fmt::join(parts, "; "),
                              f.words.substr(std::string("introduced in ").size()));
  }
}

}  // namespace

const char* to_string(FindingClass c) {
  switch (c) {
    case FindingClass::DocumentError: return "document error";
    case FindingClass::DocumentsDisagree: return "documents disagree with each other";
    case FindingClass::ToolkitAccepts: return "toolkit accepts what the documents forbid or do not list";
    case FindingClass::ToolkitRejects: return "toolkit rejects what the documents allow";
  }
  return "";
}

const char* finding_class_id(FindingClass c) {
  switch (c) {
    case FindingClass::DocumentError: return "document-error";
    case FindingClass::DocumentsDisagree: return "documents-disagree";
    case FindingClass::ToolkitAccepts: return "toolkit-accepts";
    case FindingClass::ToolkitRejects: return "toolkit-rejects";
  }
  return "";
}

namespace {
// Each pattern compiled once: a std::regex takes longer to build than to run, and a warm audit
// classifies thousands of lines (compiling the same few patterns again was 3% of its instructions).
const std::regex& compiled_pattern(const std::string& pattern) {
  static std::mutex lock;
  static std::map<std::string, std::regex> made;  // its elements stay where they are as it grows
  std::lock_guard<std::mutex> hold(lock);
  auto it = made.find(pattern);
  if (it == made.end()) it = made.emplace(pattern, std::regex(pattern)).first;
  return it->second;
}
}  // namespace

std::string classify_diagnostic(const SpecSet& specs, const std::string& message) {
  for (auto const& d : specs.diagnostics)
    for (auto const& p : d.patterns)
      if (std::regex_search(message, compiled_pattern(p))) return d.name;
  return "";
}

int Audit::contradictions() const {
  int n = 0;
  for (auto const& f : findings) n += f.fails();
  return n;
}

Audit judge_audit(const Suite& suite, const AuditPlan& plan, const std::vector<ProbeVerdict>& verdicts) {
  Audit audit;
  audit.ptxas_version = plan.ptxas_version;
  audit.cuda_release = plan.cuda_release;
  audit.toolkit_ptx = plan.toolkit_ptx;
  audit.targets = plan.targets;
  audit.ptxas_targets = plan.ptxas_targets;
  audit.probes = plan.probes.size();
  Judge j{.suite = suite, .plan = plan, .v = verdicts, .audit = audit};
  j.requirements();
  j.rules_and_blocks();
  j.negative_space();
  j.examples();
  j.fragment_shapes();
  j.register_claims();
  j.formula_texts();
  j.sparse_fragments();
  j.versions_of_targets();
  j.forms();
  j.ladder_findings();
  for (auto& s : target_agreement(plan, verdicts)) audit.statements.push_back(std::move(s));
  j.findings.finish(plan.targets);
  for (auto& f : j.findings.list) {
    for (auto const& k : suite.specs.known_discrepancies)
      if (k.finding == f.id) {
        f.known = &k;
        j.used.insert(&k);
      }
    audit.findings.push_back(std::move(f));
  }
  std::stable_sort(audit.findings.begin(), audit.findings.end(),
                   [](auto const& a, auto const& b) { return a.cls < b.cls; });
  audit.coverage = question_counts(plan);
  count_findings(audit.coverage, audit.findings);
  for (auto const& k : suite.specs.known_discrepancies)
    if (!j.used.count(&k)) audit.unused_known.push_back(&k);
  std::sort(audit.errors.begin(), audit.errors.end());
  audit.errors.erase(std::unique(audit.errors.begin(), audit.errors.end()), audit.errors.end());
  return audit;
}

}  // namespace ptxcts

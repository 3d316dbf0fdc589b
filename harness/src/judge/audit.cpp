#include "judge/audit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace ptxcts {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// ptxas says so when a feature needs a newer PTX ISA version (as opposed to a target the version
// does not know yet).
bool names_version_requirement(const std::string& message) {
  return message.find("requires PTX ISA") != std::string::npos;
}

std::vector<const KernelPlan*> kernels_of(const Suite& suite, const Variant& v) {
  std::vector<const KernelPlan*> out;
  for (auto const& k : suite.kernels)
    if (k.audited && &k.subject_instance().variant() == &v) out.push_back(&k);
  return out;
}

const KnownDiscrepancy* known_for(const SpecSet& specs, const std::string& variant, const std::string& target,
                                  bool accepted) {
  for (auto const& k : specs.known_discrepancies)
    if (k.form.empty() && k.variant == variant && k.target == target && k.observed_accepted == accepted) return &k;
  return nullptr;
}

RequirementVerdict judge_targets(const Suite& suite, const Catalog& cat, const Variant& v,
                                 std::set<const KnownDiscrepancy*>& used) {
  RequirementVerdict rv{
      v.name, v.family, "targets", v.requires_.targets->text, v.requires_.source, Verdict::NotCheckable, "", {}, {}};
  std::set<std::string> accepted_on, rejected_on;
  std::vector<std::string> failed;  // assemblies ptxas gave no verdict on
  int checked = 0;
  for (auto const* k : kernels_of(suite, v)) {
    for (auto const& a : cat.assemblies) {
      if (a.kernel != k->name || !a.attempted) continue;
      if (!a.error.empty()) {
        failed.push_back(fmt::format("{} on {}: {}", k->subject_instance().id(), a.target, a.error));
        for (bool accepted : {true, false})  // unknown either way, so not "no longer observed"
          if (const KnownDiscrepancy* kd = known_for(suite.specs, v.name, a.target, accepted)) used.insert(kd);
        continue;
      }
      const TargetInfo* t = suite.specs.targets.find(a.target);
      const bool documented = t && supports(suite.specs.targets, k->subject_instance(), *t);
      ++checked;
      (a.accepted ? accepted_on : rejected_on).insert(a.target);
      if (documented != a.accepted) {
        std::string m =
            fmt::format("{} on {}: documented {}, ptxas {}{}", k->subject_instance().id(), a.target,
                        documented ? "supported" : "unsupported", a.accepted ? "accepted it" : "rejected it",
                        a.accepted ? "" : " (" + first_line(a.message) + ")");
        if (const KnownDiscrepancy* kd = known_for(suite.specs, v.name, a.target, a.accepted)) {
          used.insert(kd);
          rv.known.push_back(m + " [known: " + kd->source + "]");
        } else {
          rv.mismatches.push_back(m);
        }
      }
    }
  }
  auto in_order = [&](const std::set<std::string>& s) {
    std::vector<std::string> out;
    for (auto const& t : cat.targets)
      if (s.count(t)) out.push_back(t);
    return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, ", "));
  };
  if (checked == 0 && failed.empty()) {
    rv.evidence = "no assembly of this variant in the catalog";
  } else if (rv.mismatches.empty() && !failed.empty()) {
    rv.evidence = fmt::format("ptxas failed: {} ({} of {} assemblies gave no verdict)", failed.front(), failed.size(),
                              checked + failed.size());
  } else if (rv.mismatches.empty() && !rv.known.empty()) {
    rv.verdict = Verdict::Contradicted;
    rv.evidence = fmt::format("{} of {} assemblies disagree, each a known discrepancy; first: {}", rv.known.size(),
                              checked, rv.known.front());
  } else if (rv.mismatches.empty()) {
    rv.verdict = Verdict::Confirmed;
    rv.evidence = fmt::format("{} assemblies agree: accepted on {}; rejected on {}", checked, in_order(accepted_on),
                              in_order(rejected_on));
  } else {
    rv.verdict = Verdict::Contradicted;
    rv.evidence = fmt::format("{} of {} assemblies disagree with the documented targets; first: {}",
                              rv.mismatches.size(), checked, rv.mismatches.front());
  }
  return rv;
}

// One verdict per documented minimum PTX ISA version: accepted at it (on a supporting target
// that version knows), rejected one version below with ptxas naming the version requirement.
std::vector<RequirementVerdict> judge_versions(const Suite& suite, const Catalog& cat, const Variant& v) {
  std::map<PtxVersion, std::vector<const KernelPlan*>> by_min;
  for (auto const* k : kernels_of(suite, v)) by_min[k->subject_instance().min_ptx()].push_back(k);
  std::vector<RequirementVerdict> out;
  for (auto const& [min, kernels] : by_min) {
    // What the spec says this minimum comes from: the variant, or a qualifier value's requirement.
    std::string documented = fmt::format("PTX ISA {}", min.str()), source = v.requires_.source;
    for (auto const& a : v.axes)
      for (auto const& o : a.options)
        if (o.requires_.ptx && *o.requires_.ptx == min && !(v.requires_.ptx && *v.requires_.ptx == min)) {
          documented += fmt::format(" ({})", o.text);
          source = o.requires_.source;
        }
    RequirementVerdict rv{v.name, v.family, "ptx " + min.str(), documented, source, Verdict::NotCheckable, "", {}, {}};
    int at_min_ok = 0, at_min_bad = 0, below_ok = 0, below_inconclusive = 0;
    std::vector<std::string> failed;  // assemblies ptxas gave no verdict on
    for (auto const* k : kernels) {
      for (auto const& a : cat.assemblies) {
        if (a.kernel != k->name || !a.attempted || a.ptx != min) continue;
        const TargetInfo* t = suite.specs.targets.find(a.target);
        if (!t || !supports(suite.specs.targets, k->subject_instance(), *t)) continue;
        if (!a.error.empty())
          failed.push_back(
              fmt::format("{} on {} at PTX ISA {}: {}", k->subject_instance().id(), a.target, min.str(), a.error));
        else if (a.accepted) ++at_min_ok;
        else {
          ++at_min_bad;
          rv.mismatches.push_back(fmt::format("{} on {} at PTX ISA {}: rejected ({})", k->subject_instance().id(),
                                              a.target, min.str(), first_line(a.message)));
        }
      }
      for (auto const& p : cat.probes) {
        if (p.kernel != k->name) continue;
        if (!p.error.empty())
          failed.push_back(
              fmt::format("{} on {} at PTX ISA {}: {}", k->subject_instance().id(), p.target, p.ptx.str(), p.error));
        else if (p.accepted)
          rv.mismatches.push_back(fmt::format("{} on {} at PTX ISA {}: accepted below the documented minimum",
                                              k->subject_instance().id(), p.target, p.ptx.str()));
        else if (names_version_requirement(p.message)) ++below_ok;
        else ++below_inconclusive;
      }
    }
    if (!rv.mismatches.empty()) {
      rv.verdict = Verdict::Contradicted;
      rv.evidence = fmt::format("{} disagreement(s); first: {}", rv.mismatches.size(), rv.mismatches.front());
    } else if (!failed.empty()) {
      rv.evidence = fmt::format("ptxas failed: {} ({} assemblies gave no verdict)", failed.front(), failed.size());
    } else if (at_min_ok && below_ok) {
      rv.verdict = Verdict::Confirmed;
      rv.evidence = fmt::format(
          "{} assemblies accepted at PTX ISA {} on a supporting target; {} rejected at the version below, ptxas naming "
          "the version requirement",
          at_min_ok, min.str(), below_ok);
    } else {
      rv.evidence =
          at_min_ok == 0
              ? fmt::format("no supporting target that PTX ISA {} knows, so the minimum cannot be tried", min.str())
              : fmt::format(
                    "the version below could not be tried on a supporting target ({} probe(s) rejected for the target, "
                    "not the version)",
                    below_inconclusive);
    }
    out.push_back(std::move(rv));
  }
  return out;
}

}  // namespace

std::string classify_diagnostic(const SpecSet& specs, const std::string& message) {
  for (auto const& d : specs.diagnostics)
    for (auto const& p : d.patterns)
      if (std::regex_search(message, std::regex(p))) return d.name;
  return "";
}

int Audit::contradictions() const {
  int n = 0;
  for (auto const& r : requirements) n += r.verdict == Verdict::Contradicted && !r.explained();
  for (auto const& f : forms) n += f.verdict == Verdict::Contradicted && !f.known;
  return n;
}

Audit run_audit(const Suite& suite, const Catalog& cat) {
  Audit audit;
  std::set<const KnownDiscrepancy*> used;
  for (auto const& v : suite.specs.variants) {
    audit.requirements.push_back(judge_targets(suite, cat, v, used));
    for (auto& r : judge_versions(suite, cat, v)) audit.requirements.push_back(std::move(r));
  }
  for (auto const& f : suite.specs.forms) {
    FormVerdict fv;
    fv.form = &f;
    for (auto const& a : cat.forms)
      if (a.form == f.name) fv.assembly = &a;
    if (!fv.assembly) {
      fv.evidence = fmt::format("this toolkit cannot assemble for {}", f.target);
    } else if (!fv.assembly->error.empty()) {  // no verdict, so neither a rejection nor an acceptance
      fv.evidence = "ptxas failed: " + fv.assembly->error;
      for (auto const& k : suite.specs.known_discrepancies)
        if (k.form == f.name) used.insert(&k);
    } else if (f.kind == AuditForm::Kind::Spelling) {
      fv.evidence = fv.assembly->accepted ? "ptxas accepts this undocumented spelling"
                                          : "ptxas rejects it: " + first_line(fv.assembly->message);
    } else if (fv.assembly->accepted) {
      fv.verdict = Verdict::Contradicted;
      fv.evidence = fmt::format("accepted by ptxas {} for {}, although documented invalid: {}", cat.ptxas_version,
                                f.target, f.reason);
    } else {
      // Every class that one of ptxas's lines falls in; the documented one must be among them.
      std::set<std::string> seen;
      std::string msg = fv.assembly->message;
      for (std::size_t at = 0; at < msg.size();) {
        std::size_t nl = msg.find('\n', at);
        std::string line = msg.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
        if (std::string c = classify_diagnostic(suite.specs, line); !c.empty()) seen.insert(c);
        at = nl == std::string::npos ? msg.size() : nl + 1;
      }
      fv.diagnostic_seen = fmt::format("{}", fmt::join(seen, ", "));
      if (seen.count(f.diagnostic)) {
        fv.verdict = Verdict::Confirmed;
        fv.evidence = "rejected as documented: " + first_line(msg);
      } else {
        fv.verdict = Verdict::Contradicted;
        fv.evidence =
            fmt::format("rejected, but not for the documented reason ({}): {}", f.diagnostic, first_line(msg));
      }
    }
    if (fv.verdict == Verdict::Contradicted)
      for (auto const& k : suite.specs.known_discrepancies)
        if (k.form == f.name && fv.assembly && k.observed_accepted == fv.assembly->accepted) {
          fv.known = &k;
          used.insert(&k);
        }
    audit.forms.push_back(std::move(fv));
  }
  for (auto const& k : suite.specs.known_discrepancies)
    if (!used.count(&k)) audit.unused_known.push_back(&k);
  return audit;
}

}  // namespace ptxcts

// The specs' hand-listed forms (QuestionKind::HandListedForms): each invalid form rejected for its
// documented reason (specs/diagnostics.yaml's classes), each undocumented spelling observed.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "judge/version_ladder.hpp"

namespace ptxcts {
namespace {

struct HandListedForms : AuditContext {
  void forms();
  bool judge_assembled(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv);
  void spelling(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv);
  bool rejected(const AuditForm& f, const ProbeVerdict& pv, FormVerdict& fv) const;
  std::set<std::string> diagnostic_classes(const std::string& message) const;
  void contradiction(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv);
};

void HandListedForms::forms() {
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
    } else if (!judge_assembled(fs, verdict(*fs.on), fv)) {
      audit.forms.push_back(std::move(fv));  // not known to this toolkit: no ladder read either
      continue;
    }
    if (!fs.ladder.empty()) fv.evidence += "; " + read_ladder(fs.ladder, v).text;
    audit.forms.push_back(std::move(fv));
  }
}

// A form ptxas gave a verdict on; false where the toolkit does not know it (not checkable).
bool HandListedForms::judge_assembled(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv) {
  const AuditForm& f = *fs.form;
  fv.assembled = true;
  fv.accepted = pv.accepted;
  fv.message = pv.message;
  if (f.kind == AuditForm::Kind::Spelling) spelling(fs, pv, fv);
  else if (pv.accepted) {
    fv.verdict = Verdict::Contradicted;
    fv.evidence = fmt::format("accepted by ptxas {} for {}, although documented invalid: {}", plan.ptxas_version,
                              f.target, f.reason);
  } else if (!rejected(f, pv, fv)) return false;
  if (fv.verdict == Verdict::Contradicted) contradiction(fs, pv, fv);
  return true;
}

// An undocumented spelling: an observation; taken, a finding for information.
void HandListedForms::spelling(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv) {
  const AuditForm& f = *fs.form;
  fv.evidence = pv.accepted ? "ptxas accepts this undocumented spelling" : "ptxas rejects it: " + said(pv.message);
  if (!pv.accepted) return;
  Finding& fd = findings.at(QuestionKind::HandListedForms, "toolkit-accepts-undocumented/spelling/" + f.name,
                            FindingClass::ToolkitAccepts, true, f.name,
                            "not in any document's syntax; seen in: " + f.source, f.source);
  findings.saw(fd, fs.instruction, f.target, "accepted");
}

// Every class (specs/diagnostics.yaml) that one of ptxas's lines falls in.
std::set<std::string> HandListedForms::diagnostic_classes(const std::string& message) const {
  std::set<std::string> seen;
  for (std::size_t at = 0; at < message.size();) {
    std::size_t nl = message.find('\n', at);
    std::string line = message.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (std::string c = classify_diagnostic(suite.specs, line); !c.empty()) seen.insert(c);
    at = nl == std::string::npos ? message.size() : nl + 1;
  }
  return seen;
}

// An invalid form ptxas rejects: confirmed where it says the documented reason. False where the
// documents give its spelling a PTX ISA version newer than this toolkit's: the toolkit does not
// know it at all, so its reason says nothing about the documented one (not checkable).
bool HandListedForms::rejected(const AuditForm& f, const ProbeVerdict& pv, FormVerdict& fv) const {
  const std::set<std::string> seen = diagnostic_classes(pv.message);
  fv.diagnostic_seen = fmt::format("{}", fmt::join(seen, ", "));
  fv.verdict = seen.count(f.diagnostic) ? Verdict::Confirmed : Verdict::Contradicted;
  const std::string head = f.text.substr(0, f.text.find(' '));
  for (auto const& i : suite.instances)
    if (fv.verdict == Verdict::Contradicted && i.text().substr(0, i.text().find(' ')) == head &&
        plan.toolkit_ptx < i.min_ptx()) {
      fv.verdict = Verdict::NotCheckable;
      fv.evidence = fmt::format(
          "not known to this toolkit: the documents give {} PTX ISA {}, this toolkit "
          "speaks {} (ptxas: {})",
          head, i.min_ptx().str(), plan.toolkit_ptx.str(), said(pv.message));
      return false;
    }
  fv.evidence = seen.count(f.diagnostic) ? "rejected as documented: " + said(pv.message)
                                         : fmt::format("rejected, but not for the documented reason ({}): {}",
                                                       f.diagnostic, said(pv.message));
  return true;
}

// A contradicted form: its known discrepancy, if the specs record one, and a finding.
void HandListedForms::contradiction(const FormSubject& fs, const ProbeVerdict& pv, FormVerdict& fv) {
  const AuditForm& f = *fs.form;
  for (auto const& k : suite.specs.known_discrepancies)
    if (k.form == f.name && k.observed_accepted == pv.accepted) {
      fv.known = &k;
      used.insert(&k);
    }
  Finding& fd = findings.at(QuestionKind::HandListedForms,
                            fmt::format("{}/form/{}", pv.accepted ? "toolkit-accepts" : "document-error", f.name),
                            pv.accepted ? FindingClass::ToolkitAccepts : FindingClass::DocumentError, false, f.name,
                            f.reason, f.source);
  findings.saw(fd, fs.instruction, f.target, accepted_or(pv));
  if (fv.known) fd.known = fv.known;
}

}  // namespace

void judge_forms(AuditContext& cx) { HandListedForms{cx}.forms(); }

}  // namespace ptxcts

#include "judge/sentence_counts.hpp"

#include <algorithm>

namespace ptxcts {
namespace {

bool gives_verdict(Verdict v) { return v == Verdict::Confirmed || v == Verdict::Contradicted; }

bool any_judged(const SpecSet& specs, const std::vector<std::string>& ids, const std::set<std::string>& judged) {
  return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
    if (judged.count(id)) return true;
    for (auto const& c : specs.claims)  // a claim checked by requirements: where its variant's are judged
      if (c.id == id && c.check.kind == ClaimCheckKind::Requirements) return judged.count(c.check.variant) > 0;
    return false;
  });
}

void count_sentence(const SpecSet& specs, const Sentence& s, const JudgedIds& judged, SentenceCount& c) {
  ++c.sentences;
  switch (s.cls) {
    case SentenceClass::Descriptive: ++c.descriptive; return;
    case SentenceClass::NotJudgeable:
      ++c.not_judgeable;
      ++c.reasons[s.reason];
      return;
    case SentenceClass::NotYet:
      ++c.not_yet;
      ++c.reasons[s.reason];
      return;
    case SentenceClass::Judged: break;
  }
  const bool ptxas = any_judged(specs, s.ptxas, judged.ptxas), gpu = any_judged(specs, s.gpu, judged.gpu);
  c.by_ptxas += ptxas ? 1 : 0;
  c.by_gpu += gpu ? 1 : 0;
  (ptxas || gpu ? c.judged : c.elsewhere) += 1;
}

}  // namespace

JudgedIds judged_by_audit(const Audit& audit) {
  JudgedIds out;
  for (auto const& s : audit.statements)
    if (gives_verdict(s.verdict)) out.ptxas.insert(s.id);
  for (auto const& r : audit.requirements)
    if (gives_verdict(r.verdict)) out.ptxas.insert(r.variant);
  for (auto const& f : audit.forms)
    if (f.form && gives_verdict(f.verdict)) out.ptxas.insert(f.form->name);
  return out;
}

JudgedIds judged_in_run(const Suite& suite, const Audit& audit, const std::vector<ClaimVerdict>& claims,
                        const std::vector<CaseResult>& results) {
  JudgedIds out = judged_by_audit(audit);
  for (auto const& c : claims)
    if (gives_verdict(c.verdict) || c.verdict == Verdict::Observed) {
      out.gpu.insert(c.id);
      out.ptxas.insert(c.id);  // a claim checked by requirements is ptxas's; an id names one claim
    }
  for (auto const& r : results) {
    if (r.status != Status::Pass && r.status != Status::Fail) continue;
    const KernelPlan* k = suite.find_kernel(r.kernel);
    if (k && k->subject >= 0 && static_cast<std::size_t>(k->subject) < k->steps.size())
      out.gpu.insert(k->steps[k->subject]->variant().name);
  }
  return out;
}

std::vector<SentenceCount> count_sentences(const SpecSet& specs, const JudgedIds& judged) {
  std::vector<SentenceCount> out;
  for (auto const& sec : specs.sentences) {
    SentenceCount c{.section = sec.section, .source = sec.source};
    for (auto const& s : sec.sentences) count_sentence(specs, s, judged, c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ptxcts

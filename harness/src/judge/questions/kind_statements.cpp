// What each kind alone asks of the documents, checked on the host (QuestionKind::FragmentFormulas:
// the fragment formulas and sections its documents print, kinds/kind_statements.hpp), asked of
// every kind through the seam (kinds/kinds.hpp): each a statement; one that does not hold a
// document error, with the kind's evidence.
#include "judge/questions/questions.hpp"

#include "kinds/kinds.hpp"

namespace ptxcts {
namespace {

Verdict verdict_of(KindStatement::Held held) {
  switch (held) {
    case KindStatement::Held::Yes: return Verdict::Confirmed;
    case KindStatement::Held::No: return Verdict::Contradicted;
    case KindStatement::Held::NotChecked: break;
  }
  return Verdict::NotCheckable;
}

}  // namespace

void judge_kind_statements(AuditContext& cx) {
  for (auto& k : kind_statements(cx.suite.specs)) {
    StatementVerdict s{.id = k.id,
                       .kind = k.kind,
                       .family = k.family,
                       .words = k.words,
                       .source = k.source,
                       .verdict = verdict_of(k.held),
                       .evidence = k.evidence,
                       .forms = 1};
    if (s.verdict == Verdict::Contradicted) {
      Finding& f = cx.findings.at(QuestionKind::FragmentFormulas, k.finding, FindingClass::DocumentError, false,
                                  k.subject, k.words, k.source);
      cx.findings.saw(f, k.form, "", s.evidence);
    }
    cx.audit.statements.push_back(std::move(s));
  }
}

}  // namespace ptxcts

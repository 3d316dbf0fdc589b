// The classes of forms (judge/form_classes.hpp): that every form of a class takes its head's
// verdicts on the class's part of the negative space is the documents' rule (nothing they say of
// these questions tells the forms apart), stated and checked: each sampled member's questions
// against the head's of the same kind and detail. A statement per class of two or more forms:
// confirmed where every sampled verdict is the head's, contradicted (with the first difference)
// where one is not, not checkable where nothing was sampled or ptxas gave no verdict.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>

#include <map>
#include <string_view>
#include <tuple>

namespace ptxcts {
namespace {

struct EquivalenceTally {
  std::size_t compared = 0, differing = 0;
  std::string first_difference;
};

const char* verdict_word(const ProbeVerdict& v) { return v.accepted ? "accepted" : "rejected"; }

struct Equivalence : AuditContext {
  using Key = std::tuple<std::size_t, std::string_view, std::string_view>;  // form, kind, detail
  std::map<Key, const MutationSubject*> own;  // the questions each form asks for itself

  void tally(std::vector<EquivalenceTally>& tallies) {
    for (auto const& ms : plan.mutations)
      if (ms.home && !ms.equivalence) own.emplace(Key{ms.of, ms.m->kind, ms.m->detail}, &ms);
    for (auto const& ms : plan.mutations) {
      if (!ms.equivalence) continue;
      const FormClass& fc = plan.form_classes[*ms.equivalence];
      auto h = own.find(Key{fc.forms.front(), ms.m->kind, ms.m->detail});
      if (h == own.end()) continue;
      const ProbeVerdict &head = verdict(h->second->on), &here = verdict(ms.on);
      if (!head.error.empty() || !here.error.empty()) continue;  // no verdict: nothing to compare
      EquivalenceTally& t = tallies[*ms.equivalence];
      ++t.compared;
      if (head.accepted == here.accepted) continue;
      if (t.differing++ == 0)
        t.first_difference = fmt::format("{} ({}): {}, where {} was {}", ms.instruction, ms.m->detail, verdict_word(here),
                                         h->second->instruction, verdict_word(head));
    }
  }

  void statements() {
    std::vector<EquivalenceTally> tallies(plan.form_classes.size());
    tally(tallies);
    std::map<std::pair<std::string, FormPart>, int> numbered;  // per block and part: 1, 2, ...
    for (std::size_t ci = 0; ci < plan.form_classes.size(); ++ci) {
      const FormClass& fc = plan.form_classes[ci];
      const int n = ++numbered[{fc.block->id, fc.part}];
      if (fc.forms.size() < 2) continue;  // its one form asked in full: nothing assumed
      const EquivalenceTally& t = tallies[ci];
      const std::string head = plan.grammar[fc.forms.front()].instruction;
      StatementVerdict s{
          .id = fmt::format("{}/equivalence/{}/{}", fc.block->id, form_part_id(fc.part), n),
          .kind = "equivalence",
          .family = fc.block->family,
          .words = fmt::format("(the audit's check of the documents' rules) the {} documented forms of {} written with "
                               "{}{} take the verdicts of {} on its {} questions",
                               fc.forms.size(), fc.block->id, form_part_shares(fc.part),
                               fc.key.empty() ? "" : " (" + fc.key + ")", head, form_part_id(fc.part)),
          .source = fc.block->cite.source,
          .verdict = t.compared == 0 ? Verdict::NotCheckable : t.differing ? Verdict::Contradicted : Verdict::Confirmed,
          .evidence = fmt::format("{} of its {} other forms sampled (seed {}), {} questions each at most: ",
                                  fc.sampled.size(), fc.forms.size() - 1, fc.seed, kEquivalenceQuestions),
          .forms = fc.forms.size()};
      s.evidence += t.differing ? fmt::format("{} of {} verdicts differ; first: {}", t.differing, t.compared,
                                              t.first_difference)
                                : fmt::format("all {} verdicts the head's", t.compared);
      audit.statements.push_back(std::move(s));
    }
  }
};

}  // namespace

void judge_equivalence(AuditContext& cx) { Equivalence{cx, {}}.statements(); }

}  // namespace ptxcts

// The negative space around the documented forms (judge/negative_space.hpp): each mutation's
// verdict against what the documents make of it, counted per block and kind of mutation; a finding
// per block and kind, of the kind of question of its kind of mutation (question_of_mutation_kind).
#include "judge/questions/questions.hpp"

#include "judge/register_types.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace ptxcts {
namespace {

// The finding a mutation's question gives where ptxas takes it otherwise than the documents do.
std::string finding_id_of(const Mutation& m, const std::string& block) {
  const char* cls = m.expected == DocClass::Valid     ? "rejects"
                    : m.expected == DocClass::Invalid ? "accepts"
                                                      : "accepts-undocumented";
  return fmt::format("toolkit-{}/negative-space/{}/{}", cls, block, m.kind);
}

struct Mutations : AuditContext {
  using Question = std::tuple<std::size_t, std::string_view, std::string_view>;  // form, kind, detail
  std::set<Question> elsewhere{};  // asked again on other targets
  std::map<std::tuple<const GrammarBlock*, std::string_view, DocClass>, std::string> ids{};

  // The question counted toward the finding it could give; its form and target kept (a string per
  // question) only where it was asked on several targets, the bound of a finding's targets.
  void count_asked(const MutationSubject& ms, const GrammarBlock& b) {
    auto [at, fresh] = ids.try_emplace({&b, ms.m->kind, ms.m->expected});
    if (fresh) at->second = finding_id_of(*ms.m, b.id);
    if (ms.home && !elsewhere.count({ms.of, ms.m->kind, ms.m->detail})) {
      findings.asked_questions[at->second] += 1;
      return;
    }
    findings.asked(at->second, ms.instruction + "   (" + ms.m->detail + ")", ms.on.target, ms.home);
  }
  void negative_space();
};

void Mutations::negative_space() {
  std::map<std::tuple<std::string, std::string, DocClass>, MutationCount> counts;
  for (auto const& ms : plan.mutations)
    if (!ms.home) elsewhere.emplace(ms.of, ms.m->kind, ms.m->detail);
  for (auto const& ms : plan.mutations) {
    if (ms.m->kind == kFragmentRegisterType) continue;  // judged by register_types.cpp
    const GrammarBlock& b = *plan.grammar[ms.of].cc.combo.block;
    MutationCount& c = counts[{b.id, ms.m->kind, ms.m->expected}];
    c.block = b.id;
    c.kind = ms.m->kind;
    c.expected = ms.m->expected;
    c.forms += ms.home;  // a question asked again on another target is counted once (its findings on each)
    if (!decided(ms.on, ms.instruction)) continue;
    const ProbeVerdict& pv = verdict(ms.on);
    const QuestionKind question = question_of_mutation_kind(ms.m->kind);  // the finding's, by kind of mutation
    count_asked(ms, b);
    if (ms.home) (pv.accepted ? c.accepted : c.rejected)++;
    if (pv.message.find(kPtxasCrashed) != std::string::npos) {  // rejected, and then ptxas crashed on it
      Finding& f = findings.at(question, "toolkit-rejects-crashing/negative-space/" + b.id + "/" + ms.m->kind,
                               FindingClass::ToolkitRejects, true, b.id + ": ptxas crashes on it",
                               "no document gives this form (" + b.manual + ")", b.cite.source);
      findings.saw(f, ms.instruction + "   (" + ms.m->detail + ")", ms.on.target,
                   said(pv.message) + "; then " + pv.message.substr(pv.message.find(kPtxasCrashed)));
    }
    if (ms.m->expected == DocClass::Valid && !pv.accepted) {
      Finding& f = findings.at(question, fmt::format("toolkit-rejects/negative-space/{}/{}", b.id, ms.m->kind),
                               FindingClass::ToolkitRejects, false, b.id + " " + ms.m->kind, ms.m->words, ms.m->source);
      findings.saw(f, ms.instruction + "   (" + ms.m->detail + ")", ms.on.target, accepted_or(pv));
    } else if (ms.m->expected != DocClass::Valid && pv.accepted) {
      const bool undocumented = ms.m->expected == DocClass::Undocumented;
      Finding& f = findings.at(
          question,
          fmt::format("toolkit-accepts{}/negative-space/{}/{}", undocumented ? "-undocumented" : "", b.id, ms.m->kind),
          FindingClass::ToolkitAccepts, undocumented, b.id + " " + ms.m->kind,
          undocumented ? "no document gives this form (" + b.manual + ")" : ms.m->words,
          undocumented ? b.cite.source : ms.m->source);
      findings.saw(f, ms.instruction + "   (" + ms.m->detail + ")", ms.on.target, "accepted");
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
                                    : bad                        ? Verdict::Contradicted
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

}  // namespace

void judge_mutations(AuditContext& cx) { Mutations{cx}.negative_space(); }

}  // namespace ptxcts

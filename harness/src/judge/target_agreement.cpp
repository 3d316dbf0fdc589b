#include "judge/target_agreement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace ptxcts {
namespace {

struct BlockTally {
  std::string family, home, first_difference;
  std::set<std::string> targets;
  std::size_t questions = 0, compared = 0, differing = 0;
};

const char* verdict_word(const ProbeVerdict& v) { return v.accepted ? "accepted" : "rejected"; }

}  // namespace

std::vector<StatementVerdict> target_agreement(const AuditPlan& plan, const std::vector<ProbeVerdict>& v) {
  // Views into the plan, which outlives these maps: copies of the strings cost more than the rest.
  using Key = std::tuple<std::size_t, std::string_view, std::string_view, std::string_view>;
  std::map<Key, const MutationSubject*> home;
  for (auto const& ms : plan.mutations)
    if (ms.home) home.emplace(Key{ms.of, ms.m->kind, ms.m->detail, ms.instruction}, &ms);
  std::map<std::string, BlockTally> blocks;  // by block id, in id order
  std::set<Key> counted;
  for (auto const& ms : plan.mutations) {
    if (ms.home) continue;
    auto h = home.find(Key{ms.of, ms.m->kind, ms.m->detail, ms.instruction});
    if (h == home.end()) continue;
    const GrammarBlock& b = *plan.grammar[ms.of].cc.combo.block;
    BlockTally& t = blocks[b.id];
    t.family = b.family;
    t.home = h->second->on.target;
    t.targets.insert(ms.on.target);
    t.questions += counted.insert(h->first).second;
    const ProbeVerdict &at_home = v[h->second->on.probe], &here = v[ms.on.probe];
    if (!at_home.error.empty() || !here.error.empty()) continue;  // ptxas gave no verdict: nothing to compare
    ++t.compared;
    if (at_home.accepted == here.accepted) continue;
    if (t.differing++ == 0)
      t.first_difference = fmt::format("{}   ({}): {} on {}, {} on {}{}", ms.instruction, ms.m->detail,
                                       verdict_word(at_home), t.home, verdict_word(here), ms.on.target,
                                       here.accepted ? "" : " (" + here.message.substr(0, here.message.find('\n')) + ")");
  }
  std::vector<StatementVerdict> out;
  for (auto const& [id, t] : blocks) {
    StatementVerdict s{.id = id + "/targets",
                       .kind = "negative-space-targets",
                       .family = t.family,
                       .words = fmt::format("(the audit's check, no document's words) ptxas judges the negative space "
                                            "of {} alike on every target that supports it",
                                            id),
                       .source = "",
                       .verdict = t.compared == 0 ? Verdict::NotCheckable
                                  : t.differing   ? Verdict::Contradicted
                                                  : Verdict::Confirmed,
                       .evidence = "",
                       .forms = t.questions};
    s.evidence = fmt::format("{} questions of its representative form (the first {} of each kind) asked on {} other "
                             "targets as on {}: ",
                             t.questions, kTargetSample, t.targets.size(), t.home);
    s.evidence += t.differing ? fmt::format("{} of {} verdicts differ; first: {}", t.differing, t.compared,
                                            t.first_difference)
                              : fmt::format("all {} verdicts the same", t.compared);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ptxcts

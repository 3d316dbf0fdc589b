// Qualifier order as a space (judge/qualifier_orders.hpp): per syntax block, the set of orders ptxas
// accepts, read from each class's search; two statements of the audit's own (no document's words):
// the model read from the single moves predicts the other orders asked, and the forms of a class
// take the orders their representative takes. Each order asked is a mutation of kind "order", whose
// findings (an undocumented order accepted) judge/questions/mutations.cpp makes as for any swap.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace ptxcts {
namespace {

inline constexpr std::size_t kOrderExamples = 3;  // undocumented accepted orders a block's set names

std::string label(const MnemonicUnit& u) { return u.position ? "{" + u.name + "}" : u.text; }

struct OrderClassTally {
  OrderModel model;
  std::map<UnitOrder, bool> verdicts;  // the representative's
};

struct BlockLabels {
  std::set<std::string> seen, not_floating, fixed, pairs;
  std::string first_difference, first_misprediction;
};

struct Orders : AuditContext {
  std::map<std::string, OrderClassTally> classes{};
  std::map<std::string, QualifierOrderSet> sets{};
  std::map<std::string, BlockLabels> labels{};
  std::vector<std::string> blocks{};  // in the plan's order

  // Whether ptxas gave a verdict on the order (and which, in `accepted`).
  bool verdict_of(const OrderAsked& a, bool& accepted) const {
    const ProbeVerdict& pv = v[plan.mutations[a.mutation].on.probe];
    accepted = pv.accepted;
    return pv.error.empty();
  }

  QualifierOrderSet& set_of(const GrammarBlock& b) {
    auto [it, made] = sets.try_emplace(b.id);
    if (made) {
      it->second.block = b.id;
      it->second.family = b.family;
      blocks.push_back(b.id);
    }
    return it->second;
  }

  void representative(const OrderSearch& os) {
    const MnemonicUnits s = mnemonic_units(plan.grammar[os.of].cc.combo);
    OrderClassTally& t = classes[os.cls];
    std::vector<std::pair<UnitOrder, bool>> moves;
    for (auto const& a : os.asked)
      if (bool ok = false; verdict_of(a, ok)) {
        t.verdicts[a.order] = ok;
        if (a.how == OrderHow::Move) moves.emplace_back(a.order, ok);
      }
    t.model = read_order_model(s, moves);
    QualifierOrderSet& set = set_of(*plan.grammar[os.of].cc.combo.block);
    BlockLabels& l = labels[set.block];
    if (set.documented.empty()) set.documented = plan.grammar[os.of].instruction;
    ++set.classes;
    set.orders += factorial(s.units.size());
    set.model_accepted += model_order_count(t.model);
    for (std::size_t a = 0; a < s.units.size(); ++a) {
      l.seen.insert(label(s.units[a]));
      for (std::size_t b = a + 1; b < s.units.size(); ++b)
        if (t.model.constrained[a][b]) l.pairs.insert(label(s.units[a]) + " before " + label(s.units[b]));
      if (std::find(t.model.floating.begin(), t.model.floating.end(), a) == t.model.floating.end())
        l.not_floating.insert(label(s.units[a]));
    }
    for (auto u : t.model.fixed) l.fixed.insert(label(s.units[u]));
  }

  // Every form's orders: counted; a sampled form's and the representative's own checks against the
  // model; another form's verdicts against the representative's for the same order.
  void form(const OrderSearch& os) {
    const OrderClassTally& t = classes[os.cls];
    QualifierOrderSet& set = set_of(*plan.grammar[os.of].cc.combo.block);
    BlockLabels& l = labels[set.block];
    ++set.forms;
    for (auto const& a : os.asked) {
      bool ok = false;
      if (!verdict_of(a, ok)) continue;
      const MutationSubject& ms = plan.mutations[a.mutation];
      ++set.asked;
      (ok ? set.accepted : set.rejected)++;
      if (ok && set.examples.size() < kOrderExamples) set.examples.push_back(ms.instruction);
      if (a.how != OrderHow::Move && (os.representative || os.sampled)) {
        ++set.checked;
        if (model_accepts(t.model, a.order) != ok && set.mispredicted++ == 0)
          l.first_misprediction = fmt::format("{}   ({}): {}", ms.instruction, ms.m->detail, ok ? "accepted" : "rejected");
      }
      auto rep = t.verdicts.find(a.order);
      if (os.representative || rep == t.verdicts.end()) continue;
      ++set.compared;
      if (rep->second != ok && set.differing++ == 0)
        l.first_difference = fmt::format("{}   ({}): {}, its representative's order {}", ms.instruction, ms.m->detail,
                                         ok ? "accepted" : "rejected", rep->second ? "accepted" : "rejected");
    }
  }

  void statements(const QualifierOrderSet& set, const BlockLabels& l) {
    auto verdict = [](std::size_t n, std::size_t bad) {
      return n == 0 ? Verdict::NotCheckable : bad ? Verdict::Contradicted : Verdict::Confirmed;
    };
    audit.statements.push_back(
        {.id = set.block + "/qualifier-orders/model",
         .kind = "qualifier-orders",
         .family = set.family,
         .words = fmt::format("(the audit's check, no document's words) ptxas accepts an order of the qualifiers of "
                              "{} exactly where it keeps the pairs the single moves found bound in their documented order",
                              set.block),
         .source = "",
         // The model is the suite's reading of ptxas, no document's: where it mispredicts it is refuted
         // (an observation: the counted set is then no exact one), never a contradiction of anything.
         .verdict = set.mispredicted ? Verdict::NotCheckable : verdict(set.checked, 0),
         .evidence = fmt::format("{} two-move and random orders of {} classes' representatives and sampled forms: {}",
                                 set.checked, set.classes,
                                 set.mispredicted ? fmt::format("{} not as the model says (the model refuted here: the "
                                                                "accepted orders it counts are no exact set); first: {}",
                                                                set.mispredicted,
                                                                l.first_misprediction)
                                                  : "every one as the model says"),
         .forms = set.checked});
    audit.statements.push_back(
        {.id = set.block + "/qualifier-orders/classes",
         .kind = "qualifier-orders",
         .family = set.family,
         .words = fmt::format("(the audit's check, no document's words) every form of a class of {} (the same "
                              "qualifiers by position) takes the orders its class's representative takes",
                              set.block),
         .source = "",
         .verdict = verdict(set.compared, set.differing),
         .evidence = fmt::format("{} forms in {} classes; {} orders of the other forms (their neighbour swaps; of {} "
                                 "sampled per class at seed, two moves, random orders and {} single moves too) "
                                 "compared with the representative's: {}",
                                 set.forms, set.classes, set.compared, kOrderSampledForms, kOrderSampledMoves,
                                 set.differing ? fmt::format("{} differ; first: {}", set.differing, l.first_difference)
                                               : "all the same"),
         .forms = set.compared});
  }

  void judge() {
    for (auto const& os : plan.order_searches)
      if (os.representative) representative(os);
    for (auto const& os : plan.order_searches) form(os);
    for (auto const& id : blocks) {
      QualifierOrderSet& set = sets[id];
      const BlockLabels& l = labels[id];
      for (auto const& x : l.seen)
        if (!l.not_floating.count(x)) set.floating.push_back(x);
      set.fixed.assign(l.fixed.begin(), l.fixed.end());
      set.constrained.assign(l.pairs.begin(), l.pairs.end());
      statements(set, l);
      audit.qualifier_orders.push_back(std::move(set));
    }
  }
};

}  // namespace

void judge_qualifier_orders(AuditContext& cx) { Orders{cx}.judge(); }

}  // namespace ptxcts

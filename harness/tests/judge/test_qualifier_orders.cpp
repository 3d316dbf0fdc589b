// Qualifier order as a space (judge/qualifier_orders.hpp): the search asks each qualifier moved to
// every position ((n-1)^2 orders of n qualifiers, counted by hand), reads from the single moves which
// pairs must keep their documented order, and counts the orders that model accepts (counted here by
// hand from the stand-in's rule); the audit reports the set per block, checks the classes' sampled
// forms against their representative, and a real ptxas shows a known accepted and a known rejected
// order (wmma.load.a keeps .load.a in front: ptxas 13.0.88 run by hand on every single move of
// wmma.load.a.sync.aligned.row.m16n16k16.f16 accepted the 22 that keep it and rejected the 14 that
// do not, "Unknown modifier '.load'").
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "judge/audit.hpp"
#include "judge/qualifier_orders.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

MnemonicUnits units_of(const std::string& opcode, const std::vector<std::string>& texts) {
  MnemonicUnits s;
  s.opcode = opcode;
  for (auto const& t : texts) s.units.push_back({.text = t, .optional = false, .position = false, .name = ""});
  s.rest = " {%v0}, [%ad];";
  return s;
}

std::vector<std::string> texts_in(const MnemonicUnits& s, const UnitOrder& o) {
  std::vector<std::string> t;
  for (auto u : o) t.push_back(s.units[u].text);
  return t;
}

// The stand-in's verdicts on the single moves of `s`.
template <typename Rule>
std::vector<std::pair<UnitOrder, bool>> single_move_verdicts(const MnemonicUnits& s, Rule rule) {
  std::vector<std::pair<UnitOrder, bool>> v;
  for (auto const& q : order_questions(s, true, 7))
    if (q.how == OrderHow::Move) v.emplace_back(q.order, rule(texts_in(s, q.order)));
  return v;
}

const MnemonicUnits kWmma =
    units_of("wmma", {".load", ".a", ".sync", ".aligned", ".row", ".m16n16k16", ".f16"});
const MnemonicUnits kMma =
    units_of("mma", {".sync", ".aligned", ".m16n8k16", ".row", ".col", ".f32", ".bf16", ".bf16", ".f32"});

// wmma's rule: .load.a stay in front, the rest in any order.
bool load_a_in_front(const std::vector<std::string>& t) { return t[0] == ".load" && t[1] == ".a"; }
// mma's: the layouts in their order (A's, then B's) and the types too (D, A, B, C), the rest anywhere.
bool layouts_and_types_in_order(const std::vector<std::string>& t) {
  std::vector<std::string> layouts, types;
  for (auto const& x : t) {
    if (x == ".row" || x == ".col") layouts.push_back(x);
    if (x == ".f32" || x == ".bf16") types.push_back(x);
  }
  return layouts == std::vector<std::string>{".row", ".col"} &&
         types == std::vector<std::string>{".f32", ".bf16", ".bf16", ".f32"};
}

}  // namespace

TEST(QualifierOrders, TheSearchAsksEverySingleMoveOnceAndNeverTheDocumentedOrder) {
  const std::vector<OrderQuestion> full = order_questions(kWmma, true, 42);
  std::set<UnitOrder> seen;
  std::size_t moves = 0, pairs = 0, shuffles = 0;
  for (auto const& q : full) {
    EXPECT_TRUE(seen.insert(q.order).second) << q.detail;
    EXPECT_FALSE(std::is_sorted(q.order.begin(), q.order.end())) << q.detail;
    moves += q.how == OrderHow::Move;
    pairs += q.how == OrderHow::TwoMoves;
    shuffles += q.how == OrderHow::Shuffle;
  }
  EXPECT_EQ(moves, 36u);  // 7 qualifiers: each to 6 other places, the 6 neighbour swaps made twice: 42 - 6
  EXPECT_EQ(pairs, kOrderPairs);
  EXPECT_EQ(shuffles, kOrderShuffles);
  // A sampled form: the representative's two-move and random orders (one seed), and a few of its moves.
  const std::vector<OrderQuestion> sampled = order_questions(kWmma, false, 42);
  std::size_t sampled_moves = 0;
  for (auto const& q : sampled) {
    EXPECT_TRUE(seen.count(q.order)) << q.detail;
    sampled_moves += q.how == OrderHow::Move;
  }
  EXPECT_EQ(sampled_moves, kOrderSampledMoves);
  EXPECT_EQ(sampled.size(), kOrderPairs + kOrderShuffles + kOrderSampledMoves);
}

TEST(QualifierOrders, TheModelReadFromTheSingleMovesFindsTheFixedAndFloatingQualifiers) {
  const OrderModel w = read_order_model(kWmma, single_move_verdicts(kWmma, load_a_in_front));
  EXPECT_EQ(w.fixed, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(w.floating, (std::vector<std::size_t>{2, 3, 4, 5, 6}));
  EXPECT_EQ(model_order_count(w), 120u);  // .load.a in front, the other five in any order: 5!
  EXPECT_EQ(factorial(7), 5040u);
  // Out of sample: every order the rule takes the model takes, and no other.
  for (auto const& q : order_questions(kWmma, true, 99))
    if (q.how != OrderHow::Move) {
      EXPECT_EQ(model_accepts(w, q.order), load_a_in_front(texts_in(kWmma, q.order))) << q.detail;
    }

  const OrderModel m = read_order_model(kMma, single_move_verdicts(kMma, layouts_and_types_in_order));
  EXPECT_EQ(m.floating, (std::vector<std::size_t>{0, 1, 2}));  // .sync, .aligned and the shape
  EXPECT_TRUE(m.fixed.empty());
  // 9! orders; the layouts in one of their 2 orders, the types (f32, bf16, bf16, f32; the two bf16 and
  // the two f32 alike) in 2 of their 24: 362880 / 2 / 12.
  EXPECT_EQ(model_order_count(m), 15120u);
  for (std::uint64_t seed : {1u, 2u, 3u})
    for (auto const& q : order_questions(kMma, true, seed))
      EXPECT_EQ(model_accepts(m, q.order), layouts_and_types_in_order(texts_in(kMma, q.order))) << q.detail;
}

namespace {

struct OrderPlan {
  const Suite& suite = loaded_suite();
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
};

const OrderPlan& order_plan() {
  static const OrderPlan p;
  return p;
}

// The instruction's name as wmma spells it: "wmma.load.a.", "wmma.store.d.", "wmma.mma.".
std::string name_prefix(const std::string& instruction) {
  const std::size_t parts = instruction.rfind("wmma.mma.", 0) == 0 ? 2 : 3;
  std::size_t at = 0;
  for (std::size_t k = 0; k < parts; ++k) at = instruction.find('.', at) + 1;
  return instruction.substr(0, at);
}

// ptxas as the documents say, and on the orders: wmma's keep the instruction's name in front
// (wmma.load.a., wmma.store.d., wmma.mma.), every other order accepted.
std::vector<ProbeVerdict> as_stand_in(const OrderPlan& p) {
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = false, .message = "ptxas probe.ptx, line 3; error   : x"});
  for (auto const& g : p.plan.grammar)
    for (auto const& on : g.on)
      if (g.cc.doc == DocClass::Valid) v[on.probe].accepted = true;
  for (auto const& m : p.plan.mutations) {
    if (m.m->expected == DocClass::Valid) v[m.on.probe].accepted = true;
    if (m.m->kind != "order") continue;
    const std::string& t = m.instruction;
    v[m.on.probe].accepted = t.rfind("wmma.", 0) != 0 || t.rfind(name_prefix(p.plan.grammar[m.of].instruction), 0) == 0;
  }
  return v;
}

const QualifierOrderSet& set_of(const Audit& a, const std::string& block) {
  for (auto const& q : a.qualifier_orders)
    if (q.block == block) return q;
  throw std::runtime_error("no qualifier-order set for " + block);
}

const StatementVerdict& order_statement(const Audit& a, const std::string& id) {
  for (auto const& s : a.statements)
    if (s.id == id) return s;
  throw std::runtime_error("no statement " + id);
}

}  // namespace

TEST(QualifierOrders, EachClassIsSearchedOnItsFirstFormAndEveryFormsSwapsCompared) {
  const OrderPlan& p = order_plan();
  std::size_t representatives = 0, sampled = 0, forms = 0;
  for (auto const& os : p.plan.order_searches) {
    ++forms;
    const std::size_t n = mnemonic_units(p.plan.grammar[os.of].cc.combo).units.size();
    std::size_t moves = 0;
    for (auto const& a : os.asked) {
      const MutationSubject& ms = p.plan.mutations[a.mutation];
      EXPECT_EQ(ms.m->kind, "order");
      EXPECT_EQ(ms.of, os.of);
      EXPECT_EQ(ms.question(), QuestionKind::QualifierOrders);
      moves += a.how == OrderHow::Move;
    }
    if (os.representative) {  // every single move, once per text, the form's own text left out
      ++representatives;
      const MnemonicUnits s = mnemonic_units(p.plan.grammar[os.of].cc.combo);
      std::set<std::string> texts;
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j) {
          std::vector<std::string> t;
          for (auto const& u : s.units) t.push_back(u.text);
          const std::string moved_one = t[k];
          t.erase(t.begin() + static_cast<std::ptrdiff_t>(k));
          t.insert(t.begin() + static_cast<std::ptrdiff_t>(j), moved_one);
          std::string joined = s.opcode;
          for (auto const& x : t) joined += x;
          texts.insert(joined);
        }
      std::string own = s.opcode;
      for (auto const& u : s.units) own += u.text;
      texts.erase(own);
      EXPECT_EQ(moves, texts.size()) << p.plan.grammar[os.of].instruction;
    }
    sampled += os.sampled;
  }
  EXPECT_GT(representatives, 100u);
  EXPECT_GT(sampled, 100u);
  EXPECT_GT(forms, 1000u);
}

TEST(QualifierOrders, TheAuditReportsTheAcceptedOrdersPerBlockWithItsFixedAndFloatingQualifiers) {
  const OrderPlan& p = order_plan();
  const Audit a = judge_audit(p.suite, p.plan, as_stand_in(p));
  const QualifierOrderSet& load = set_of(a, "wmma.load.a.f16");
  EXPECT_EQ(load.fixed, (std::vector<std::string>{".a", ".load"}));
  EXPECT_EQ(std::count(load.floating.begin(), load.floating.end(), ".sync"), 1);
  EXPECT_GT(load.rejected, 0u);
  EXPECT_GT(load.accepted, 0u);
  EXPECT_LT(load.model_accepted, load.orders);
  EXPECT_EQ(order_statement(a, "wmma.load.a.f16/qualifier-orders/model").verdict, Verdict::Confirmed);
  EXPECT_EQ(order_statement(a, "wmma.load.a.f16/qualifier-orders/classes").verdict, Verdict::Confirmed);
  const QualifierOrderSet& ld = set_of(a, "ldmatrix.shape");
  EXPECT_TRUE(ld.fixed.empty());
  EXPECT_TRUE(ld.constrained.empty());
  EXPECT_EQ(ld.rejected, 0u);
  EXPECT_EQ(ld.model_accepted, ld.orders);  // every order of every class's representative
  EXPECT_FALSE(ld.examples.empty());
  // An accepted order is an undocumented form accepted, as a swap always was: shown, never failing.
  bool found = false;
  for (auto const& f : a.findings)
    if (f.id == "toolkit-accepts-undocumented/negative-space/ldmatrix.shape/order") {
      found = true;
      EXPECT_FALSE(f.fails());
    }
  EXPECT_TRUE(found);
}

TEST(QualifierOrders, AFormThatTakesOtherOrdersThanItsRepresentativeContradictsItsClass) {
  const OrderPlan& p = order_plan();
  std::vector<ProbeVerdict> v = as_stand_in(p);
  const OrderSearch* other = nullptr;
  for (auto const& os : p.plan.order_searches)
    if (os.sampled && p.plan.grammar[os.of].cc.combo.block->id == "ldmatrix.shape") other = &os;
  ASSERT_NE(other, nullptr);
  v[p.plan.mutations[other->asked.front().mutation].on.probe].accepted = false;
  const Audit a = judge_audit(p.suite, p.plan, v);
  const StatementVerdict& s = order_statement(a, "ldmatrix.shape/qualifier-orders/classes");
  EXPECT_EQ(s.verdict, Verdict::Contradicted) << s.evidence;
  EXPECT_NE(s.evidence.find("1 differ"), std::string::npos) << s.evidence;
}

TEST(QualifierOrdersWithPtxas, TheSearchFindsAKnownAcceptedOrderAndAKnownRejectedOne) {
  Toolchain tc;
  try {
    tc = Toolchain::discover();
  } catch (const std::exception& e) { GTEST_SKIP() << "no ptxas: " << e.what(); }
  const OrderPlan& p = order_plan();
  const OrderSearch* rep = nullptr;
  for (auto const& os : p.plan.order_searches)
    if (os.representative && p.plan.grammar[os.of].cc.combo.block->id == "wmma.load.a.f16") rep = &os;
  ASSERT_NE(rep, nullptr);
  std::vector<Probe> probes;
  for (auto const& a : rep->asked) probes.push_back(p.plan.probes[p.plan.mutations[a.mutation].on.probe]);
  const auto cache = std::filesystem::temp_directory_path() / ("ptxcts-orders-" + std::to_string(::getpid()));
  const std::vector<ProbeVerdict> v = assemble_probes(tc, probes, cache, 2);
  std::filesystem::remove_all(cache);
  const MnemonicUnits s = mnemonic_units(p.plan.grammar[rep->of].cc.combo);
  std::vector<std::pair<UnitOrder, bool>> moves;
  std::size_t accepted = 0, rejected = 0;
  for (std::size_t k = 0; k < rep->asked.size(); ++k) {
    const std::string& text = p.plan.mutations[rep->asked[k].mutation].instruction;
    const bool in_front = text.rfind("wmma.load.a.", 0) == 0;  // ptxas 13.0.88, run by hand
    EXPECT_EQ(v[k].accepted, in_front) << text << ": " << v[k].message;
    (v[k].accepted ? accepted : rejected)++;
    if (rep->asked[k].how == OrderHow::Move) moves.emplace_back(rep->asked[k].order, v[k].accepted);
  }
  EXPECT_GT(accepted, 0u);
  EXPECT_GT(rejected, 0u);
  const OrderModel m = read_order_model(s, moves);
  EXPECT_EQ(m.fixed, (std::vector<std::size_t>{0, 1}));  // .load and .a
}

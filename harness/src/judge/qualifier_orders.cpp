#include "judge/qualifier_orders.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "judge/audit_plan.hpp"

namespace ptxcts {
namespace {

UnitOrder identity(std::size_t n) {
  UnitOrder o(n);
  std::iota(o.begin(), o.end(), std::size_t{0});
  return o;
}

// The order with the qualifier at position `from` moved to position `to`.
UnitOrder moved(UnitOrder o, std::size_t from, std::size_t to) {
  const std::size_t u = o[from];
  o.erase(o.begin() + static_cast<std::ptrdiff_t>(from));
  o.insert(o.begin() + static_cast<std::ptrdiff_t>(to), u);
  return o;
}

// A draw in [0, n): the engine's own output, so that a seed gives the same draws on every library.
std::size_t draw(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

// Every single move: each qualifier to every other position; moving k to k-1 is moving k-1 to k, once.
std::vector<OrderQuestion> single_moves(const MnemonicUnits& s) {
  const std::size_t n = s.units.size();
  std::vector<OrderQuestion> out;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j)
      if (j != k && j + 1 != k)
        out.push_back({.order = moved(identity(n), k, j),
                       .how = OrderHow::Move,
                       .detail = fmt::format("{} moved to position {} of {}", s.units[k].text, j + 1, n)});
  return out;
}

std::string order_words(const MnemonicUnits& s, const UnitOrder& o) {
  std::string w;
  for (auto u : o) w += s.units[u].text;
  return w;
}

}  // namespace

std::vector<OrderQuestion> order_questions(const MnemonicUnits& s, bool full, std::uint64_t seed) {
  const std::size_t n = s.units.size();
  if (n < 2) return {};
  std::mt19937_64 rng(seed);
  std::vector<OrderQuestion> moves = single_moves(s), out;
  std::set<UnitOrder> seen{identity(n)};
  for (auto const& q : moves) seen.insert(q.order);  // a two-move or random order is none of them
  auto keep = [&](OrderQuestion q) {
    seen.insert(q.order);
    out.push_back(std::move(q));
  };
  // Two moves at once and shuffles first, so that a sampled form's draws are its representative's.
  for (std::size_t tries = 0, got = 0; got < kOrderPairs && tries < 8 * kOrderPairs; ++tries) {
    UnitOrder o = moved(moved(identity(n), draw(rng, n), draw(rng, n)), draw(rng, n), draw(rng, n));
    if (seen.count(o)) continue;
    ++got;
    keep({.order = o, .how = OrderHow::TwoMoves, .detail = "two moves: " + order_words(s, o)});
  }
  for (std::size_t tries = 0, got = 0; got < kOrderShuffles && tries < 8 * kOrderShuffles; ++tries) {
    UnitOrder o = identity(n);
    for (std::size_t k = n - 1; k > 0; --k) std::swap(o[k], o[draw(rng, k + 1)]);
    if (seen.count(o)) continue;
    ++got;
    keep({.order = o, .how = OrderHow::Shuffle, .detail = fmt::format("at random (seed {:x}): {}", seed, order_words(s, o))});
  }
  if (!full)  // a seeded sample of the single moves (a partial shuffle of their indices)
    for (std::size_t k = 0; k < std::min(kOrderSampledMoves, moves.size()); ++k)
      std::swap(moves[k], moves[k + draw(rng, moves.size() - k)]);
  moves.resize(full ? moves.size() : std::min(kOrderSampledMoves, moves.size()));
  out.insert(out.begin(), std::make_move_iterator(moves.begin()), std::make_move_iterator(moves.end()));
  return out;
}

std::string order_class(const std::string& block, const MnemonicUnits& s) {
  std::string key = block + "|" + s.opcode;
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    key += "|" + (s.units[k].position ? "{" + s.units[k].name + "}" : s.units[k].text);
    for (std::size_t j = 0; j < k; ++j)
      if (s.units[j].text == s.units[k].text) key += fmt::format("={}", j);
  }
  return key;
}

std::uint64_t order_seed(const std::string& cls) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : cls) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string ordered_text(const MnemonicUnits& s, const UnitOrder& o) {
  std::vector<MnemonicUnit> u;
  for (auto k : o) u.push_back(s.units[k]);
  return join_units(s, u);
}

namespace {
// pos[u]: where qualifier u stands in the order.
UnitOrder positions(const UnitOrder& o) {
  UnitOrder pos(o.size());
  for (std::size_t i = 0; i < o.size(); ++i) pos[o[i]] = i;
  return pos;
}
}  // namespace

namespace {

using PairMatrix = std::vector<std::vector<char>>;

// The pairs (a < b) an order flips that no accepted order flips.
std::vector<std::pair<std::size_t, std::size_t>> unexplained_flips(const UnitOrder& o, const PairMatrix& free) {
  const UnitOrder pos = positions(o);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t a = 0; a < o.size(); ++a)
    for (std::size_t b = a + 1; b < o.size(); ++b)
      if (pos[a] > pos[b] && !free[a][b]) out.emplace_back(a, b);
  return out;
}

// Bound pairs: one that is the only pair a rejected order flips outside the free ones, until every
// rejection is explained; a rejection that stays unexplained binds all its pairs (none told apart).
// A pair only ever flipped beside a bound one stays free (no order asked tells it is bound).
PairMatrix bound_pairs(const std::vector<UnitOrder>& rejected, const PairMatrix& free) {
  PairMatrix bound(free.size(), std::vector<char>(free.size(), 0));
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> flips;
  for (auto const& o : rejected) flips.push_back(unexplained_flips(o, free));
  auto explained = [&](const auto& f) {
    return std::any_of(f.begin(), f.end(), [&](auto const& p) { return bound[p.first][p.second] != 0; });
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (auto const& f : flips)
      if (f.size() == 1 && !bound[f[0].first][f[0].second]) bound[f[0].first][f[0].second] = 1, grew = true;
    for (auto const& f : flips)
      if (!explained(f) && f.size() > 1) {
        for (auto const& p : f) bound[p.first][p.second] = 1;
        grew = true;
        break;  // the sole pairs first again
      }
  }
  return bound;
}

}  // namespace

OrderModel read_order_model(const MnemonicUnits& s, const std::vector<std::pair<UnitOrder, bool>>& moves) {
  const std::size_t n = s.units.size();
  PairMatrix free(n, std::vector<char>(n, 0));
  for (std::size_t a = 0; a < n; ++a)  // two qualifiers of one text: no order tells them apart
    for (std::size_t b = a + 1; b < n; ++b) free[a][b] = s.units[a].text == s.units[b].text;
  std::vector<UnitOrder> rejected;
  for (auto const& [o, ok] : moves) {
    if (!ok) {
      rejected.push_back(o);
      continue;
    }
    const UnitOrder pos = positions(o);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) free[a][b] |= pos[a] > pos[b];
  }
  OrderModel m{.n = n, .constrained = bound_pairs(rejected, free), .floating = {}, .fixed = {}};
  PairMatrix before = m.constrained;  // its transitive closure: what must come before what
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) before[a][b] |= before[a][k] && before[k][b];
  auto bound = [&](std::size_t u, std::size_t v) { return u != v && (before[u][v] || before[v][u]); };
  std::vector<char> fixed(n, 0);
  for (std::size_t u = 0; u < n; ++u) {
    std::size_t with = 0;
    for (std::size_t v = 0; v < n; ++v) with += bound(u, v);
    if (with + 1 == n) m.fixed.push_back(u), fixed[u] = 1;
  }
  for (std::size_t u = 0; u < n; ++u) {
    bool floats = !fixed[u];
    for (std::size_t v = 0; v < n && floats; ++v) floats = fixed[v] || !bound(u, v);
    if (floats) m.floating.push_back(u);
  }
  return m;
}

bool model_accepts(const OrderModel& m, const UnitOrder& o) {
  const UnitOrder pos = positions(o);
  for (std::size_t a = 0; a < m.n; ++a)
    for (std::size_t b = a + 1; b < m.n; ++b)
      if (m.constrained[a][b] && pos[a] > pos[b]) return false;
  return true;
}

std::uint64_t model_order_count(const OrderModel& m) {
  if (m.n > 20) return 0;
  std::vector<std::uint32_t> before(m.n, 0);  // the qualifiers that must come before each
  for (std::size_t a = 0; a < m.n; ++a)
    for (std::size_t b = a + 1; b < m.n; ++b)
      if (m.constrained[a][b]) before[b] |= 1u << a;
  std::vector<std::uint64_t> ways(std::size_t{1} << m.n, 0);  // orders of the first |mask| positions
  ways[0] = 1;
  for (std::uint32_t mask = 0; mask + 1 < (1u << m.n); ++mask) {
    if (!ways[mask]) continue;
    for (std::size_t u = 0; u < m.n; ++u)
      if (!(mask >> u & 1) && (before[u] & ~mask) == 0) ways[mask | 1u << u] += ways[mask];
  }
  return ways.back();
}

std::uint64_t factorial(std::size_t n) {
  std::uint64_t f = 1;
  for (std::size_t k = 2; k <= n; ++k) {
    if (f > std::numeric_limits<std::uint64_t>::max() / k) return std::numeric_limits<std::uint64_t>::max();
    f *= k;
  }
  return f;
}


namespace {

// The plan's search, form by form: the classes, the forms each orders are asked of, and where.
struct OrderPlanner {
  AuditPlan& plan;
  std::map<std::size_t, std::map<std::string, std::size_t>> known{};  // form -> order text -> mutation
  std::map<std::size_t, std::string> home{};                           // form -> the target its negative space is on

  void index_mutations() {
    for (std::size_t i = 0; i < plan.mutations.size(); ++i) {
      const MutationSubject& ms = plan.mutations[i];
      if (!ms.home || plan.probes[ms.on.probe].ptx != plan.toolkit_ptx) continue;  // a version's question: elsewhere
      home.emplace(ms.of, ms.on.target);
      if (ms.m->kind == "order") known[ms.of].emplace(ms.m->text, i);
    }
  }

  // The order asked of form k: found among the mutations already planned, else a probe of its own
  // (`add`); nullopt where it is the documented text (two qualifiers of one text) or not asked.
  std::optional<std::size_t> asked(std::size_t k, const MnemonicUnits& s, const OrderQuestion& q, bool add) {
    const Combination& c = plan.grammar[k].cc.combo;
    std::string text = ordered_text(s, q.order);
    if (text == c.text) return std::nullopt;
    if (auto it = known[k].find(text); it != known[k].end()) return it->second;
    if (!add) return std::nullopt;
    const OperandShape shape = documented_shape(c);
    ProbeText pt = probe_text(text, shape);
    // Group 3: orders share modules only among themselves (ptxas takes most of them: few re-runs).
    plan.probes.push_back({.target = home[k], .ptx = plan.toolkit_ptx, .body = std::move(pt.body), .arch = "", .group = 3});
    Mutation m{.kind = "order", .detail = q.detail, .text = text, .shape = shape, .expected = DocClass::Undocumented,
               .words = "", .source = ""};
    plan.mutations.push_back({.of = k, .m = share(std::move(m)), .instruction = std::move(pt.instruction),
                              .on = {.target = home[k], .probe = plan.probes.size() - 1}, .home = true});
    known[k].emplace(std::move(text), plan.mutations.size() - 1);
    return plan.mutations.size() - 1;
  }

  void search(std::size_t k, const std::string& cls, bool representative, bool sampled) {
    const MnemonicUnits s = mnemonic_units(plan.grammar[k].cc.combo);
    OrderSearch out{.of = k, .cls = cls, .representative = representative, .sampled = sampled, .asked = {}};
    std::vector<OrderQuestion> qs;
    if (representative || sampled) qs = order_questions(s, representative, order_seed(cls));
    for (std::size_t j = 0; j + 1 < s.units.size(); ++j)  // the neighbour swaps, asked of every form
      qs.push_back({.order = moved(identity(s.units.size()), j, j + 1), .how = OrderHow::Move, .detail = ""});
    std::set<std::size_t> seen;  // by mutation: two orders of one text (qualifiers alike) asked once
    for (auto const& q : qs)
      if (auto i = asked(k, s, q, representative || sampled); i && seen.insert(*i).second)
        out.asked.push_back({.order = q.order, .how = q.how, .mutation = *i});
    plan.order_searches.push_back(std::move(out));
  }
};

}  // namespace

void plan_qualifier_orders(AuditPlan& plan) {
  OrderPlanner p{.plan = plan};
  p.index_mutations();
  std::map<std::string, std::vector<std::size_t>> classes;  // class -> its forms, in the plan's order
  std::vector<std::string> order;
  for (std::size_t k = 0; k < plan.grammar.size(); ++k) {
    const ClassifiedCombination& cc = plan.grammar[k].cc;
    if (cc.doc != DocClass::Valid || !p.home.count(k)) continue;
    const std::string cls = order_class(cc.combo.block->id, mnemonic_units(cc.combo));
    auto& forms = classes[cls];
    if (forms.empty()) order.push_back(cls);
    forms.push_back(k);
  }
  for (auto const& cls : order) {
    std::vector<std::size_t> forms = classes[cls];
    std::mt19937_64 rng(order_seed(cls) ^ 0x5a5a5a5a5a5a5a5aull);  // which other forms are sampled
    for (std::size_t j = 1; j < std::min(forms.size(), 1 + kOrderSampledForms); ++j)
      std::swap(forms[j], forms[j + draw(rng, forms.size() - j)]);
    for (std::size_t j = 0; j < forms.size(); ++j) p.search(forms[j], cls, j == 0, j > 0 && j <= kOrderSampledForms);
  }
  std::sort(plan.order_searches.begin(), plan.order_searches.end(),
            [](const OrderSearch& a, const OrderSearch& b) { return a.of < b.of; });
}

}  // namespace ptxcts

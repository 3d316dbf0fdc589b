// Qualifier order as a space, searched: for each documented form, which orders of its qualifiers
// ptxas accepts. The forms of a block whose qualifiers are the same units by name (the same
// positions and fixed tokens, the same of them equal in text) are one class; its first form, the
// class's representative, is searched: each qualifier moved to every other position (the (n-1)^2
// orders one move makes, the neighbour swaps among them), two moves at once and orders at random
// (seeded, kOrderPairs and kOrderShuffles of each). From the single moves a model is read: which
// pairs of qualifiers must keep their documented order (a pair no accepted move flips that is the only
// such pair a rejected move flips, until every rejection is explained; a pair only ever flipped beside
// a bound one stays free); the model accepts exactly the orders that keep them, which makes the fixed qualifiers
// (bound to every other) and the floating ones (bound to none but the fixed), and how many of the n!
// orders it accepts (counted, never enumerated). The two-move and random orders check the model;
// a seeded sample of the class's other forms (kOrderSampledForms) is asked the same two-move and
// random orders and kOrderSampledMoves single moves, and every form's neighbour swaps (the negative
// space asks them of every form) are compared with the representative's: the class is one only if
// they all agree. Every order asked is a negative-space mutation of kind "order" (QualifierOrders):
// what no document gives, so that its acceptance is an undocumented form accepted, as for a swap.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "judge/mnemonic_units.hpp"

namespace ptxcts {

struct AuditPlan;

// An order of a form's qualifiers: order[i] is the documented index of the qualifier at position i.
using UnitOrder = std::vector<std::size_t>;

inline constexpr std::size_t kOrderPairs = 4;          // two moves at once, per searched form
inline constexpr std::size_t kOrderShuffles = 4;       // orders at random, per searched form
inline constexpr std::size_t kOrderSampledForms = 2;   // other forms of a class asked the checks
inline constexpr std::size_t kOrderSampledMoves = 4;   // single moves asked of each sampled form

enum class OrderHow { Move, TwoMoves, Shuffle };

struct OrderQuestion {
  UnitOrder order;
  OrderHow how = OrderHow::Move;
  std::string detail;  // "moved .x1 to position 1 (of 5)", ...
};

// The orders asked of a form of n qualifiers: `full` (a class's representative) every single move,
// else kOrderSampledMoves of them; both kOrderPairs two-move orders and kOrderShuffles shuffles, all
// drawn from `seed`. None is the documented order; none twice.
std::vector<OrderQuestion> order_questions(const MnemonicUnits& s, bool full, std::uint64_t seed);

// The class of a form's qualifier orders within its block: the units by name, and which are equal in text.
std::string order_class(const std::string& block, const MnemonicUnits& s);
// A stable seed for a class (FNV-1a of its key).
std::uint64_t order_seed(const std::string& cls);

// The order's mnemonic (the rest of the instruction kept).
std::string ordered_text(const MnemonicUnits& s, const UnitOrder& o);

// Which pairs of qualifiers keep their documented order, read from the single moves' verdicts.
struct OrderModel {
  std::size_t n = 0;
  std::vector<std::vector<char>> constrained;  // [a][b], a < b: a must stay before b
  // fixed: bound to every other qualifier; floating: bound to none but the fixed ones (it takes every
  // place they leave: wmma.load.a's .sync anywhere after .load.a).
  std::vector<std::size_t> floating, fixed;
};
OrderModel read_order_model(const MnemonicUnits& s, const std::vector<std::pair<UnitOrder, bool>>& moves);
bool model_accepts(const OrderModel& m, const UnitOrder& o);
// How many orders (the documented one among them) the model accepts: its linear extensions, counted
// over subsets (n <= 24; more: 0, not counted).
std::uint64_t model_order_count(const OrderModel& m);
std::uint64_t factorial(std::size_t n);  // saturating at 2^64-1

// One order asked of one form: its index into AuditPlan::mutations.
struct OrderAsked {
  UnitOrder order;
  OrderHow how = OrderHow::Move;
  std::size_t mutation = 0;
};

// A form's orders asked: the representative's search, a sampled form's checks, or (neither) only
// the neighbour swaps the negative space asks of every form.
struct OrderSearch {
  std::size_t of = 0;  // index into AuditPlan::grammar
  std::string cls;
  bool representative = false, sampled = false;
  std::vector<OrderAsked> asked;
};

// What the search found of a syntax block: the set of orders ptxas accepts, over its classes.
struct QualifierOrderSet {
  std::string block, family;
  std::size_t forms = 0, classes = 0;  // documented forms (each in its documented order), classes of them
  std::size_t asked = 0, accepted = 0, rejected = 0;  // orders asked of every form, and ptxas's verdicts
  // Over the classes' representatives: every order of their qualifiers (n! each), and those the model
  // read from the single moves accepts (the documented order among them).
  std::uint64_t orders = 0, model_accepted = 0;
  std::string documented;                   // the first representative's documented order, as assembled
  // Qualifiers ({position} or fixed text): floating in every class it is in / fixed in one.
  std::vector<std::string> floating, fixed;
  std::vector<std::string> constrained;     // "a before b" pairs the model keeps, over the classes
  std::vector<std::string> examples;        // undocumented orders ptxas accepted (the first few), as assembled
  std::size_t checked = 0, mispredicted = 0;  // two-move and random orders against the model
  std::size_t compared = 0, differing = 0;    // other forms' orders against their representative's
};

// Adds the search's orders to the plan (after the negative space: an order it already asks, such as a
// neighbour swap, is not asked again but found there) and, per documented form, its OrderSearch.
void plan_qualifier_orders(AuditPlan& plan);

}  // namespace ptxcts

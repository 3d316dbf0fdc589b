#include "spec/formula.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cstdint>

namespace ptxcts {

void Bindings::set(std::string_view name, std::int64_t value) {
  for (auto& [n, v] : items_)
    if (n == name) {
      v = value;
      return;
    }
  items_.emplace_back(std::string(name), value);
}

const std::int64_t* Bindings::find(std::string_view name) const {
  for (auto const& [n, v] : items_)
    if (n == name) return &v;
  return nullptr;
}

// Precedence climbing over a small C-like grammar; every error names the column it stopped at.
class FormulaParser {
 public:
  explicit FormulaParser(Formula& f) : f_(f), s_(f.text_) {}

  void parse() {
    if (s_.size() > 1000)  // keeps evaluation, which recurses per operator, far from the stack's end
      throw FormulaSyntaxError(1000, fmt::format("formula of {} characters; at most 1000 are allowed", s_.size()));
    skip_space();
    if (pos_ >= s_.size()) throw FormulaSyntaxError(0, "expected a formula, found nothing");
    f_.root_ = parse_binary(0);
    skip_space();
    if (pos_ < s_.size())
      throw FormulaSyntaxError(pos_, fmt::format("unexpected '{}' after a complete formula", s_[pos_]));
  }

 private:
  struct BinOp {
    std::string_view token;
    Formula::Op op;
    int precedence;
  };
  static constexpr BinOp kBinOps[] = {
      {.token = "||", .op = Formula::Op::LOr, .precedence = 1},
      {.token = "&&", .op = Formula::Op::LAnd, .precedence = 2},
      {.token = "==", .op = Formula::Op::Eq, .precedence = 6},
      {.token = "!=", .op = Formula::Op::Ne, .precedence = 6},
      {.token = "<=", .op = Formula::Op::Le, .precedence = 7},
      {.token = ">=", .op = Formula::Op::Ge, .precedence = 7},
      {.token = "<<", .op = Formula::Op::Shl, .precedence = 8},
      {.token = ">>", .op = Formula::Op::Shr, .precedence = 8},
      {.token = "<", .op = Formula::Op::Lt, .precedence = 7},
      {.token = ">", .op = Formula::Op::Gt, .precedence = 7},
      {.token = "|", .op = Formula::Op::Or, .precedence = 3},
      {.token = "^", .op = Formula::Op::Xor, .precedence = 4},
      {.token = "&", .op = Formula::Op::And, .precedence = 5},
      {.token = "+", .op = Formula::Op::Add, .precedence = 9},
      {.token = "-", .op = Formula::Op::Sub, .precedence = 9},
      {.token = "*", .op = Formula::Op::Mul, .precedence = 10},
      {.token = "/", .op = Formula::Op::Div, .precedence = 10},
      {.token = "%", .op = Formula::Op::Mod, .precedence = 10},
  };

  int add(Formula::Node n) {
    f_.nodes_.push_back(std::move(n));
    return static_cast<int>(f_.nodes_.size() - 1);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  const BinOp* peek_binop() {
    skip_space();
    for (auto const& b : kBinOps)
      if (s_.substr(pos_, b.token.size()) == b.token) return &b;
    return nullptr;
  }

  int parse_binary(int min_precedence) {
    if (++depth_ > 64) throw FormulaSyntaxError(pos_, "formula nests too deeply (at most 64 levels)");
    int lhs = parse_unary();
    for (;;) {
      const BinOp* b = peek_binop();
      if (!b || b->precedence < min_precedence) break;
      pos_ += b->token.size();
      int rhs = parse_binary(b->precedence + 1);
      lhs = add({.op = b->op, .lhs = lhs, .rhs = rhs});
    }
    --depth_;
    return lhs;
  }

  int parse_unary() {
    skip_space();
    if (pos_ >= s_.size()) throw FormulaSyntaxError(pos_, "expected a number, a variable or '(' but the formula ended");
    char c = s_[pos_];
    if (c == '-' || c == '!') {
      ++pos_;
      if (++depth_ > 64) throw FormulaSyntaxError(pos_, "formula nests too deeply (at most 64 levels)");
      int operand = parse_unary();
      --depth_;
      return add({.op = c == '-' ? Formula::Op::Neg : Formula::Op::Not, .lhs = operand});
    }
    if (c == '(') {
      std::size_t open = pos_++;
      int inner = parse_binary(0);
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ')')
        throw FormulaSyntaxError(pos_, fmt::format("expected ')' to close the '(' before '{}'",
                                                   s_.substr(open + 1, std::min<std::size_t>(12, pos_ - open - 1))));
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t start = pos_;
      std::int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        v = v * 10 + (s_[pos_] - '0');
        if (v > (std::int64_t{1} << 40)) throw FormulaSyntaxError(start, "number too large (at most 2^40)");
        ++pos_;
      }
      if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        throw FormulaSyntaxError(pos_, "expected an operator after a number, found a letter");
      return add({.op = Formula::Op::Num, .value = v});
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      return add({.op = Formula::Op::Var, .name = std::string(s_.substr(start, pos_ - start))});
    }
    throw FormulaSyntaxError(pos_, fmt::format("expected a number, a variable or '(' but found '{}'", c));
  }

  Formula& f_;
  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

Formula Formula::parse(std::string_view text) {
  Formula f;
  f.text_ = std::string(text);
  FormulaParser(f).parse();
  return f;
}

std::set<std::string> Formula::variables() const {
  std::set<std::string> out;
  for (auto const& n : nodes_)
    if (n.op == Op::Var) out.insert(n.name);
  return out;
}

std::int64_t Formula::eval(const Bindings& bindings) const {
  if (root_ < 0) throw FormulaEvalError("empty formula");
  return eval_node(root_, bindings);
}

std::int64_t Formula::eval_node(int index, const Bindings& b) const {
  const Node& n = nodes_[static_cast<std::size_t>(index)];
  switch (n.op) {
    case Op::Num: return n.value;
    case Op::Var: {
      if (const std::int64_t* v = b.find(n.name)) return *v;
      throw FormulaEvalError(fmt::format("'{}' uses '{}', which has no value here", text_, n.name));
    }
    case Op::Neg: {
      std::int64_t v = eval_node(n.lhs, b), out = 0;
      if (__builtin_sub_overflow(std::int64_t{0}, v, &out))
        throw FormulaEvalError(fmt::format("'{}' overflows", text_));
      return out;
    }
    case Op::Not: return eval_node(n.lhs, b) == 0;
    case Op::LAnd: return eval_node(n.lhs, b) != 0 && eval_node(n.rhs, b) != 0;
    case Op::LOr: return eval_node(n.lhs, b) != 0 || eval_node(n.rhs, b) != 0;
    default: break;
  }
  std::int64_t l = eval_node(n.lhs, b), r = eval_node(n.rhs, b), out = 0;
  auto overflow = [&] { return FormulaEvalError(fmt::format("'{}' overflows", text_)); };
  switch (n.op) {
    case Op::Add:
      if (__builtin_add_overflow(l, r, &out)) throw overflow();
      return out;
    case Op::Sub:
      if (__builtin_sub_overflow(l, r, &out)) throw overflow();
      return out;
    case Op::Mul:
      if (__builtin_mul_overflow(l, r, &out)) throw overflow();
      return out;
    case Op::Div:
    case Op::Mod:
      if (r == 0) throw FormulaEvalError(fmt::format("'{}' divides by zero", text_));
      if (l == INT64_MIN && r == -1) throw overflow();
      return n.op == Op::Div ? l / r : l % r;
    case Op::Shl:
    case Op::Shr:
      if (r < 0 || r > 62) throw FormulaEvalError(fmt::format("'{}' shifts by {}, outside 0..62", text_, r));
      if (n.op == Op::Shr) return l >> r;
      if (l < 0 || (r > 0 && l > (INT64_MAX >> r))) throw overflow();
      return l << r;
    case Op::And: return l & r;
    case Op::Or: return l | r;
    case Op::Xor: return l ^ r;
    case Op::Lt: return l < r;
    case Op::Le: return l <= r;
    case Op::Gt: return l > r;
    case Op::Ge: return l >= r;
    case Op::Eq: return l == r;
    case Op::Ne: return l != r;
    default: throw FormulaEvalError("internal: unknown operator");
  }
}

}  // namespace ptxcts

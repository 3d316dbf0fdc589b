// Integer formulas in the manual's notation (`lane / 4`, `(lane % 4) * 2 + i`, `lane < 8 * matrices`),
// used by specs for address-lane mappings and fragment layouts.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxcts {

// Variable values a formula is evaluated with (lane, r, i, matrices, ...).
class Bindings {
 public:
  void set(std::string_view name, std::int64_t value);
  const std::int64_t* find(std::string_view name) const;
  std::vector<std::pair<std::string, std::int64_t>> const& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::int64_t>> items_;
};

// A syntax error: `column` is the 0-based offset in the formula text where it was found.
struct FormulaSyntaxError : std::runtime_error {
  FormulaSyntaxError(std::size_t column, const std::string& what) : std::runtime_error(what), column(column) {}
  std::size_t column;
};

// An evaluation error: division by zero, an unbound variable, an out-of-range shift.
struct FormulaEvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Formula {
 public:
  Formula() = default;
  static Formula parse(std::string_view text);  // throws FormulaSyntaxError

  std::int64_t eval(const Bindings& bindings) const;  // throws FormulaEvalError
  const std::string& text() const { return text_; }
  std::set<std::string> variables() const;
  bool empty() const { return nodes_.empty(); }

  enum class Op {
    Num,
    Var,
    Neg,
    Not,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LAnd,
    LOr
  };
  struct Node {
    Op op;
    std::int64_t value = 0;  // Num
    std::string name;        // Var
    int lhs = -1, rhs = -1;
  };

 private:
  std::int64_t eval_node(int index, const Bindings& bindings) const;
  std::string text_;
  std::vector<Node> nodes_;
  int root_ = -1;
  friend class FormulaParser;
};

}  // namespace ptxcts

// The manual's piecewise notation for mma fragment layouts, read as written (PTX ISA 9.0,
// 9.7.14.5.1-13, and the sparse A blocks of 9.7.14.6.2.1-8), e.g.
//     groupID for ai where 0 <= i < 2 || 4 <= i < 6
//      groupID + 8 Otherwise
// One line per case: a value, then what selects it ("for ai where COND", or "For ai where COND" as
// some sparse blocks write it; "for a0 and a2", "if %laneid < 16", "otherwise"), or a local
// definition ("where X = ..."). Conditions chain comparisons as the manual does (0 <= i < 2), `=`
// compares, `i = {0,..,3}` is a range and `{0, 1}` a set; %laneid, 0x1F and 0b10 are read as written.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "spec/formula.hpp"

namespace ptxcts {

// A line of the notation that cannot be read: `line` is 0-based within the text, `column` 0-based
// within that line.
struct ManualFormulaError : std::runtime_error {
  ManualFormulaError(int line, std::size_t column, const std::string& what)
      : std::runtime_error(what), line(line), column(column) {}
  int line;
  std::size_t column;
};

class ManualFormula {
 public:
  static ManualFormula parse(std::string_view text);  // throws ManualFormulaError

  // The first case whose selection holds (so an "otherwise" case holds where none before it did).
  // Throws FormulaEvalError when no case applies.
  std::int64_t eval(const Bindings& bindings) const;
  std::set<std::string> variables() const;  // free variables (laneid for %laneid), locals excluded
  const std::string& text() const { return text_; }
  bool empty() const { return cases_.empty(); }

 private:
  struct Case {
    Formula value, when;  // when: empty = always
    bool otherwise = false;  // the line ends in "otherwise": it takes what the lines before it left
    std::string line;
  };
  struct Local {
    std::string name;
    Formula value;
  };
  std::string text_;
  std::vector<Local> locals_;
  std::vector<Case> cases_;
};

// One condition or value of the notation in the formula language of spec/formula.hpp
// (exposed for tests): "0 <= i < 2" -> "(0 <= i && i < 2)", "i = {0,..,3}" -> "(i >= 0 && i <= 3)".
std::string manual_to_formula(std::string_view text);

}  // namespace ptxcts

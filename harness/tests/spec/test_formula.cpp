#include <gtest/gtest.h>

#include "spec/formula.hpp"

using namespace ptxcts;

namespace {
std::int64_t eval(const char* text, std::initializer_list<std::pair<const char*, std::int64_t>> vars = {}) {
  Bindings b;
  for (auto const& [n, v] : vars) b.set(n, v);
  return Formula::parse(text).eval(b);
}
}  // namespace

TEST(Formula, ManualNotation) {
  EXPECT_EQ(eval("lane / 4", {{"lane", 13}}), 3);
  EXPECT_EQ(eval("(lane % 4) * 2 + i", {{"lane", 13}, {"i", 1}}), 3);
  EXPECT_EQ(eval("lane >> 2", {{"lane", 31}}), 7);
  EXPECT_EQ(eval("lane < 8 * matrices", {{"lane", 15}, {"matrices", 2}}), 1);
  EXPECT_EQ(eval("lane < 8 * matrices", {{"lane", 16}, {"matrices", 2}}), 0);
}

TEST(Formula, PrecedenceAndAssociativity) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("20 - 5 - 3"), 12);
  EXPECT_EQ(eval("1 << 2 + 1"), 8);  // as in C: + binds tighter than <<
  EXPECT_EQ(eval("-3 + 5"), 2);
  EXPECT_EQ(eval("!0 && 1 || 0"), 1);
  EXPECT_EQ(eval("6 & 3 | 8 ^ 1"), 11);
}

TEST(Formula, ReportsVariables) {
  auto vars = Formula::parse("(lane % 4) * 2 + i + r * matrices").variables();
  EXPECT_EQ(vars, (std::set<std::string>{"i", "lane", "matrices", "r"}));
}

TEST(Formula, SyntaxErrorsNameTheColumn) {
  auto column_of = [](const char* text) -> std::size_t {
    try {
      Formula::parse(text);
    } catch (const FormulaSyntaxError& e) { return e.column; }
    ADD_FAILURE() << "no error for " << text;
    return 999;
  };
  EXPECT_EQ(column_of("lane / "), 7u);
  EXPECT_EQ(column_of("(lane % 4"), 9u);
  EXPECT_EQ(column_of("lane $ 4"), 5u);
  EXPECT_EQ(column_of("4lane"), 1u);
  EXPECT_EQ(column_of(""), 0u);
  EXPECT_EQ(column_of("lane 4"), 5u);
}

TEST(Formula, EvaluationErrors) {
  EXPECT_THROW(eval("lane / 0", {{"lane", 1}}), FormulaEvalError);
  EXPECT_THROW(eval("lane % (i - i)", {{"lane", 1}, {"i", 3}}), FormulaEvalError);
  EXPECT_THROW(eval("lane + k", {{"lane", 1}}), FormulaEvalError);
  EXPECT_THROW(eval("1 << 70"), FormulaEvalError);
}

TEST(Formula, DeepNestingIsAnErrorNotACrash) {
  std::string deep(1000, '(');
  deep += "1";
  deep += std::string(1000, ')');
  EXPECT_THROW(Formula::parse(deep), FormulaSyntaxError);
  EXPECT_THROW(Formula::parse(std::string(1000, '-') + "1"), FormulaSyntaxError);
}

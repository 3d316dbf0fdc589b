// Every element type on every shape and every matrix: for each instruction (wmma.load.a, ...,
// wmma.mma, mma, ldmatrix, stmatrix, movmatrix), every shape any syntax of its kind spells, with
// each of its type qualifiers (each matrix's) given every element type any syntax spells, the
// others as a documented form of that shape has them. A combination no syntax block spells is
// undocumented: ptxas accepting it is a finding of its class. Each is asked with the registers the
// documented form has, and with those of the asked type's own fragment-table row (spec RegisterClaim:
// count and register type) where it has one, else those its fragment's size gives (elements x bits
// / 1024) in the representative's register type.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "judge/negative_space.hpp"

namespace ptxcts {

struct TypeShapeQuestion {
  std::size_t of = 0;  // the representative it is written from (index into the caller's list)
  Mutation m;
};

// The instruction a combination belongs to for the product: its text up to .sync ("wmma.load.a", "mma").
std::string product_instruction(const std::string& text);

// A fragment table row (spec RegisterClaim with its `register_type`) for one operand of one form:
// the register count and register type it states.
struct FragmentRow {
  std::string claim;  // the register claim's id
  int registers = 0;
  std::string register_type;
};
// Rows by instruction (product_instruction), operand (regs; d, a, b, c), shape and the operand's
// element type, from each typed claim's forms (`forms`: the grammar's documented forms).
using FragmentRowKey = std::tuple<std::string, std::string, std::string, std::string>;
using FragmentRows = std::map<FragmentRowKey, FragmentRow>;
FragmentRows fragment_rows(const std::vector<RegisterClaim>& claims, const std::vector<const ClassifiedCombination*>& forms);

// `representatives`: each block's representative form; `asked`: the texts the grammar asks already;
// `rows`: the fragment table rows, whose register count and type each asked type takes where it has
// one (at the asked shape: both; at another: its register type, the count by the fragment's size).
std::vector<TypeShapeQuestion> type_shape_product(const std::vector<const ClassifiedCombination*>& representatives,
                                                  const GrammarPools& pools, const std::set<std::string>& asked,
                                                  const FragmentRows& rows = {});

// The words a type x shape question's detail says where the asked type has no row of its own
// (judge/question_coverage.cpp counts them).
inline constexpr const char* kNoFragmentRow = "no fragment-table row for";

}  // namespace ptxcts

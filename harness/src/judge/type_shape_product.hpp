// Every element type on every shape and every matrix: for each instruction (wmma.load.a, ...,
// wmma.mma, mma, ldmatrix, stmatrix, movmatrix), every shape any syntax of its kind spells, with
// each of its type qualifiers (each matrix's) given every element type any syntax spells, the
// others as a documented form of that shape has them. A combination no syntax block spells is
// undocumented: ptxas accepting it is a finding of its class. Each is asked with the registers the
// documented form has and with those its fragment's size gives (elements x bits / 1024).
#pragma once

#include <set>
#include <string>
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

// `representatives`: each block's representative form; `asked`: the texts the grammar asks already.
std::vector<TypeShapeQuestion> type_shape_product(const std::vector<const ClassifiedCombination*>& representatives,
                                                  const GrammarPools& pools, const std::set<std::string>& asked);

}  // namespace ptxcts

// A combination's mnemonic as units, so that the negative space can leave one out, double it,
// reorder it or put another value in its place: the opcode, then each qualifier (a fixed token of
// the syntax, or a position's value, which may span tokens such as .b8x16.b6x16_p32), then the
// operands (from the first space on).
#pragma once

#include <string>
#include <vector>

#include "spec/grammar.hpp"

namespace ptxcts {

struct MnemonicUnit {
  std::string text;
  bool optional = false;  // a position that may be left out
  bool position = false;
  std::string name;  // the position's name ("" for a fixed token)
};

struct MnemonicUnits {
  std::string opcode;
  std::vector<MnemonicUnit> units;
  std::string rest;  // from the first space on
};

MnemonicUnits mnemonic_units(const Combination& c);
std::string join_units(const MnemonicUnits& s, const std::vector<MnemonicUnit>& units);

}  // namespace ptxcts

// Lanes 16 to 31 of each warp leaving an instruction that the whole warp must execute (issue 42,
// part 4): they exit just before it, skip it under a predicate true for lanes 0 to 15 alone, or run
// another form of it on a divergent path. The manual leaves each undefined ("all threads in the warp
// evaluate the condition identically", "the same qualifiers, or if any thread in the warp has
// exited"), so a case of such a shape runs on a kernel of its own, isolated, and what the GPU does is
// an observation. What every kind with such cases shares: the 'lanes' and 'other_form' fields of a
// case, the form lanes 16 to 31 run, and the PTX around the instruction (names no kind).
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "spec/instance.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

enum class LanesShape { All, UpperExited, UpperPredicatedOff, UpperOtherForm };

// The shape's name in cases.yaml and kernel names: "upper-exited", "upper-predicated-off",
// "upper-other-form" ("" for All).
const char* lanes_shape_name(LanesShape lanes);

// A case's 'lanes' and, with upper-other-form alone, its 'other_form' (the qualifier values lanes 16
// to 31 run, the rest as the case's form). Absent: All. Fails at the field (file:line:column) for an
// unknown shape, or an 'other_form' without upper-other-form or the other way round.
struct LanesCase {
  LanesShape lanes = LanesShape::All;
  std::map<std::string, std::string> other_form;  // qualifier -> value
};
LanesCase read_lanes_case(const YamlReader& item);

// Whether inst has, for every qualifier `only` names, one of the values listed (a case's 'where').
bool lanes_admits(const Instance& inst, const std::map<std::string, std::vector<std::string>>& only);

// The instance of inst's variant with other_form's qualifier values and inst's for the rest (nullptr
// when other_form is empty); throws std::runtime_error when the variant has no such form.
const Instance* lanes_other_form(const std::deque<Instance>& instances, const Instance& inst,
                                 const std::map<std::string, std::string>& other_form);

// The PTX around the instruction(s) under test: `before` them (the lanes' test into %p0 through
// scratch, a 32-bit register free there; the exit; or the branch of lanes 0 to 15 past
// `other_instruction`, which lanes 16 to 31 run), `predicate` before each ("@%p0 "), `after` them
// (the join). All empty for LanesShape::All.
struct LanesCode {
  std::string before, predicate, after;
};
LanesCode lanes_code(LanesShape lanes, const std::string& scratch, const std::string& other_instruction = "");

}  // namespace ptxcts

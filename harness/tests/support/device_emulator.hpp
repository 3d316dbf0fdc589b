// A GPU in software, for the fake device runner: runs a kernel's steps on a launch's input as the
// specs say the instructions behave (fragment instructions through the reference model's layouts,
// wmma through the model's matrices with a register layout of its own, which the manual leaves
// open), or gets them wrong in a stated way (a mutant), so that tests show that the suite's checks
// catch each wrong device.
#pragma once

#include <string>

#include "model/launch.hpp"
#include "plan/suite.hpp"

namespace ptxcts::test {

enum class Mutant {
  None,      // a correct device
  Echo,      // executes nothing: every output is its input
  Zero,      // every output is zero
  Shuffled,  // each instruction delivers each lane's result to the next lane (stores: takes it from there)
  OffByOne,  // the first word the kernel changes is written one word later; its own place keeps its old value
  Stale,     // returns the previous launch's (correct) outputs
  // mma read through the manual's layouts relabelled (index i of the axis read as (i + 1) mod size;
  // everything else correct). Consistent, across every operand with that axis: the same function as
  // the manual's (issue 38: no program can tell them apart, so they are no wrong devices and are not
  // in cases.yaml's `mutants`): m (A's, C's and D's rows), n (B's, C's and D's columns), k (A's
  // columns, B's rows). Inconsistent, the controls that a relabelling can be seen: A's rows alone, D's
  // rows alone.
  MmaPermuteM,
  MmaPermuteN,
  MmaPermuteK,
  MmaPermuteAM,
  MmaPermuteDM,
};
Mutant mutant_from_string(const std::string& s);  // throws std::invalid_argument

class DeviceEmulator {
 public:
  // Throws std::runtime_error where a real GPU would fault (an address outside the tiles).
  LaunchState run(const KernelPlan& kernel, const LaunchInput& input, Mutant mutant);

 private:
  LaunchState correct(const KernelPlan& kernel, const LaunchInput& input, bool shuffle, Mutant relabel = Mutant::None);
  LaunchState previous_;
  bool has_previous_ = false;
};

}  // namespace ptxcts::test

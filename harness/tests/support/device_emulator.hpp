// A GPU in software, for the fake device runner: runs a kernel's steps on a launch's input as the
// specs say the instructions behave, through the emulator of the kernel's kind (each kind's in its
// room, harness/tests/kinds/<kind>/<kind>_emulator.cpp, registered with add_kind_emulator), or gets
// them wrong in a stated way (a mutant), so that tests show that the suite's checks catch each wrong
// device.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/launch.hpp"
#include "plan/suite.hpp"
#include "spec/layout.hpp"

namespace ptxcts {
class InstructionKind;
}

namespace ptxcts::test {

enum class Mutant {
  None,      // a correct device
  Echo,      // executes nothing: every output is its input
  Zero,      // every output is zero
  Shuffled,  // each instruction delivers each lane's result to the next lane (stores: takes it from there)
  OffByOne,  // the first word the kernel changes is written one word later; its own place keeps its old value
  Stale,     // returns the previous launch's (correct) outputs
  // A product read through the manual's layouts relabelled (index i of the axis read as (i + 1) mod size;
  // everything else correct). Consistent, across every operand with that axis: the same function as
  // the manual's (issue 38: no program can tell them apart, so they are no wrong devices and are not
  // in cases.yaml's `mutants`): m (A's, C's and D's rows), n (B's, C's and D's columns), k (A's
  // columns, B's rows). Inconsistent, the controls that a relabelling can be seen: A's rows alone, D's
  // rows alone.
  // The kind that has them names them (kinds/mma/mma_emulator.cpp: mma-permute-m, ...).
  PermuteM,
  PermuteN,
  PermuteK,
  PermuteAM,
  PermuteDM,
};
Mutant mutant_from_string(const std::string& s);  // throws std::invalid_argument

// A kind's GPU in software: the kernel run as the specs say, or shuffled (each instruction's results
// delivered to the lane before), or read as one of the kind's own devices (`own`: Mutant::None, or
// one of those it names in `mutants`).
using KindRun = LaunchState (*)(const KernelPlan& kernel, const LaunchInput& input, bool shuffle, Mutant own);
struct KindEmulator {
  const InstructionKind* kind = nullptr;
  KindRun run = nullptr;
  std::vector<std::pair<std::string, Mutant>> mutants;  // its own devices, by their PTXCTS_FAKE_MODE names
};
// Registers a kind's emulator (each <kind>_emulator.cpp, from a constant at namespace scope); true.
bool add_kind_emulator(KindEmulator emulator);

// Each lane's registers go to the previous lane of its warp (lane i gets lane i+1's), or back.
void rotate_lanes(LaunchState& s, const LaunchShape& shape, bool back);

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

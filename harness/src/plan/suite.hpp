// The suite: every variant instance and every kernel the specs call for. A kernel is one
// instruction (a variant instance) or a sequence of them (a round trip, a product); its kind's
// planner made it (kinds/kinds.hpp: build_suite), and its kind runs and checks it.
// May call: spec/.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "spec/instance.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

class InstructionKind;  // kinds/instruction_kind.hpp

// The wmma kind's kernels: a fragment is a run of registers (.b32, or .b64 for .f64 fragments) that steps
// load, compute or store; a binding says which memory region and fragments a step works on
// (load: {dst}; store: {src}; mma: {d, a, b, c}).
struct WmmaFragment {
  int registers = 0;
  bool wide = false;
};
struct WmmaBinding {
  int region = 0;
  std::vector<int> fragments;
};

struct KernelPlan {
  std::string name;                     // file-safe, unique
  std::string family;                   // of the instruction under test (the last step)
  std::vector<const Instance*> steps;
  const InstructionKind* kind = nullptr;  // the kind that planned it: it emits, feeds and checks it
  std::string claim;                    // for kernels that exist for a claim (round trips)
  int subject = 0;                      // the step under test: the kernel's requirements are its requirements
  bool audited = true;                  // the audit judges the subject's requirements by this kernel
  // The wmma kind's kernels only:
  std::string memory;                   // "shared" or "global": where the tiles live
  std::vector<WmmaFragment> fragments;
  std::vector<WmmaBinding> bindings;    // one per step

  // A kernel of these steps, the last being the instruction under test unless `subject` says otherwise.
  static KernelPlan of(const InstructionKind& kind, std::string name, std::string family, std::vector<const Instance*> steps,
                       std::string claim = "");
  const Instance& subject_instance() const { return *steps[static_cast<std::size_t>(subject)]; }
  bool runnable() const;                // every step has the semantics to run and check it
};

struct Suite {
  SpecSet specs;
  std::deque<Instance> instances;  // stable addresses
  std::vector<KernelPlan> kernels;

  const KernelPlan* find_kernel(const std::string& name) const;
};

// Turns an instance id into a name safe for files: letters, digits and '.' kept, the rest '_'.
std::string file_safe(const std::string& text);

}  // namespace ptxcts

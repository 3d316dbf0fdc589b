// The suite: every variant instance and every kernel the specs call for. A kernel is one
// instruction (a variant instance) or a sequence of them (a round trip, a product); its kind's
// planner made it (kinds/kinds.hpp: build_suite), and its kind runs and checks it.
// May call: spec/.
#pragma once

#include <any>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "spec/instance.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

class InstructionKind;  // kinds/instruction_kind.hpp

struct KernelPlan {
  std::string name;    // file-safe, unique
  std::string family;  // of the instruction under test (the last step)
  std::vector<const Instance*> steps;
  const InstructionKind* kind = nullptr;  // the kind that planned it: it emits, feeds and checks it
  std::string claim;                      // for kernels that exist for a claim (round trips)
  int subject = 0;                        // the step under test: the kernel's requirements are its requirements
  bool audited = true;                    // the audit judges the subject's requirements by this kernel
  std::any kind_data;                     // what else the kind planned (wmma: WmmaKernel); empty for fragment kernels

  // A kernel of these steps, the last being the instruction under test unless `subject` says otherwise.
  static KernelPlan of(const InstructionKind& kind, std::string name, std::string family,
                       std::vector<const Instance*> steps, std::string claim = "");
  const Instance& subject_instance() const { return *steps[static_cast<std::size_t>(subject)]; }
  bool runnable() const;  // every step has the semantics to run and check it
};

struct Suite {
  SpecSet specs;
  std::deque<Instance> instances;  // stable addresses
  std::vector<KernelPlan> kernels;
  // Each kernel's place in `kernels` as build_suite left them: the claims look up every result's
  // kernel. A lookup it cannot answer (kernels edited since) searches `kernels`.
  std::unordered_map<std::string, std::size_t> kernel_at;

  const KernelPlan* find_kernel(const std::string& name) const;
};

// Turns an instance id into a name safe for files: letters, digits and '.' kept, the rest '_'.
std::string file_safe(const std::string& text);

}  // namespace ptxcts

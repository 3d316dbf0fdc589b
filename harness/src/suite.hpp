// The suite: every variant instance and every kernel the specs call for. A kernel is one
// instruction (a variant instance) or a sequence of them (a round trip claimed by a spec).
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "instance.hpp"
#include "layout.hpp"
#include "reference_model.hpp"
#include "spec_model.hpp"

namespace ptxcts {

struct KernelPlan {
  std::string name;                     // file-safe, unique
  std::string family;                   // of the instruction under test (the last step)
  std::vector<const Instance*> steps;
  std::string claim;                    // for kernels that exist for a claim (round trips)
  std::vector<ModelStep> model_steps() const;
  bool runnable() const;                // every step has the semantics to run and check it
  bool takes(const CaseSpec& c) const;  // the case applies (fault cases: single instructions, per 'where')
};

struct Suite {
  SpecSet specs;
  std::deque<Instance> instances;  // stable addresses
  std::vector<KernelPlan> kernels;

  const KernelPlan* find_kernel(const std::string& name) const;
};

Suite build_suite(SpecSet specs);

// Turns an instance id into a name safe for files: letters, digits and '.' kept, the rest '_'.
std::string file_safe(const std::string& text);

}  // namespace ptxcts

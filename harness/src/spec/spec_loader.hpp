// Loads and validates specs/*.yaml into a SpecSet. Every problem is a SpecError naming
// file:line:column and what was expected; nothing is defaulted silently. Reading: spec_loader.cpp
// (the files, targets, cases, claims, forms) and variant_reader (a variant); then the
// cross-reference checks: variant_checks (within a variant) and spec_checks (across the files).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "spec/spec_error.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

struct SpecFile {
  std::string path;  // as shown in messages
  std::string text;
};

// `targets.yaml` and `cases.yaml` by name; every other file is an instruction family.
SpecSet load_specs(const std::vector<SpecFile>& files);
SpecSet load_spec_dir(const std::filesystem::path& dir);
// `dir`/targets.yaml alone: the targets, the PTX ISA versions and the toolkit table (what each CUDA
// release speaks), for checking a toolkit by what it does. Throws SpecError.
TargetCatalog load_target_table(const std::filesystem::path& dir);

}  // namespace ptxcts

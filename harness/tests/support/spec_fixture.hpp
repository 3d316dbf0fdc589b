// Test helpers: the real specs (optionally with one textual edit) and instance lookup.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kinds/kinds.hpp"
#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "plan/suite.hpp"
#include "spec/spec_loader.hpp"

namespace ptxcts::test {

inline std::string read_spec(const std::string& name) {
  std::ifstream in(std::string(PTXCTS_SOURCE_DIR) + "/specs/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The real spec files (every specs/*.yaml), with `from` replaced by `to` in `file` (which must
// contain it once).
inline std::vector<SpecFile> spec_files(const std::string& file = "", const std::string& from = "",
                                        const std::string& to = "") {
  std::vector<SpecFile> files;
  std::vector<std::string> names;
  for (auto const& e : std::filesystem::directory_iterator(std::string(PTXCTS_SOURCE_DIR) + "/specs"))
    if (e.path().extension() == ".yaml") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  for (auto const& name : names) {
    std::string text = read_spec(name);
    if (name == file) {
      auto at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from << " not in " << file;
      EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " occurs twice in " << file;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    files.push_back({.path = std::string("specs/") + name, .text = text});
  }
  return files;
}

// The source tree's specs, loaded once per test binary (tests that only read them share one copy).
inline const SpecSet& loaded_specs() {
  static const SpecSet s = load_specs(spec_files());
  return s;
}

// The suite of the source tree's specs, built once per test binary (tests that only read it share one).
inline const Suite& loaded_suite() {
  static const Suite s = build_suite(load_specs(spec_files()));
  return s;
}

// The kernel skeletons, as the catalog reads them.
inline KernelSkeletons read_skeletons() { return read_kernel_skeletons(std::string(PTXCTS_SOURCE_DIR) + "/kernels"); }
inline std::string read_skeleton(const std::string& name = kMatrixMoveSkeleton) { return read_skeletons().at(name); }

// Whether the kernel's kind gives it the case.
inline bool takes(const KernelPlan& k, const CaseSpec& c) { return kind_of(k).takes(k, c); }

inline const Instance& find_instance(const Suite& s, const std::string& id) {
  for (auto const& i : s.instances)
    if (i.id() == id) return i;
  throw std::runtime_error("no instance " + id);
}

}  // namespace ptxcts::test

// The small suite (made by the build: support/make_small_suite.py): the ldmatrix and movmatrix
// families alone, with a catalog of their own for sm_90. For the tests whose claim is about how a
// run goes (streaming, resuming, several GPUs, the console), not about every family: a run of it on
// the fake device takes about 1.5 CPU-s, the whole suite's about 10.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts::test {

inline std::string small_suite_specs() { return PTXCTS_SMALL_SUITE_DIR "/specs"; }
inline std::string small_suite_catalog() { return PTXCTS_SMALL_SUITE_DIR "/catalog"; }
// The build made it (a build with tests does).
inline bool has_small_suite() {
  return std::filesystem::exists(std::filesystem::path(small_suite_catalog()) / "manifest.json");
}

}  // namespace ptxcts::test

// How one kernel's SASS reads in a report cell: the opcodes that implement the instruction under
// test, or, never silently, that none of the expected mnemonics is there, or why there is no SASS.
#pragma once

#include <string>
#include <vector>

#include "results/results.hpp"

namespace ptxcts {

// "LDSM.16.M88.4", "none of LDSM", "no expectation (12 opcodes)", "no SASS: <why>".
std::string sass_summary(const std::vector<std::string>& matched, const std::vector<std::string>& expected,
                         const std::vector<std::string>& opcodes, const std::string& unavailable);
inline std::string sass_summary(const KernelSass& k) {
  return sass_summary(k.matched, k.expected, k.opcodes, k.unavailable);
}

// Whether a summary says that the expected mnemonics are missing (for bold in tables).
bool sass_missing(const std::vector<std::string>& matched, const std::vector<std::string>& expected,
                  const std::string& unavailable);

}  // namespace ptxcts

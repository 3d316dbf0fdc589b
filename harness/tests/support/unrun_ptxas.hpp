#pragma once

#include "assemble/toolchain.hpp"
#include "plan/suite.hpp"

namespace ptxcts::test {

// A ptxas as the specs know it, never run: the targets it knows, sm_75 on, up to those of its
// newest PTX ISA version. The audit's tests judge probe verdicts they give by hand.
inline Toolchain unrun_ptxas(const Suite& s, const std::string& version, const std::string& release, PtxVersion newest) {
  Toolchain tc;
  tc.ptxas = "/nonexistent/ptxas";
  tc.version = version;
  tc.release = release;
  for (auto const& t : s.specs.targets.targets)
    if (t.arch >= 75 && t.ptx <= newest) tc.real_targets.push_back(t.name);
  return tc;
}

// ptxas 13.0: up to the targets of its PTX ISA 9.0 (not sm_107, of 9.4).
inline Toolchain unrun_ptxas_13_0(const Suite& s) { return unrun_ptxas(s, "13.0.88", "13.0", {9, 0}); }

}  // namespace ptxcts::test

#pragma once

#include "assemble/toolchain.hpp"
#include "plan/suite.hpp"

namespace ptxcts::test {

// ptxas 13.0 as the specs know it, never run: the targets a ptxas 13.0 knows, sm_75 on, up to those
// of its PTX ISA 9.0 (not sm_107, of 9.4). The audit's tests judge probe verdicts they give by hand.
inline Toolchain unrun_ptxas_13_0(const Suite& s) {
  Toolchain tc;
  tc.ptxas = "/nonexistent/ptxas";
  tc.version = "13.0.88";
  tc.release = "13.0";
  for (auto const& t : s.specs.targets.targets)
    if (t.arch >= 75 && t.ptx <= PtxVersion{9, 0}) tc.real_targets.push_back(t.name);
  return tc;
}

}  // namespace ptxcts::test

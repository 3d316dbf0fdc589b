// ptxas crashing (SIGSEGV) on one probe of a module, after saying what is wrong with it, as ptxas
// 13.0.88 does on wmma.mma.sync.aligned.row.row.m8n8k32.f16.f16: the module is split in halves down
// to that probe, whose errors are its verdict with the crash said after them; the others keep theirs.
#include <gtest/gtest.h>

#include "assemble/probe_assembly.hpp"
#include "support/fake_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(ProbeCrash, AProbePtxasCrashesOnIsFoundByHalvesAndRejectedWithItsErrors) {
  // Rejects the line that says "crashme", then dies of SIGSEGV; accepts a module without it.
  FakePtxas ptxas(
      "n=$(grep -n crashme \"$2\" | head -1 | cut -d: -f1)\n"
      "[ -z \"$n\" ] && exit 0\n"
      "echo \"ptxas $2, line $n; error   : Unexpected instruction types specified for 'wmma.mma'\"\n"
      "kill -SEGV $$\n");
  std::vector<Probe> probes;
  for (int k = 0; k < 8; ++k)
    probes.push_back({.target = "sm_90", .ptx = {9, 0}, .body = k == 5 ? "crashme;\n" : "fine;\n", .group = 1});
  auto v = assemble_probes(ptxas.tc, probes, ptxas.dir / "probes", 1);
  for (int k = 0; k < 8; ++k) {
    EXPECT_TRUE(v[k].error.empty()) << k << ": " << v[k].error;
    EXPECT_EQ(v[k].accepted, k != 5) << k;
  }
  EXPECT_NE(v[5].message.find("line 1; error   : Unexpected instruction types"), std::string::npos) << v[5].message;
  EXPECT_NE(v[5].message.find(kPtxasCrashed), std::string::npos) << v[5].message;
  EXPECT_LE(ptxas.runs(), 8);  // halves: 8 -> 4 -> 2 -> 1, each half beside the crash accepted in one run
}

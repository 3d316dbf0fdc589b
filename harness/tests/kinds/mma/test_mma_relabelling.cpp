// How far mma's fragment layouts can be pinned (issue 38). mma's only observable behaviour is the
// function from its input registers to its output registers. A device that reads the manual's
// layouts with m relabelled by one permutation P on A's, C's and D's rows computes the same function
// ((PA)B + PC = P(AB + C), and D is read back through P), as does one that relabels k on A's columns
// and B's rows ((AQ)(Q^-1 B) = AB) or n on B's, C's and D's columns: no program -- the product checks,
// ldmatrix feeding mma, stmatrix or movmatrix draining it -- can tell it from the manual's. Shown here
// byte for byte on every mma kernel and case, the compositions among them. So that the test can fail:
// a relabelling of A's rows alone, or of D's alone, fails every mma kernel and composition.
// (The suite's case data keep every product and partial sum exact, so the accumulation order, which
// the manual leaves unspecified, cannot tell them apart either.)
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "kinds/kinds.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "support/device_emulator.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& relabelling_suite() {
  return loaded_suite();
}

struct RelabelledKernels {
  int kernels = 0, cases = 0;
  std::map<std::string, int> compositions;  // per claim: its cases
};

// Every mma kernel (the compositions among them) and case: `each(kernel, prepared case, device)`.
RelabelledKernels for_each_mma_case(const std::function<void(const KernelPlan&, const CaseSpec&, const PreparedCase&)>& each) {
  RelabelledKernels n;
  for (auto const& k : relabelling_suite().kernels) {
    if (k.kind != &mma_kind()) continue;
    ++n.kernels;
    for (auto const& c : relabelling_suite().specs.cases.cases) {
      if (!mma_kind().takes(k, c)) continue;
      auto prepared = mma_kind().prepare(relabelling_suite().specs.cases, c, k);
      ++n.cases;
      if (is_composition(k)) ++n.compositions[k.claim];
      each(k, c, *prepared);
    }
  }
  return n;
}

}  // namespace

TEST(MmaRelabelling, AConsistentRelabellingOfMNOrKGivesEveryCaseByteForByte) {
  const RelabelledKernels n = for_each_mma_case([](const KernelPlan& k, const CaseSpec& c, const PreparedCase& p) {
    DeviceEmulator device;
    const LaunchState want = device.run(k, p.input, Mutant::None);
    ASSERT_EQ(p.check(want).comparison.mismatches, 0) << k.name << "/" << c.name;
    for (Mutant m : {Mutant::PermuteM, Mutant::PermuteN, Mutant::PermuteK}) {
      const LaunchState got = device.run(k, p.input, m);
      EXPECT_TRUE(got.regs == want.regs && got.smem == want.smem)
          << k.name << "/" << c.name << ": relabelling " << static_cast<int>(m) << " gave other bytes";
      EXPECT_EQ(p.check(got).comparison.mismatches, 0) << k.name << "/" << c.name;
    }
  });
  std::cout << n.kernels << " mma kernels, " << n.cases << " cases, " << n.compositions.size()
            << " compositions: the same bytes under each consistent relabelling\n";
  EXPECT_GT(n.cases, 600);
  // ldmatrix feeding mma, stmatrix and movmatrix draining it (specs/mma.yaml)
  for (const char* claim : {"ldmatrix-feeds-mma-m16n8k16", "stmatrix-stores-mma-accumulators",
                            "movmatrix-transposes-mma-accumulators"})
    EXPECT_GT(n.compositions.count(claim) ? n.compositions.at(claim) : 0, 0) << claim;
}

TEST(MmaRelabelling, AnInconsistentRelabellingFailsEveryProductCheckAndComposition) {
  for (Mutant m : {Mutant::PermuteAM, Mutant::PermuteDM}) {
    std::map<std::string, std::pair<int, int>> by_kernel;  // cases that failed, of those run
    const RelabelledKernels n = for_each_mma_case([&](const KernelPlan& k, const CaseSpec&, const PreparedCase& p) {
      DeviceEmulator device;
      auto& [failed, ran] = by_kernel[k.name];
      ++ran;
      failed += p.check(device.run(k, p.input, m)).comparison.mismatches > 0;
    });
    int failed_cases = 0;
    for (auto const& [kernel, fr] : by_kernel) {
      failed_cases += fr.first;
      EXPECT_GT(fr.first, 0) << kernel << " passed every case on relabelling " << static_cast<int>(m);
    }
    std::cout << "relabelling " << static_cast<int>(m) << ": " << failed_cases << " of " << n.cases
              << " cases failed, in " << by_kernel.size() << " kernels\n";
    EXPECT_EQ(n.compositions.size(), 3u);
  }
}

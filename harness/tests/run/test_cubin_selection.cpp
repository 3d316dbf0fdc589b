// Which cubin a device runs, for devices this machine does not have: Blackwell-class compute
// capabilities 10.0, 10.3, 12.0 and 12.1, with the arch-specific (a) and family (f) rules.
#include <gtest/gtest.h>

#include "run/cubin_selection.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

struct Fixture {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog cat;
  // A catalog in which ptxas accepted exactly the documented targets.
  explicit Fixture(std::vector<std::string> targets = {}) {
    cat.cuda_release = "13.0";
    for (auto const& t : suite.specs.targets.targets)
      if (targets.empty() || std::count(targets.begin(), targets.end(), t.name)) cat.targets.push_back(t.name);
    for (auto const& k : suite.kernels)
      for (auto const& name : cat.targets) {
        const TargetInfo& t = *suite.specs.targets.find(name);
        bool ok = true;
        for (auto const* s : k.steps) ok = ok && supports(suite.specs.targets, *s, t);
        cat.assemblies.push_back({.kernel = k.name,
                                  .target = name,
                                  .ptx = {9, 0},
                                  .accepted = ok,
                                  .attempted = true,
                                  .message = ok ? "" : "rejected",
                                  .cubin = ok ? "cache/x.cubin" : "",
                                  .ptx_file = "",
                                  .instruction = "",
                                  .entry = ok ? "x" : ""});
      }
  }
  std::string chosen(const std::string& kernel, int major, int minor) {
    CubinChoice c = select_cubin(suite.specs.targets, cat, *suite.find_kernel(kernel), major, minor);
    return c.assembly ? c.assembly->target : "skip: " + c.skip + c.error;
  }
};

const char* kM8n8 = "ldmatrix.sync.aligned.m8n8.x4.shared.b16_a32";
const char* kM16n16 = "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8_a32";
const char* kStM16n8 = "stmatrix.sync.aligned.m16n8.x4.trans.shared.b8_a32";

}  // namespace

TEST(CubinSelection, LoadRules) {
  Fixture f;
  auto const& t = f.suite.specs.targets;
  EXPECT_TRUE(runs_on(t, *t.find("sm_100"), 10, 3));  // portable: same major, older minor
  EXPECT_FALSE(runs_on(t, *t.find("sm_103"), 10, 0));
  EXPECT_FALSE(runs_on(t, *t.find("sm_100"), 12, 0));  // never across major versions
  EXPECT_TRUE(runs_on(t, *t.find("sm_100f"), 10, 3));  // family: later members of the family
  EXPECT_FALSE(runs_on(t, *t.find("sm_103f"), 10, 0));
  EXPECT_FALSE(runs_on(t, *t.find("sm_100f"), 11, 0));
  EXPECT_TRUE(runs_on(t, *t.find("sm_120f"), 12, 1));
  EXPECT_TRUE(runs_on(t, *t.find("sm_100a"), 10, 0));  // arch-specific: exactly that one
  EXPECT_FALSE(runs_on(t, *t.find("sm_100a"), 10, 3));
  EXPECT_FALSE(runs_on(t, *t.find("sm_90a"), 10, 0));
}

TEST(CubinSelection, PortableFormsRunTheirPortableCubin) {
  Fixture f;
  EXPECT_EQ(f.chosen(kM8n8, 9, 0), "sm_90");
  EXPECT_EQ(f.chosen(kM8n8, 10, 0), "sm_100");
  EXPECT_EQ(f.chosen(kM8n8, 10, 3), "sm_103");
  EXPECT_EQ(f.chosen(kM8n8, 12, 1), "sm_121");
}

TEST(CubinSelection, BlackwellOnlyFormsRunFamilyThenArchSpecificCode) {
  Fixture f;
  EXPECT_EQ(f.chosen(kM16n16, 10, 0), "sm_100f");
  EXPECT_EQ(f.chosen(kM16n16, 10, 3), "sm_103f");
  EXPECT_EQ(f.chosen(kStM16n8, 12, 0), "sm_120f");
  EXPECT_EQ(f.chosen(kStM16n8, 12, 1), "sm_121f");
  EXPECT_EQ(f.chosen(kM16n16, 9, 0),
            "skip: ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 requires PTX ISA 8.6, sm_100a, sm_110a, sm_120a, "
            "sm_100f+, "
            "sm_110f+, sm_120f+; device is sm_90");
}

TEST(CubinSelection, AnOlderToolkitFallsBackWithinTheRules) {
  // A toolkit that knows sm_100 and its a/f targets but not sm_103.
  Fixture f({"sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f"});
  EXPECT_EQ(f.chosen(kM8n8, 10, 3), "sm_100");     // portable 10.0 code loads on 10.3
  EXPECT_EQ(f.chosen(kM16n16, 10, 3), "sm_100f");  // family code too; sm_100a would not
  Fixture only_a({"sm_100a"});
  EXPECT_EQ(only_a.chosen(kM16n16, 10, 0), "sm_100a");
  EXPECT_EQ(only_a.chosen(kM16n16, 10, 3).rfind("skip: no target this toolkit", 0), 0u)
      << only_a.chosen(kM16n16, 10, 3);
}

TEST(CubinSelection, ARejectedDocumentedFormIsAnError) {
  Fixture f;
  for (auto& a : f.cat.assemblies)
    if (a.kernel == kM8n8 && a.target == "sm_90") a.accepted = false, a.message = "rejected";
  CubinChoice c = select_cubin(f.suite.specs.targets, f.cat, *f.suite.find_kernel(kM8n8), 9, 0);
  EXPECT_EQ(c.assembly, nullptr);
  EXPECT_EQ(c.error, "ptxas rejected a documented form for sm_90: rejected");
}

TEST(CubinSelection, AnAssemblyPtxasFailedOnIsAnErrorWithWhyNotARejection) {
  Fixture f;
  for (auto& a : f.cat.assemblies)
    if (a.kernel == kM8n8 && a.target == "sm_90")
      a.accepted = false, a.cubin.clear(), a.error = "ptxas killed by signal 9 (Killed)";
  CubinChoice c = select_cubin(f.suite.specs.targets, f.cat, *f.suite.find_kernel(kM8n8), 9, 0);
  EXPECT_EQ(c.assembly, nullptr);
  EXPECT_EQ(c.error,
            "ptxas failed on this kernel for sm_90, so there is no cubin (the next catalog build tries again): "
            "ptxas killed by signal 9 (Killed)");
}

// A run keeps only the assemblies of targets that load on its GPUs: every kernel's choice (target,
// skip reason or error) on each of those GPUs is what the whole catalog gives, and nothing else is kept.
TEST(CubinSelection, KeepingOnlyWhatTheGpusLoadChangesNoChoice) {
  Fixture whole;
  Fixture kept;
  const std::vector<std::pair<int, int>> gpus = {{9, 0}, {10, 3}};
  keep_loadable(kept.cat, kept.suite.specs.targets, gpus);
  EXPECT_LT(kept.cat.assemblies.size(), whole.cat.assemblies.size());
  EXPECT_EQ(kept.cat.targets, whole.cat.targets);
  for (auto const& a : kept.cat.assemblies)  // sm_90, sm_90a; sm_100, sm_100f, sm_103, sm_103a, sm_103f
    EXPECT_TRUE(a.target == "sm_90" || a.target == "sm_90a" || a.target.rfind("sm_10", 0) == 0) << a.target;
  int chosen = 0;
  for (auto const& k : whole.suite.kernels)
    for (auto const& [major, minor] : gpus) {
      const std::string want = whole.chosen(k.name, major, minor);
      EXPECT_EQ(kept.chosen(k.name, major, minor), want) << k.name << " on " << major << "." << minor;
      chosen += want.rfind("skip: ", 0) != 0;
    }
  EXPECT_GT(chosen, 100);
}

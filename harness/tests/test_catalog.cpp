// The catalog with the real ptxas: what it accepts and rejects, the version probes, the cache
// (a second build assembles nothing), and the manifest's round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "catalog.hpp"
#include "spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

KernelSkeletons skeleton() { return read_skeletons(); }

struct SmallCatalog : ::testing::Test {
  static inline Suite suite;
  static inline Catalog cat;
  static inline CatalogStats first, second;
  static inline fs::path dir;
  static void SetUpTestSuite() {
    suite = build_suite(load_specs(spec_files()));
    std::vector<KernelPlan> keep;
    for (auto const& k : suite.kernels)
      if (k.name == "ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a32" || k.name == "stmatrix.sync.aligned.m8n8.x1.b16_a64") keep.push_back(k);
    suite.kernels = keep;
    dir = fs::temp_directory_path() / ("ptxcts-catalog-test-" + std::to_string(::getpid()));
    Toolchain tc = Toolchain::discover();
    cat = build_catalog(suite, tc, skeleton(), dir, 2, &first);
    build_catalog(suite, tc, skeleton(), dir, 2, &second);
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }
};

}  // namespace

TEST_F(SmallCatalog, EveryKernelIsAssembledForEveryTarget) {
  ASSERT_EQ(suite.kernels.size(), 2u);
  EXPECT_GE(cat.targets.size(), 20u);
  EXPECT_EQ(cat.assemblies.size(), 2 * cat.targets.size());
  EXPECT_EQ(first.assembled + first.cached, static_cast<int>(cat.assemblies.size() + cat.probes.size() + cat.forms.size()));
  EXPECT_EQ(cat.forms.size(), suite.specs.forms.size());
}

TEST_F(SmallCatalog, ARebuildWithNothingChangedAssemblesNothing) {
  EXPECT_EQ(second.assembled, 0);
  EXPECT_EQ(second.ptxas_runs, 0);
  EXPECT_EQ(second.cached, first.assembled + first.cached);
}

TEST_F(SmallCatalog, RejectionsKeepPtxasMessage) {
  const Assembly* st89 = cat.find("stmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_89");
  ASSERT_NE(st89, nullptr);
  EXPECT_FALSE(st89->accepted);
  EXPECT_NE(st89->message.find("Feature 'stmatrix' requires .target sm_90 or higher"), std::string::npos) << st89->message;
  const Assembly* st90 = cat.find("stmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_90");
  ASSERT_NE(st90, nullptr);
  EXPECT_TRUE(st90->accepted) << st90->message;
  EXPECT_TRUE(fs::exists(dir / st90->cubin));
  const Assembly* ld75 = cat.find("ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a32", "sm_75");
  ASSERT_NE(ld75, nullptr);
  EXPECT_TRUE(ld75->accepted) << ld75->message;
  EXPECT_EQ(ld75->ptx.str(), "7.8");  // .shared::cta needs PTX ISA 7.8
}

TEST_F(SmallCatalog, OneVersionBelowTheDocumentedMinimumIsRejected) {
  ASSERT_EQ(cat.probes.size(), 2u);
  for (auto const& p : cat.probes) {
    EXPECT_FALSE(p.accepted) << p.kernel;
    EXPECT_EQ(p.ptx.str(), "7.7");
    EXPECT_NE(p.message.find("requires PTX ISA .version 7.8 or later"), std::string::npos) << p.message;
  }
}

TEST_F(SmallCatalog, ManifestRoundTripsAndCorruptionIsNamed) {
  Catalog back = load_catalog(dir);
  EXPECT_EQ(back.assemblies.size(), cat.assemblies.size());
  EXPECT_EQ(back.assemblies[3].message, cat.assemblies[3].message);
  EXPECT_EQ(back.probes.size(), cat.probes.size());
  fs::path bad = dir / "bad";
  fs::create_directories(bad);
  std::ofstream(bad / "manifest.json") << "{\"schema_version\": 2, \"ptxas_version\": ";
  try {
    load_catalog(bad);
    FAIL() << "a corrupt manifest loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((bad / "manifest.json").string() + ": corrupt catalog manifest"), std::string::npos) << e.what();
  }
}

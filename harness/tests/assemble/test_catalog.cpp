// The catalog with the real ptxas: what it accepts and rejects, the version probes, the cache
// (a second build assembles nothing), and the manifest's round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "assemble/catalog.hpp"
#include "judge/audit_plan.hpp"
#include "support/spec_fixture.hpp"

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
      if (k.name == "ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a32" ||
          k.name == "stmatrix.sync.aligned.m8n8.x1.b16_a64")
        keep.push_back(k);
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
  EXPECT_EQ(first.assembled + first.cached, static_cast<int>(cat.assemblies.size()));
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
  EXPECT_NE(st89->message.find("Feature 'stmatrix' requires .target sm_90 or higher"), std::string::npos)
      << st89->message;
  const Assembly* st90 = cat.find("stmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_90");
  ASSERT_NE(st90, nullptr);
  EXPECT_TRUE(st90->accepted) << st90->message;
  EXPECT_TRUE(fs::exists(dir / st90->cubin));
  const Assembly* ld75 = cat.find("ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a32", "sm_75");
  ASSERT_NE(ld75, nullptr);
  EXPECT_TRUE(ld75->accepted) << ld75->message;
  EXPECT_EQ(ld75->ptx.str(), "7.8");  // .shared::cta needs PTX ISA 7.8
}

TEST_F(SmallCatalog, ManifestRoundTripsAndCorruptionIsNamed) {
  Catalog back = load_catalog(dir);
  EXPECT_EQ(back.assemblies.size(), cat.assemblies.size());
  EXPECT_EQ(back.assemblies[3].message, cat.assemblies[3].message);
  fs::path bad = dir / "bad";
  fs::create_directories(bad);
  std::ofstream(bad / "manifest.json") << "{\"schema_version\": 2, \"ptxas_version\": ";
  try {
    load_catalog(bad);
    FAIL() << "a corrupt manifest loaded";
  } catch (const std::runtime_error& e) {
    // Placed where the text ends (39 characters, the value missing): line 1, column 40.
    EXPECT_EQ(std::string(e.what()).rfind(
                  (bad / "manifest.json").string() + ":1:40: corrupt catalog manifest: invalid JSON", 0),
              0u)
        << e.what();
  }
}

// Every field of every manifest record, each with a value no other field of its type has, through
// save_catalog and load_catalog: a writer or reader that swaps two fields of the same type (two
// bools, two strings, two versions) fails here. The keys are pinned too, so that a manifest written
// before still loads.
TEST(CatalogManifest, EveryFieldRoundTripsUnderItsKey) {
  Catalog c;
  c.ptxas_version = "ptxas V9.9.99";
  c.cuda_release = "9.9";
  c.toolkit_ptx = {9, 9};
  c.targets = {"sm_90", "sm_100a"};
  c.assemblies.push_back({.kernel = "kernel-a",
                          .target = "target-a",
                          .ptx = {7, 1},
                          .accepted = true,
                          .attempted = false,
                          .message = "message-a",
                          .cubin = "cubin-a",
                          .cubin_seal = "seal-a",
                          .ptx_file = "ptx-a",
                          .instruction = "instruction-a",
                          .entry = "entry-a",
                          .error = "error-a"});
  const fs::path dir = fs::temp_directory_path() / ("ptxcts-manifest-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  save_catalog(c, dir);

  std::ifstream in(dir / "manifest.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("schema_version"), Catalog::kSchemaVersion);
  EXPECT_EQ(j.at("ptxas_version"), "ptxas V9.9.99");
  EXPECT_EQ(j.at("cuda_release"), "9.9");
  EXPECT_EQ(j.at("toolkit_ptx_isa"), "9.9");
  EXPECT_EQ(j.at("targets"), nlohmann::json({"sm_90", "sm_100a"}));
  EXPECT_EQ(j.at("assemblies"), nlohmann::json::parse(R"([{"kernel": "kernel-a", "target": "target-a", "ptx_isa": "7.1",
    "attempted": false, "accepted": true, "message": "message-a", "cubin": "cubin-a", "cubin_seal": "seal-a", "entry": "entry-a", "ptx": "ptx-a",
    "instruction": "instruction-a", "error": "error-a"}])"));
  EXPECT_FALSE(j.contains("version_probes"));  // schema 4: kernels only

  const Catalog back = load_catalog(dir);
  fs::remove_all(dir);
  EXPECT_EQ(back.ptxas_version, c.ptxas_version);
  EXPECT_EQ(back.cuda_release, c.cuda_release);
  EXPECT_EQ(back.toolkit_ptx, c.toolkit_ptx);
  EXPECT_EQ(back.targets, c.targets);
  ASSERT_EQ(back.assemblies.size(), 1u);
  const Assembly& a = back.assemblies[0];
  EXPECT_EQ(a.kernel, "kernel-a");
  EXPECT_EQ(a.target, "target-a");
  EXPECT_EQ(a.ptx, (PtxVersion{7, 1}));
  EXPECT_TRUE(a.accepted);
  EXPECT_EQ(a.cubin_seal, "seal-a");
  EXPECT_FALSE(a.attempted);
  EXPECT_EQ(a.message, "message-a");
  EXPECT_EQ(a.cubin, "cubin-a");
  EXPECT_EQ(a.ptx_file, "ptx-a");
  EXPECT_EQ(a.instruction, "instruction-a");
  EXPECT_EQ(a.entry, "entry-a");
  EXPECT_EQ(a.error, "error-a");
}

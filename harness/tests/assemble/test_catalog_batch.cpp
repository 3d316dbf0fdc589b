// Batched assembly with the real ptxas: the same verdicts and messages as assembling each kernel
// alone, one cubin holding every accepted entry, no ptxas at all on a warm rebuild, corrupt batch
// records rebuilt, and the rounds and fallbacks of a batch that ptxas rejects.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>
#include <algorithm>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "assemble/assembly_batch.hpp"
#include "assemble/assembly_cache.hpp"
#include "assemble/catalog.hpp"
#include "judge/audit.hpp"
#include "judge/audit_plan.hpp"
#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "support/installed_ptxas.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

std::string read_file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path temp_dir(const std::string& what) {
  fs::path d = fs::temp_directory_path() / ("ptxcts-" + what + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

// The .x1 forms with 64-bit addresses on sm_75 and sm_90: on sm_75 some batches hold kernels that
// ptxas accepts beside ones it rejects (stmatrix needs sm_90).
struct BatchedCatalog : ::testing::Test {
  static inline std::optional<Toolchain> tc;
  static inline Suite suite;
  static inline Catalog cat;
  static inline CatalogStats cold, warm;
  static inline fs::path dir;
  static void SetUpTestSuite() {
    tc = test::installed_ptxas();
    if (!tc) return;
    tc->real_targets = {"sm_75", "sm_90"};
    suite = build_suite(load_specs(spec_files()));
    std::vector<KernelPlan> keep;
    for (auto const& k : suite.kernels)
      if (k.name.find(".x1.") != std::string::npos && k.name.size() > 4 &&
          k.name.compare(k.name.size() - 4, 4, "_a64") == 0)
        keep.push_back(k);
    suite.kernels = keep;
    suite.specs.forms.clear();
    dir = temp_dir("batched-catalog");
    cat = build_catalog(suite, *tc, read_skeletons(), dir, 2, &cold);
    build_catalog(suite, *tc, read_skeletons(), dir, 2, &warm);
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }
  void SetUp() override {
    if (!tc) GTEST_SKIP() << "no ptxas";
  }
};

}  // namespace

TEST_F(BatchedCatalog, SameVerdictsAndMessagesAsAssemblingEachKernelAlone) {
  int accepted = 0, rejected = 0;
  fs::path alone = dir / "alone.cubin";
  for (auto const& a : cat.assemblies) {
    if (!a.attempted) {  // beyond this ptxas's PTX ISA version: nothing to compare
      EXPECT_NE(a.message.find("this toolkit speaks"), std::string::npos) << a.kernel << ": " << a.message;
      continue;
    }
    AssemblyOutcome one = assemble(*tc, dir / a.ptx_file, a.target, alone);
    EXPECT_EQ(a.accepted, one.accepted()) << a.kernel << " on " << a.target;
    EXPECT_EQ(classify_diagnostic(suite.specs, a.message), classify_diagnostic(suite.specs, one.message))
        << a.kernel << " on " << a.target;
    EXPECT_EQ(a.message, one.message) << a.kernel << " on " << a.target;
    (a.accepted ? accepted : rejected)++;
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
  const Assembly* st75 = cat.find("stmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_75");
  ASSERT_NE(st75, nullptr);
  EXPECT_FALSE(st75->accepted);
  EXPECT_EQ(classify_diagnostic(suite.specs, st75->message), "wrong-target") << st75->message;
  EXPECT_TRUE(cat.find("stmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_90")->accepted);
}

TEST_F(BatchedCatalog, OnePtxasRunAssemblesManyKernels) {
  const int pairs = static_cast<int>(cat.assemblies.size());
  // Forms of a PTX ISA version newer than this ptxas speaks (ldmatrix .s8.s4) are not attempted.
  const int beyond = static_cast<int>(
      std::count_if(cat.assemblies.begin(), cat.assemblies.end(), [](const Assembly& a) { return !a.attempted; }));
  EXPECT_EQ(cold.not_attempted, beyond);
  EXPECT_EQ(cold.assembled + cold.cached + cold.not_attempted, pairs);
  // Alone: one run per pair. Batched: a few per (target, PTX ISA version).
  EXPECT_LT(cold.ptxas_runs, pairs / 3) << cold.ptxas_runs;
}

TEST_F(BatchedCatalog, AWarmRebuildRunsNoPtxas) {
  EXPECT_EQ(warm.ptxas_runs, 0);
  EXPECT_EQ(warm.assembled, 0);
  EXPECT_EQ(warm.cached, cold.assembled + cold.cached);
}

TEST_F(BatchedCatalog, EachAcceptedEntryIsInItsCubin) {
  std::set<std::string> cubins;
  for (auto const& a : cat.assemblies) {
    if (!a.accepted) continue;
    EXPECT_EQ(a.entry, entry_name(a.kernel));
    std::string bytes = read_file_bytes(dir / a.cubin);
    ASSERT_FALSE(bytes.empty()) << a.cubin;
    EXPECT_NE(bytes.find(a.entry + '\0'), std::string::npos) << a.entry << " not in " << a.cubin;
    cubins.insert(a.cubin);
  }
  EXPECT_LT(cubins.size(), 6u);  // (sm_75, 6.5), (sm_75, 7.8), (sm_90, 7.8) and nothing alone
}

TEST_F(BatchedCatalog, ManifestKeepsEntriesAndRefusesAnotherSchema) {
  Catalog back = load_catalog(dir);
  ASSERT_EQ(back.assemblies.size(), cat.assemblies.size());
  for (std::size_t n = 0; n < cat.assemblies.size(); ++n) EXPECT_EQ(back.assemblies[n].entry, cat.assemblies[n].entry);
  fs::path old = dir / "old";
  fs::create_directories(old);
  std::ofstream(old / "manifest.json") << "{\"schema_version\": 1, \"assemblies\": []}";
  try {
    load_catalog(old);
    FAIL() << "a manifest of schema 1 loaded";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind((old / "manifest.json").string() +
                             ": catalog manifest of schema_version 1; this ptxcts reads schema_version 7",
                         0),
              0u)
        << what;
  }
}

TEST_F(BatchedCatalog, CorruptBatchRecordsAreRebuiltNotTrusted) {
  fs::path copy = temp_dir("batched-catalog-corrupt");
  fs::copy(dir, copy, fs::copy_options::recursive);
  int n = 0;
  for (auto const& e : fs::directory_iterator(copy / "cache")) {
    std::string name = e.path().filename().string();
    if (name.size() < 11 || name.compare(name.size() - 11, 11, ".batch.json") != 0) continue;
    std::string text = read_file_bytes(e.path());
    switch (n++ % 3) {
      case 0: std::ofstream(e.path(), std::ios::trunc) << text.substr(0, text.size() / 2); break;  // cut short
      case 1:  // a record of no kernels
        std::ofstream(e.path(), std::ios::trunc)
            << R"({"format": 1, "entries": [], "accepted": [], "messages": [], "cubins": []})";
        break;
      default: std::ofstream(e.path(), std::ios::trunc) << "\x01garbage"; break;
    }
  }
  ASSERT_GT(n, 0);
  CatalogStats stats;
  Catalog again = build_catalog(suite, *tc, read_skeletons(), copy, 2, &stats);
  ASSERT_EQ(again.assemblies.size(), cat.assemblies.size());
  for (std::size_t k = 0; k < cat.assemblies.size(); ++k) {
    EXPECT_EQ(again.assemblies[k].accepted, cat.assemblies[k].accepted);
    EXPECT_EQ(again.assemblies[k].message, cat.assemblies[k].message);
    EXPECT_EQ(again.assemblies[k].cubin, cat.assemblies[k].cubin);
    EXPECT_EQ(again.assemblies[k].entry, cat.assemblies[k].entry);
  }
  EXPECT_EQ(stats.ptxas_runs, 0);  // every module of every round was still in the cache
  CatalogStats after;
  build_catalog(suite, *tc, read_skeletons(), copy, 2,
                &after);  // and the records are whole again
  EXPECT_EQ(after.ptxas_runs, 0);
  fs::remove_all(copy);
}

TEST(ContentKey, IsTheHashOfTextTargetAndVersionSoOldCachesStayValid) {
  std::string ptx(100000, 'x'), all = ptx + '\0' + "sm_90" + '\0' + "13.0.88";
  XXH128_hash_t h = XXH3_128bits(all.data(), all.size());
  EXPECT_EQ(content_key(ptx, "sm_90", "13.0.88"), fmt::format("{:016x}{:016x}", h.high64, h.low64));
}

namespace {

// A batch built by hand from real kernels, some edited, to drive run_batch through its rounds.
struct HandBatch : ::testing::Test {
  std::optional<Toolchain> tc = test::installed_ptxas();
  Suite suite = build_suite(load_specs(spec_files()));
  fs::path dir = temp_dir("hand-batch");
  Batch batch;

  void SetUp() override {
    if (!tc) GTEST_SKIP() << "no ptxas";
    fs::create_directories(dir / "cache");
  }
  void TearDown() override { fs::remove_all(dir); }

  // Kernel `name` for `target` at `version`; `broken` adds a line ptxas cannot parse.
  void add(const std::string& name, const std::string& target, PtxVersion version, bool broken = false) {
    std::string ptx = emit_ptx(read_skeleton(), *suite.find_kernel(name), target, version);
    if (broken) ptx.replace(ptx.rfind("    ret;"), 8, "    mov.u32 %t1, ;\n    ret;");
    auto parts = split_module(ptx);
    ASSERT_TRUE(parts);
    if (batch.kernels.empty()) batch = {target, parts->header, {}, 0};
    ASSERT_EQ(parts->header, batch.header);
    Job alone{ptx, target, content_key(ptx, target, tc->version), {}, false, {}};
    batch.kernels.push_back({.alone = alone,
                             .entry_offset = parts->entry_offset,
                             .entry_line = parts->entry_line,
                             .entry = entry_name(name),
                             .outcome = {},
                             .cubin = "",
                             .cubin_seal = "",
                             .cubin_entry = ""});
  }

  // Each kernel's outcome equals its module's assembled alone.
  void expect_same_as_alone() {
    for (auto const& k : batch.kernels) {
      fs::path own = dir / "alone.ptx";
      std::ofstream(own, std::ios::trunc) << k.alone.ptx_text;
      AssemblyOutcome one = assemble(*tc, own, batch.target, dir / "alone.cubin");
      EXPECT_EQ(k.outcome.state, one.state) << k.entry;
      EXPECT_EQ(k.outcome.message, one.message) << k.entry;
      EXPECT_EQ(k.outcome.accepted(), !k.cubin.empty()) << k.entry;
    }
  }
};

const std::string kLd1 = "ldmatrix.sync.aligned.m8n8.x1.shared__cta.b16_a64",
                  kLd2 = "ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a64",
                  kLd4 = "ldmatrix.sync.aligned.m8n8.x4.shared__cta.b16_a64",
                  kLdT = "ldmatrix.sync.aligned.m8n8.x1.trans.shared__cta.b16_a64",
                  kSt1 = "stmatrix.sync.aligned.m8n8.x1.b16_a64";

}  // namespace

TEST_F(HandBatch, SyntaxErrorsShowOneARunAndEachKernelGetsItsOwnVerdict) {
  // ptxas stops at the first syntax error, so errors after it wait for a later run: here three
  // rejecting runs (a syntax error, another, stmatrix on sm_75), then the accepted rest.
  add(kLd1, "sm_75", {7, 8});
  add(kLd2, "sm_75", {7, 8}, true);
  add(kLd4, "sm_75", {7, 8}, true);
  add(kSt1, "sm_75", {7, 8});
  add(kLdT, "sm_75", {7, 8});
  run_batch(*tc, dir, batch);
  EXPECT_EQ(batch.ptxas_runs, 4);
  std::vector<bool> accepted;
  for (auto const& k : batch.kernels) accepted.push_back(k.outcome.accepted());
  EXPECT_EQ(accepted, (std::vector<bool>{true, false, false, false, true}));
  EXPECT_EQ(batch.kernels[0].cubin, batch.kernels[4].cubin);
  EXPECT_EQ(batch.kernels[0].cubin_entry, batch.kernels[0].entry);
  expect_same_as_alone();
  // The outcome is recorded: the same batch again runs nothing.
  Batch again = batch;
  for (auto& k : again.kernels) k = {k.alone, k.entry_offset, k.entry_line, k.entry, {}, "", "", ""};
  again.ptxas_runs = 0;
  run_batch(*tc, dir, again);
  EXPECT_EQ(again.ptxas_runs, 0);
  for (std::size_t n = 0; n < batch.kernels.size(); ++n)
    EXPECT_EQ(again.kernels[n].outcome.message, batch.kernels[n].outcome.message);
}

TEST_F(HandBatch, WhenTheRoundsRunOutTheRestIsAssembledAlone) {
  add(kLd1, "sm_75", {7, 8}, true);
  add(kLd2, "sm_75", {7, 8}, true);
  add(kLd4, "sm_75", {7, 8}, true);
  add(kSt1, "sm_75", {7, 8}, true);
  add(kLdT, "sm_75", {7, 8});
  run_batch(*tc, dir, batch);
  EXPECT_EQ(batch.ptxas_runs, kBatchRounds + 1);
  EXPECT_TRUE(batch.kernels[4].outcome.accepted());
  EXPECT_EQ(batch.kernels[4].cubin_entry, kSkeletonEntry);  // its own module, as assembled alone
  EXPECT_EQ(batch.kernels[4].cubin, "cache/" + batch.kernels[4].alone.key + ".cubin");
  expect_same_as_alone();
}

TEST_F(HandBatch, AnErrorInTheHeaderSendsEveryKernelToBeAssembledAlone) {
  // PTX ISA 6.5 knows no sm_90: ptxas blames the header's .target line.
  add(kLd1, "sm_90", {6, 5});
  add(kLd2, "sm_90", {6, 5});
  add(kSt1, "sm_90", {6, 5});
  run_batch(*tc, dir, batch);
  EXPECT_EQ(batch.ptxas_runs, 1 + 3);
  for (auto const& k : batch.kernels) {
    EXPECT_FALSE(k.outcome.accepted());
    EXPECT_NE(k.outcome.message.find("PTX .version 6.5 does not support .target sm_90"), std::string::npos)
        << k.outcome.message;
  }
  expect_same_as_alone();
}

// Probes with the real ptxas: every message pinned on its probe (a fatal syntax error, a bad
// declaration, a module header ptxas refuses), the cache (a warm call runs no ptxas; a changed
// probe only its module), ptxas failing (no verdict, never cached), and parse-only giving the same
// verdicts and messages as a full assembly for the real target over every probe of the audit.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "assemble/probe_assembly.hpp"
#include "judge/audit_plan.hpp"
#include "support/installed_ptxas.hpp"
#include "util/owned_folder.hpp"
#include "support/fake_ptxas.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / fmt::format("ptxcts-probe-{}-{}", name, ::getpid());
  fs::remove_all(d);
  return d;
}

Probe ld(const std::string& space, const std::string& target = "sm_90") {
  return {.target = target,
          .ptx = {9, 0},
          .body = ".reg .b32 %v<4>;\n.reg .b64 %ad;\nldmatrix.sync.aligned.m8n8.x4" + space +
                  ".b16 {%v0, %v1, %v2, %v3}, [%ad];\n"};
}

}  // namespace

TEST(Probes, EachMessageIsPinnedOnItsProbeAndNumberedFromItsBody) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  std::vector<Probe> probes = {
      ld(".shared"),
      ld(".global"),                                                                          // wrong state space
      {.target = "sm_90", .ptx = {9, 0}, .body = ".reg .b32 %v<1>;\nldmatrix.sync.aligned }\n"},  // a fatal parse error
      ld(""),                                                                                 // after it: judged again
      {.target = "sm_90", .ptx = {9, 0}, .body = ".reg .b99 %v;\n"},                          // a bad declaration
      ld(".shared::cta"),
  };
  const fs::path dir = fresh_dir("pin");
  ProbeStats stats;
  auto v = assemble_probes(*tc, probes, dir, 2, ProbeMode::ParseOnly, &stats);
  fs::remove_all(dir);
  ASSERT_EQ(v.size(), probes.size());
  EXPECT_TRUE(v[0].accepted) << v[0].message;
  EXPECT_FALSE(v[1].accepted);
  EXPECT_EQ(v[1].message, "ptxas probe.ptx, line 3; error   : State space incorrect for instruction 'ldmatrix'\n");
  EXPECT_FALSE(v[2].accepted);
  EXPECT_NE(v[2].message.find("ptxas probe.ptx, line 2; fatal   : Parsing error"), std::string::npos) << v[2].message;
  EXPECT_TRUE(v[3].accepted) << v[3].message;
  EXPECT_FALSE(v[4].accepted);
  EXPECT_EQ(v[4].message.rfind("ptxas probe.ptx, line 1;", 0), 0u) << v[4].message;
  EXPECT_TRUE(v[5].accepted) << v[5].message;
  for (auto const& p : v) EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_GE(stats.ptxas_runs, 2u);  // the module, then what followed the fatal error
}

// ptxas's built-in code for an f64 wmma.load with .u64 registers says "<builtin>, line 19; error"
// (a line no probe can be told from) beside the probe's own pinned error. The accepted probes of
// that module are judged together in one more run, not split in halves down to one probe each; and
// every verdict and message is what that probe gets in a module of its own.
TEST(Probes, ALineAboutNoProbeSplitsOffTheRejectedOnesNotTheAcceptedOnes) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  const Probe builtin_error{.target = "sm_80",
                            .ptx = {9, 0},
                            .body = ".reg .u64 %v<1>;\n.reg .b64 %ad;\n"
                                    "wmma.load.a.sync.aligned.row.m8n8k4.shared::cta.f64 {%v0}, [%ad];\n"};
  std::vector<Probe> probes;
  for (int k = 0; k < 40; ++k) probes.push_back(k % 20 == 7 ? builtin_error : ld(k % 3 ? ".shared" : "", "sm_80"));
  const fs::path dir = fresh_dir("stray");
  ProbeStats stats;
  auto together = assemble_probes(*tc, probes, dir, 1, ProbeMode::ParseOnly, &stats);
  ASSERT_EQ(together.size(), probes.size());
  for (std::size_t k = 0; k < probes.size(); ++k) {
    auto alone = assemble_probes(*tc, {probes[k]}, dir / "alone", 1);
    EXPECT_EQ(together[k].accepted, alone[0].accepted) << k;
    EXPECT_EQ(together[k].message, alone[0].message) << k;
  }
  fs::remove_all(dir);
  EXPECT_FALSE(together[7].accepted);
  EXPECT_NE(together[7].message.find("<builtin>"), std::string::npos) << together[7].message;
  EXPECT_TRUE(together[8].accepted) << together[8].message;
  // The module; its 38 accepted probes together; the two rejected ones, together, then alone.
  EXPECT_LE(stats.ptxas_runs, 5u);
}

TEST(Probes, AModuleHeaderPtxasRefusesRejectsEachProbeWithTheHeadersMessage) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  std::vector<Probe> probes = {ld(".shared"), ld("")};
  for (auto& p : probes) p.ptx = {6, 0};  // PTX ISA 6.0 does not know sm_90
  const fs::path dir = fresh_dir("header");
  auto v = assemble_probes(*tc, probes, dir, 1);
  fs::remove_all(dir);
  for (auto const& p : v) {
    EXPECT_FALSE(p.accepted);
    EXPECT_NE(p.message.find("PTX .version 6.0 does not support .target sm_90"), std::string::npos) << p.message;
    EXPECT_TRUE(p.error.empty());
  }
}

TEST(Probes, AWarmCallRunsNoPtxasAndAChangedProbeOnlyItsModule) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  std::vector<Probe> probes = {ld(".shared"), ld(".global"), ld(".shared", "sm_100a"), ld(".global", "sm_100a")};
  const fs::path dir = fresh_dir("cache");
  ProbeStats cold, warm, changed;
  auto first = assemble_probes(*tc, probes, dir, 2, ProbeMode::ParseOnly, &cold);
  auto second = assemble_probes(*tc, probes, dir, 2, ProbeMode::ParseOnly, &warm);
  EXPECT_EQ(cold.modules, 2u);
  EXPECT_EQ(warm.ptxas_runs, 0u);
  EXPECT_EQ(warm.cached, probes.size());
  for (std::size_t k = 0; k < probes.size(); ++k) {
    EXPECT_EQ(first[k].accepted, second[k].accepted);
    EXPECT_EQ(first[k].message, second[k].message);
  }
  probes[3] = ld(".shared::cta", "sm_100a");
  auto third = assemble_probes(*tc, probes, dir, 2, ProbeMode::ParseOnly, &changed);
  fs::remove_all(dir);
  EXPECT_EQ(changed.cached, 2u);  // sm_90's module
  EXPECT_EQ(changed.ptxas_runs, 1u);
  EXPECT_TRUE(third[3].accepted) << third[3].message;
}

// ptxas 11.8-12.4 stop on a fatal error in their own built-in code (for example wmma.load.a ...
// .m16n16k16 without a type on sm_72) and pin it on no entry: such a module is split in halves down
// to the one entry; a half whose other half ran clean is split without being run whole, and on the
// next target the entries found alone to give such a line are judged alone first, the rest together.
TEST(Probes, AFatalErrorPinnedOnNoEntryIsFoundByHalvesAndItsBodySuspectedOnTheNextTarget) {
  FakePtxas ptxas(
      "grep -q GUILTY \"$2\" && { echo \"ptxas <builtin>, line 36; fatal   : Parsing error near ',': syntax "
      "error\"; echo 'ptxas fatal   : Ptx assembly aborted due to errors'; exit 255; }\nexit 0\n");
  auto module_of = [](const std::string& target) {
    std::vector<Probe> probes;
    for (int k = 0; k < 64; ++k)
      probes.push_back({.target = target,
                        .ptx = {8, 4},
                        .body = fmt::format("// probe {}{}\n", k, k == 5 || k == 40 ? " GUILTY" : ""),
                        .group = 1});
    return probes;
  };
  std::vector<Probe> both = module_of("sm_72"), second = module_of("sm_80");
  both.insert(both.end(), second.begin(), second.end());
  ProbeStats one_target, two_targets;
  auto first = assemble_probes(ptxas.tc, module_of("sm_72"), ptxas.dir / "one", 1, ProbeMode::ParseOnly, &one_target);
  auto v = assemble_probes(ptxas.tc, both, ptxas.dir / "two", 1, ProbeMode::ParseOnly, &two_targets);
  ASSERT_EQ(v.size(), 128u);
  for (std::size_t k = 0; k < v.size(); ++k) {
    const bool guilty = k % 64 == 5 || k % 64 == 40;
    EXPECT_EQ(v[k].accepted, !guilty) << k;
    if (guilty) {
      EXPECT_NE(v[k].message.find("<builtin>, line 36; fatal"), std::string::npos) << v[k].message;
    }
    EXPECT_TRUE(v[k].error.empty()) << v[k].error;
  }
  for (std::size_t k = 0; k < first.size(); ++k) EXPECT_EQ(first[k].accepted, v[k].accepted) << k;
  // Halves: 21 runs for two of 64 (23 if every half were run whole).
  EXPECT_EQ(one_target.ptxas_runs, 21u);
  // sm_80: the other 62 together, its two suspects alone, before any run of the whole module (4
  // runs before: the module first).
  EXPECT_EQ(two_targets.ptxas_runs - one_target.ptxas_runs, 3u);
}

// ptxas's input files (thousands a cold audit) go to a folder of the call's own in memory
// (/dev/shm, where ext4's inode search for each new file costs nothing), not into the catalog, and
// the folder is gone when the call returns.
TEST(Probes, PtxasInputFilesAreWrittenInAFolderInMemoryThatTheCallRemoves) {
  FakePtxas ptxas("dirname \"$2\" > \"$(dirname \"$0\")/inputs\"\nexit 0\n");
  const fs::path catalog = ptxas.dir / "catalog" / "probes";
  auto v = assemble_probes(ptxas.tc, {{.target = "sm_90", .ptx = {9, 0}, .body = "// probe\n"}}, catalog, 1);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v[0].accepted) << v[0].message << v[0].error;
  std::string inputs;
  std::getline(std::ifstream(ptxas.dir / "inputs"), inputs);
  EXPECT_EQ(fs::path(inputs).parent_path(), memory_backed_parent());
  EXPECT_EQ(fs::path(inputs).filename().string().rfind("ptxcts-probes-", 0), 0u) << inputs;
  EXPECT_FALSE(fs::exists(inputs)) << inputs;
  for (auto const& e : fs::directory_iterator(catalog)) EXPECT_NE(e.path().extension(), ".ptx") << e.path();
}

TEST(Probes, PtxasFailingGivesNoVerdictAndIsNeverCached) {
  for (auto const& body : {kKilled, kOutOfMemory, kSilentFailure}) {
    FakePtxas ptxas(body);
    const fs::path dir = ptxas.dir / "probes";
    auto v = assemble_probes(ptxas.tc, {ld(".shared"), ld("")}, dir, 1);
    for (auto const& p : v) {
      EXPECT_FALSE(p.accepted);
      EXPECT_FALSE(p.error.empty()) << body;
    }
    ProbeStats again;
    assemble_probes(ptxas.tc, {ld(".shared"), ld("")}, dir, 1, ProbeMode::ParseOnly, &again);
    EXPECT_EQ(again.cached, 0u) << body;
    EXPECT_EQ(again.ptxas_runs, 1u) << body;
  }
}

// Over every probe of the audit whose target is sm_90 or sm_100a (a portable and an arch-specific
// target; each form of the grammar, its negative space and the examples are among them):
// parse-only and a full assembly for the real target agree on every verdict and message.
TEST(Probes, ParseOnlyGivesTheVerdictsAndMessagesOfAFullAssemblyOverEveryForm) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, *tc);
  std::vector<Probe> probes;
  for (auto const& p : plan.probes)
    if (p.arch.empty() && (p.target == "sm_90" || p.target == "sm_100a")) probes.push_back(p);
  ASSERT_GT(probes.size(), plan.grammar.size());
  const fs::path dir = fresh_dir("equality");
  auto parse = assemble_probes(*tc, probes, dir / "parse", 2, ProbeMode::ParseOnly);
  auto full = assemble_probes(*tc, probes, dir / "full", 2, ProbeMode::Full);
  fs::remove_all(dir);
  int differ = 0, accepted = 0;
  for (std::size_t k = 0; k < probes.size(); ++k) {
    accepted += parse[k].accepted;
    if (parse[k].accepted == full[k].accepted && parse[k].message == full[k].message) continue;
    if (++differ <= 5)
      ADD_FAILURE() << probes[k].target << ":\n" << probes[k].body << "parse-only: " << parse[k].accepted << " "
                    << parse[k].message << "full: " << full[k].accepted << " " << full[k].message;
  }
  EXPECT_EQ(differ, 0) << "of " << probes.size();
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, static_cast<int>(probes.size()));
}

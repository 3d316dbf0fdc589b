// Probes that end ptxas's parse (a syntax error is fatal to the rest of its file), each in a file of
// its own in one ptxas process: every verdict and message is the one the probe gets alone, in far
// fewer runs than one a probe. ptxas 13.0 leaves the qualifiers of the instruction a fatal error
// stopped in for the next file's first instruction; the `ret` entry each such file opens with takes
// them, so that a probe after one is judged clean.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "assemble/probe_assembly.hpp"
#include "support/installed_ptxas.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

// An ldmatrix whose address is written as two registers: "Parsing error near '%io'", fatal, in the
// middle of an instruction whose qualifiers ptxas has read.
Probe ends_parse(int k, int group) {
  return {.target = "sm_90",
          .ptx = {9, 0},
          .body = fmt::format(".reg .b64 %io;\n.reg .b32 %v<1>;\n.reg .b64 %ad;\n"
                              "ldmatrix.sync.aligned.m8n8.x1{}.shared.b16 {{%v0}}, [%ad+%io];\n// probe {}\n",
                              k % 2 ? ".trans" : "", k),
          .group = group};
}

// A valid ldmatrix (the question expected it to end the parse too: a wrong guess costs nothing).
Probe valid(int k, int group) {
  return {.target = "sm_90",
          .ptx = {9, 0},
          .body = fmt::format(".reg .b32 %v<2>;\n.reg .b64 %ad;\n"
                              "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {{%v0, %v1}}, [%ad];\n// probe {}\n", k),
          .group = group};
}

// What every probe gets alone, one ptxas run each.
void expect_as_alone(const Toolchain& tc, const std::vector<Probe>& probes, const std::vector<ProbeVerdict>& together,
                     const fs::path& dir) {
  ASSERT_EQ(together.size(), probes.size());
  for (std::size_t k = 0; k < probes.size(); ++k) {
    Probe p = probes[k];
    p.group = 0;
    auto alone = assemble_probes(tc, {p}, dir / fmt::format("alone{}", k), 1);
    EXPECT_EQ(together[k].accepted, alone[0].accepted) << k << ": " << together[k].message;
    EXPECT_EQ(together[k].message, alone[0].message) << k;
    EXPECT_TRUE(together[k].error.empty()) << together[k].error;
  }
}

// The probes judged together in one call, in a folder of the test's own; then each verdict and
// message checked against what the probe gets alone.
std::vector<ProbeVerdict> judged_together(const Toolchain& tc, const std::vector<Probe>& probes, ProbeStats& stats) {
  test::TempDir temp("files-apart");
  auto v = assemble_probes(tc, probes, temp.dir / "together", 1, ProbeMode::ParseOnly, &stats);
  expect_as_alone(tc, probes, v, temp.dir);
  return v;
}

}  // namespace

// Before (one file): a run a probe, each fatal error ending the parse of every probe after it.
// Without the ret entry, the valid ldmatrix after a fatal one is rejected with "Multiple .aligned
// modifiers specified" and three more such lines (seen red).
TEST(ProbeFilesApart, ProbesThatEndTheParseAreJudgedInOneRunEachAsAlone) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  std::vector<Probe> probes;
  for (int k = 0; k < 12; ++k) probes.push_back(k % 4 == 3 ? valid(k, 2) : ends_parse(k, 2));
  ProbeStats stats;
  auto v = judged_together(*tc, probes, stats);
  for (std::size_t k = 0; k < probes.size(); ++k) {
    EXPECT_EQ(v[k].accepted, k % 4 == 3) << k << ": " << v[k].message;
    if (k % 4 != 3) {
      EXPECT_NE(v[k].message.find("line 4; fatal   : Parsing error near '%io'"), std::string::npos) << v[k].message;
    }
  }
  // The module (each probe a file: 9 fatal errors pinned), then the 3 nothing was pinned on, together
  // (before, one file: 10 runs, one for each fatal error, then the 3 together).
  EXPECT_EQ(stats.ptxas_runs, 2u);
}

// Probes of other orders of qualifiers (group 3) share one file first (ptxas takes most); where a
// fatal error ended that file's parse, what it did not judge goes again a file each, not again
// together after each fatal error (before: 5 runs, one for each of the 4, then the 12 together).
TEST(ProbeFilesApart, AfterAFatalErrorTheRestOfOrdersGoAFileEach) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  std::vector<Probe> probes;
  for (int k = 0; k < 16; ++k) probes.push_back(k % 4 == 1 ? ends_parse(k, 3) : valid(k, 3));
  ProbeStats stats;
  auto v = judged_together(*tc, probes, stats);
  for (std::size_t k = 0; k < probes.size(); ++k) EXPECT_EQ(v[k].accepted, k % 4 != 1) << k << ": " << v[k].message;
  // One file (the first fatal error pinned), a file each (the other 3), the 12 accepted together.
  EXPECT_EQ(stats.ptxas_runs, 3u);
}

// ptxas expands what its parse took (a wmma, an mma it emulates: mma.m8n8k16 on sm_75 becomes its
// built-in '_mma') file by file, and in a file stops at the first failure ("Arguments mismatch for
// instruction '_mma'"), going on with the next file. A rest rejected again in one file goes again a
// file each: the 8 failures here are found in 4 runs (the module: the parse error; its rest in one
// file: the first failure; a file each: the other 7; the 4 valid ones together), not in 10 (seen
// red: a run for each failure).
TEST(ProbeFilesApart, FailuresOfTheExpansionAreFoundInOneRunAFileEach) {
  auto tc = test::installed_ptxas();
  if (!tc) GTEST_SKIP() << "no ptxas";
  auto mma = [](const char* types, const char* b_type, bool satfinite, bool aligned) {
    return Probe{.target = "sm_75",
                 .ptx = {9, 0},
                 .body = fmt::format(".reg .s32 %od<2>;\n.reg .b32 %oa<1>;\n.reg {} %ob<1>;\n.reg .s32 %oc<2>;\n"
                                     "mma.sync{}.m8n8k16.row.col{}.s32{}.s32 {{%od0, %od1}}, {{%oa0}}, {{%ob0}}, "
                                     "{{%oc0, %oc1}};\n",
                                     b_type, aligned ? ".aligned" : "", satfinite ? ".satfinite" : "", types),
                 .group = 1};
  };
  std::vector<Probe> probes = {mma(".s8.s8", ".b32", false, false)};  // ".aligned modifier required": the parse's
  for (const char* types : {".s8.s8", ".u8.s8", ".s8.u8", ".u8.u8"}) {
    probes.push_back(mma(types, ".f32", false, true));  // B in a .f32 register: the expansion fails
    probes.push_back(mma(types, ".b32", false, true));  // valid
    probes.push_back(mma(types, ".f32", true, true));
  }
  ProbeStats stats;
  auto v = judged_together(*tc, probes, stats);
  ASSERT_EQ(v.size(), 13u);
  EXPECT_NE(v[0].message.find(".aligned modifier required"), std::string::npos) << v[0].message;
  for (std::size_t k = 1; k < probes.size(); ++k) {
    EXPECT_EQ(v[k].accepted, k % 3 == 2) << k << ": " << v[k].message;
    if (k % 3 != 2) {
      EXPECT_NE(v[k].message.find("line 5; error   : Arguments mismatch for instruction '_mma'"), std::string::npos)
          << k << ": " << v[k].message;
    }
  }
  EXPECT_EQ(stats.ptxas_runs, 4u);
}

// What a cold audit costs in ptxas's work: a module expected to be accepted is run again after each
// rejection (ptxas lowers a module only where its parse found no error, and stops expanding a file at
// its first failure), so a body rejected the last time it was judged (on another target, at another PTX
// ISA version) is judged apart, and the rest is accepted in one run.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "assemble/probe_assembly.hpp"
#include "support/fake_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(ProbeReruns, ABodyRejectedTheLastTimeIsJudgedApartAndTheRestAcceptedInOneRun) {
  // Counts the member entries of each file it is given; at .version 8.0 rejects every entry (as
  // ptxas does a feature of a later version); else rejects a file's first LOWERBAD entry alone (a
  // failure of ptxas's expansion, which stops there in that file and goes on in the next); the
  // stopper file of a module laid out a file an entry holds an error; a run without one is accepted.
  FakePtxas ptxas(R"(for f in "$@"; do
  case "$f" in *.ptx) ;; *) continue ;; esac
  grep -c '^\.visible \.entry p' "$f" >> "$(dirname "$0")/entries"
  all=$(grep -c '^\.version 8\.0' "$f")
  awk -v f="$f" -v all="$all" '
    /ptxcts_stops_lowering/ { print "ptxas " f ", line " NR "; error   : Unknown instruction"; bad = 1 }
    /^\/\/ body/ { if (all > 0) { print "ptxas " f ", line " NR "; error   : Feature requires PTX ISA version 8.3"; bad = 1 }
                   else if (/LOWERBAD/ && !bad) { print "ptxas " f ", line " NR "; error   : Unknown symbol"; bad = 1 } }
    END { exit bad }' "$f" || failed=1
done
[ -z "$failed" ] || { echo 'ptxas fatal   : Ptx assembly aborted due to errors'; exit 255; }
)");
  std::vector<Probe> probes;
  for (PtxVersion version : {PtxVersion{8, 0}, PtxVersion{8, 3}, PtxVersion{8, 4}})
    for (int k = 0; k < 40; ++k)
      probes.push_back({.target = "sm_90",
                        .ptx = version,
                        .body = fmt::format("// body {}{}\n", k, k == 7 || k == 20 ? " LOWERBAD" : "")});
  ProbeStats stats;
  auto v = assemble_probes(ptxas.tc, probes, ptxas.dir / "probes", 1, ProbeMode::ParseOnly, &stats);
  for (std::size_t k = 0; k < v.size(); ++k) {
    const bool bad = k < 40 || k % 40 == 7 || k % 40 == 20;
    EXPECT_EQ(v[k].accepted, !bad) << k;
    EXPECT_TRUE(v[k].error.empty()) << v[k].error;
  }
  EXPECT_NE(v[47].message.find("line 1; error   : Unknown symbol"), std::string::npos) << v[47].message;
  std::ifstream counts(ptxas.dir / "entries");
  int entries = 0;
  for (int n; counts >> n;) entries += n;
  // 8.0: 40 in one run. 8.3: every body was rejected last: 40, 39 (a rest rejected again), then the
  // 38 a file each (a parse: no failure left) and in one file, accepted. 8.4: the 38 accepted at
  // 8.3 in one run, then the two apart (2, 1): 236 entries. Before (8.4 as 8.3): 350.
  EXPECT_EQ(entries, 40 + (40 + 39 + 38 + 38) + (38 + 2 + 1));
  EXPECT_EQ(stats.ptxas_runs, 8u);
}

namespace {
// Counts the entries of each module it is given; rejects each entry whose body says BAD, and
// accepts a module without one.
const char* kCountsAndRejectsBad =
    "grep -c '^\\.visible \\.entry' \"$2\" >> \"$(dirname \"$0\")/entries\"\n"
    "awk -v f=\"$2\" '/BAD/ { print \"ptxas \" f \", line \" NR \"; error   : Unknown symbol\"; bad = 1 } END { if "
    "(bad) { print \"ptxas fatal   : Ptx assembly aborted due to errors\"; exit 255 } }' \"$2\"\n";

int entries_assembled(const FakePtxas& ptxas) {
  std::ifstream counts(ptxas.dir / "entries");
  int entries = 0;
  for (int n; counts >> n;) entries += n;
  return entries;
}

// Ten bodies, each asked three times (as several kinds of question ask one thing), one of them BAD.
std::vector<Probe> asked_thrice() {
  std::vector<Probe> probes;
  for (int copy = 0; copy < 3; ++copy)
    for (int k = 0; k < 10; ++k)
      probes.push_back({.target = "sm_90", .ptx = {8, 4}, .body = fmt::format("// body {}{}\n", k, k == 4 ? " BAD" : ""),
                        .group = copy == 1 ? 1 : 0});
  return probes;
}
}  // namespace

TEST(ProbeReruns, AProbeAskedByManyQuestionsIsJudgedOnceAndEachGetsItsVerdict) {
  FakePtxas ptxas(kCountsAndRejectsBad);
  const std::vector<Probe> probes = asked_thrice();
  ProbeStats stats;
  auto v = assemble_probes(ptxas.tc, probes, ptxas.dir / "probes", 1, ProbeMode::ParseOnly, &stats);
  for (std::size_t k = 0; k < v.size(); ++k) {
    EXPECT_EQ(v[k].accepted, k % 10 != 4) << k;
    if (k % 10 == 4) {
      EXPECT_NE(v[k].message.find("line 1; error   : Unknown symbol"), std::string::npos) << k;
    }
  }
  EXPECT_EQ(stats.distinct, 10u);
  // The ten in one module: 10 entries, BAD rejected, the other 9 again. Each asked apart: 3 times as many.
  EXPECT_EQ(entries_assembled(ptxas), 10 + 9);
  EXPECT_EQ(stats.ptxas_runs, 2u);
}

TEST(ProbeReruns, ACallWithNothingChangedReadsOneRecordAndAnotherToolkitOrProbeDoesNot) {
  FakePtxas ptxas(kCountsAndRejectsBad);
  std::vector<Probe> probes = asked_thrice();
  const auto dir = ptxas.dir / "probes";
  ProbeStats stats;
  const auto cold = assemble_probes(ptxas.tc, probes, dir, 1, ProbeMode::ParseOnly, &stats);
  EXPECT_FALSE(stats.whole_call_cached);
  const auto warm = assemble_probes(ptxas.tc, probes, dir, 1, ProbeMode::ParseOnly, &stats);
  EXPECT_TRUE(stats.whole_call_cached);
  EXPECT_EQ(stats.ptxas_runs, 0u);
  for (std::size_t k = 0; k < cold.size(); ++k) {
    EXPECT_EQ(warm[k].accepted, cold[k].accepted) << k;
    EXPECT_EQ(warm[k].message, cold[k].message) << k;
  }
  // Another ptxas version: not this call's record (its modules' records are keyed by it too: judged again).
  Toolchain other = ptxas.tc;
  other.version += ".1";
  assemble_probes(other, probes, dir, 1, ProbeMode::ParseOnly, &stats);
  EXPECT_FALSE(stats.whole_call_cached);
  EXPECT_GT(stats.ptxas_runs, 0u);
  // One probe changed (its group alone, which decides its module): not this call's record.
  probes[25].group = 2;
  assemble_probes(ptxas.tc, probes, dir, 1, ProbeMode::ParseOnly, &stats);
  EXPECT_FALSE(stats.whole_call_cached);
}

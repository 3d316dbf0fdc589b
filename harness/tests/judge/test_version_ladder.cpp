// The audit's second round (judge/version_ladder.hpp): where the first answers about a PTX ISA
// version disagree with the documents, the form is asked at every version the toolkit knows, and
// the finding states the real bound or window. A stand-in toolkit answers (no ptxas).
#include <gtest/gtest.h>

#include <set>

#include "judge/audit.hpp"
#include "judge/version_ladder.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

ProbeVerdict yes() { return {.accepted = true, .message = "", .error = ""}; }
ProbeVerdict no(const std::string& m = "ptxas probe.ptx, line 3; error   : Feature 'x' requires PTX ISA .version 9.9") {
  return {.accepted = false, .message = m, .error = ""};
}

std::vector<VersionRung> rungs(const std::vector<PtxVersion>& versions) {
  std::vector<VersionRung> out;
  for (std::size_t i = 0; i < versions.size(); ++i)
    out.push_back({.version = versions[i], .on = {.target = "sm_70", .probe = i}});
  return out;
}

const std::vector<PtxVersion> kSix = {{6, 0}, {6, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 5}};

}  // namespace

TEST(VersionLadder, ReadsABoundAWindowGapsOrNothing) {
  const auto ladder = rungs(kSix);
  LadderReading from = read_ladder(ladder, {no(), no(), no(), yes(), yes(), yes()});
  EXPECT_EQ(from.text.substr(0, from.text.find(" (")), "accepted from PTX ISA 6.3");
  EXPECT_FALSE(from.window);
  LadderReading window = read_ladder(ladder, {no(), no(), no(), yes(), yes(), no()});
  EXPECT_EQ(window.text.substr(0, window.text.find(" (")), "accepted only from PTX ISA 6.3 to 6.4");
  EXPECT_TRUE(window.window);
  LadderReading gaps = read_ladder(ladder, {yes(), no(), no(), yes(), yes(), yes()});
  EXPECT_EQ(gaps.text.substr(0, gaps.text.find(" (")), "accepted only at PTX ISA 6.0 and 6.3 to 6.5");
  EXPECT_TRUE(gaps.gaps);
  LadderReading none = read_ladder(ladder, {no(), no(), no(), no(), no(), no()});
  EXPECT_EQ(none.text.substr(0, none.text.find(" (")), "rejected at every PTX ISA version");
  EXPECT_NE(from.text.find("every PTX ISA version from 6.0 to 6.5 asked, on sm_70"), std::string::npos);
}

// wmma's floating point forms are documented from PTX ISA 6.0; a toolkit that takes them only from
// 6.3 (as ptxas does with the .aligned the specs write) is asked every version, and says so.
TEST(VersionLadder, AFormRejectedAtItsMinimumIsAskedEveryVersionAndTheFindingStatesTheRealBound) {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
  std::vector<ProbeVerdict> v(plan.probes.size(), yes());
  std::size_t late = 0;
  for (auto const& vs : plan.versions) {
    if (vs.below) v[vs.below->probe] = no();
    const bool wmma = plan.grammar[vs.of].cc.instance->variant().name == "wmma.load.a.f16_int";
    if (wmma && vs.documented == PtxVersion{6, 0} && vs.at)
      v[vs.at->probe] = no("ptxas probe.ptx, line 3; error   : Feature '.aligned modifier for wmma' requires PTX ISA "
                           ".version 6.3 or later"),
      ++late;
  }
  ASSERT_GT(late, 0u);
  const std::size_t first = plan.probes.size();
  plan_version_ladders(plan, suite.specs, v);
  std::size_t laddered = 0;
  for (auto const& vs : plan.versions) {
    if (vs.ladder.empty()) continue;
    ++laddered;
    // targets.yaml's versions up to 9.0: 5.0, 6.0-6.5, 7.0-7.8, 8.0-8.8, 9.0.
    ASSERT_EQ(vs.ladder.size(), 26u);
    EXPECT_EQ(vs.ladder.front().version, (PtxVersion{5, 0}));
    EXPECT_EQ(vs.ladder.back().version, (PtxVersion{9, 0}));
  }
  EXPECT_EQ(laddered, late) << "only the forms whose first answers disagree are asked again";
  v.resize(plan.probes.size());
  for (std::size_t i = first; i < plan.probes.size(); ++i) v[i] = plan.probes[i].ptx < PtxVersion{6, 3} ? no() : yes();
  Audit a = judge_audit(suite, plan, v);
  const Finding* f = nullptr;
  for (auto const& x : a.findings)
    if (x.id == "toolkit-rejects/requirement/wmma.load.a.f16_int/ptx-6.0") f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->observed.find("; accepted from PTX ISA 6.3 (every PTX ISA version from 5.0 to 9.0 asked"),
            std::string::npos)
      << f->observed;
  EXPECT_NE(f->observed.find("the documents say PTX ISA 6.0"), std::string::npos) << f->observed;
}

// Two rounds only where the first calls for a second; the verdicts come back in the plan's order.
TEST(VersionLadder, AskAuditAsksASecondRoundOnlyForTheLadders) {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
  std::set<std::size_t> below;
  for (auto const& vs : plan.versions)
    if (vs.below) below.insert(vs.below->probe);
  for (auto const& ts : plan.target_versions)
    if (ts.below) below.insert(ts.below->probe);
  std::vector<std::size_t> rounds;
  auto documented = [&](const std::vector<Probe>& probes) {
    rounds.push_back(probes.size());
    std::vector<ProbeVerdict> out;
    for (std::size_t i = 0; i < probes.size(); ++i) out.push_back(rounds.size() == 1 && below.count(i) ? no() : yes());
    return out;
  };
  const std::size_t planned = plan.probes.size();
  AuditPlan copy = plan;
  std::vector<ProbeVerdict> v = ask_audit(copy, suite.specs, documented);
  // Hand-listed forms of a removed feature are always asked again (a window is theirs to show).
  std::size_t forms = 0;
  for (auto const& fs : copy.forms) forms += !fs.ladder.empty();
  EXPECT_GT(forms, 0u);
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[0], planned);
  EXPECT_EQ(rounds[0] + rounds[1], copy.probes.size());
  EXPECT_EQ(v.size(), copy.probes.size());
  for (auto const& vs : copy.versions) EXPECT_TRUE(vs.ladder.empty());
}

// Rules bounded in PTX ISA versions (specs' `ptx_isa`, spec/grammar_model.hpp's PtxRange). The spec
// reads PTX ISA 9.0's Table 36 as giving mma .kind::mxf4nvf4 .ue8m0 with .scale_vec::2X only (rule
// mma-block-scale-mxf4nvf4-ue8m0); PTX ISA 9.1 made .ue8m0 with .scale_vec::4X valid, and ptxas 13.5
// takes it on sm_120a/f and sm_121a/f. The audit reads the rule at each probe's own .version: at
// the toolkit's 9.5 the pair is what the block spells (no finding where ptxas takes it), and the
// pair is asked at 9.0 (the rule holds: invalid) and 9.1 (past it: valid), where the toolkit knows them.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "judge/audit.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const char* kRule = "mma-block-scale-mxf4nvf4-ue8m0";

// ptxas 13.5 as the specs know it (PTX ISA 9.5), never run.
Toolchain unrun_ptxas_13_5(const Suite& s) { return unrun_ptxas(s, "13.5.37", "13.5", {9, 5}); }

struct Plans {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan p13_0 = plan_audit(suite, unrun_ptxas_13_0(suite));
  AuditPlan p13_5 = plan_audit(suite, unrun_ptxas_13_5(suite));
};
const Plans& plans() {
  static const Plans p;
  return p;
}

// The pair PTX ISA 9.1 made valid, in the grammar's spelling.
bool the_pair(const std::string& text) {
  return text.find(".kind::mxf4nvf4.block_scale.scale_vec::4X.") != std::string::npos &&
         text.find(".ue8m0 ") != std::string::npos;
}

// ptxas as 13.5 answers: the documented forms accepted on their targets, the pair accepted wherever
// asked, every other probe refused.
std::vector<ProbeVerdict> as_13_5_says(const Plans& p) {
  std::vector<ProbeVerdict> v(p.p13_5.probes.size(), {.accepted = false, .message = "error   : not this", .error = ""});
  for (auto const& g : p.p13_5.grammar)
    for (auto const& on : g.on)
      if (the_pair(g.cc.combo.text) ||
          (g.cc.doc == DocClass::Valid &&
           supports(p.suite.specs.targets, *g.cc.instance, *p.suite.specs.targets.find(on.target))))
        v[on.probe] = {.accepted = true, .message = "", .error = ""};
  for (auto const& m : p.p13_5.mutations)
    if (m.m->expected == DocClass::Valid) v[m.on.probe] = {.accepted = true, .message = "", .error = ""};
  return v;
}

}  // namespace

TEST(RuleVersions, TheRuleIsReadAtTheProbesVersion) {
  const Plans& p = plans();
  int at_9_0 = 0, at_9_5 = 0;
  for (auto const& g : p.p13_0.grammar)
    if (the_pair(g.cc.combo.text)) {
      ++at_9_0;
      EXPECT_EQ(g.cc.doc, DocClass::Invalid) << g.cc.combo.text;
      ASSERT_EQ(g.cc.forbidden_by.size(), 1u);
      EXPECT_EQ(g.cc.forbidden_by.front()->id, kRule);
    }
  for (auto const& g : p.p13_5.grammar)
    if (the_pair(g.cc.combo.text)) {
      ++at_9_5;
      EXPECT_EQ(g.cc.doc, DocClass::Unencoded) << g.cc.combo.text;  // the block spells it; no variant encodes it
      EXPECT_TRUE(g.cc.forbidden_by.empty());
    }
  EXPECT_EQ(at_9_0, 1);  // one syntax block spells the pair
  EXPECT_EQ(at_9_5, 1);
}

TEST(RuleVersions, ThePairIsAskedAtTheLastVersionTheRuleHoldsAndTheFirstPastIt) {
  const Plans& p = plans();
  auto asked = [](const AuditPlan& plan) {
    std::map<std::string, std::pair<DocClass, std::string>> out;  // version -> expected, target
    for (auto const& m : plan.mutations)
      if (m.m->kind == "rule-version") {
        EXPECT_TRUE(the_pair(m.m->text)) << m.m->text;
        out[plan.probes[m.on.probe].ptx.str()] = {m.m->expected, m.on.target};
      }
    return out;
  };
  const auto on_13_5 = asked(p.p13_5);
  ASSERT_EQ(on_13_5.size(), 2u);
  EXPECT_EQ(on_13_5.at("9.0").first, DocClass::Invalid);
  EXPECT_EQ(on_13_5.at("9.1").first, DocClass::Valid);
  const std::set<std::string> block_scale_targets{"sm_120a", "sm_120f"};  // the first that support the block
  EXPECT_TRUE(block_scale_targets.count(on_13_5.at("9.0").second)) << on_13_5.at("9.0").second;
  // 9.1 is past ptxas 13.0's PTX ISA 9.0, and 9.0 its own version, where the grammar asks the pair
  // on every target (TheRuleIsReadAtTheProbesVersion): no edge of its own.
  EXPECT_TRUE(asked(p.p13_0).empty());
}

TEST(RuleVersions, PtxasTakingThePairPastTheRuleIsNoFindingButAtItsLastVersionOneIs) {
  const Plans& p = plans();
  std::vector<ProbeVerdict> v = as_13_5_says(p);
  const Audit a = judge_audit(p.suite, p.p13_5, v);
  for (auto const& f : a.findings) EXPECT_EQ(f.id.find(kRule), std::string::npos) << f.id;
  for (auto const& s : a.statements) {
    if (s.id == kRule) {  // refused at 9.0, its last version
      EXPECT_EQ(s.verdict, Verdict::Confirmed) << s.evidence;
    }
  }
  for (auto const& m : p.p13_5.mutations)  // a toolkit that takes the pair at 9.0 too
    if (m.m->kind == "rule-version") v[m.on.probe] = {.accepted = true, .message = "", .error = ""};
  const Audit b = judge_audit(p.suite, p.p13_5, v);
  int seen = 0;
  for (auto const& f : b.findings)
    if (f.id == "toolkit-accepts/negative-space/mma.scale.mxf4nvf4/rule-version") {
      ++seen;
      EXPECT_TRUE(f.fails());
      EXPECT_EQ(f.question, QuestionKind::PtxVersions);
      EXPECT_EQ(f.words, "The valid combinations of .kind, .stype and .scale_vec_size are described in Table 36.");
    }
  EXPECT_EQ(seen, 1);
  for (auto const& s : b.statements) {
    if (s.id == kRule) {
      EXPECT_EQ(s.verdict, Verdict::Contradicted) << s.evidence;
    }
  }
}

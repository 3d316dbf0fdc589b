// The register minimum the documents state (mma's Notes: .f64 at .m16n8k4, .m16n8k8 and .m16n8k16
// "require at least 64 registers for compilation", specs/mma.yaml's register_minimums:) is asked of
// ptxas: each variant's first form in an entry limited to 63 registers (.maxnreg), compiled in full
// on its target, and at 64; refused at 63 for the register limit and taken at 64 confirms it, taken
// at 63 contradicts it (a finding), refused for another reason or refused at 64 too decides nothing.
// Also in the sentence counts: judged by ptxas only where the statement got a verdict.
#include <gtest/gtest.h>

#include <string>

#include "judge/audit.hpp"
#include "judge/sentence_counts.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

namespace {

using namespace ptxcts;

struct MinimumPlan {
  Suite suite = build_suite(load_specs(test::spec_files()));
  AuditPlan plan = plan_audit(suite, test::unrun_ptxas_13_0(suite));
};

const MinimumPlan& minimum_plan() {
  static const MinimumPlan p;
  return p;
}

const StatementVerdict* minimum_statement(const Audit& a) {
  for (auto const& s : a.statements)
    if (s.id == "mma-f64-requires-64-registers") return &s;
  return nullptr;
}

// ptxas 13.0.88's words for a register limit it cannot meet.
const std::string kLimit =
    "ptxas error   : Function 'p0' using feature 'mma with .f64 type' and with shape '.m16n8k16' cannot be compiled "
    "with specified register target constraints";

TEST(RegisterMinimums, EachVariantIsAskedOneRegisterBelowAndAtTheMinimumCompiledInFull) {
  const MinimumPlan& p = minimum_plan();
  ASSERT_EQ(p.plan.register_minimums.size(), 3u);  // the three .f64 shapes the Note names
  for (auto const& s : p.plan.register_minimums) {
    ASSERT_TRUE(s.below && s.at) << s.variant;
    const Probe &below = p.plan.probes[s.below->probe], &at = p.plan.probes[s.at->probe];
    EXPECT_EQ(below.directives, ".maxnreg 63") << s.variant;
    EXPECT_EQ(at.directives, ".maxnreg 64") << s.variant;
    EXPECT_EQ(below.arch, below.target) << s.variant << ": the limit is code generation's, never met by a parse";
    EXPECT_EQ(below.target, "sm_90") << s.variant << ": the .f64 m16n8 shapes' first target";
    EXPECT_NE(below.body.find(".f64.f64.f64.f64"), std::string::npos) << below.body;
  }
}

TEST(RegisterMinimums, RefusedBelowForTheLimitAndTakenAtItConfirms) {
  const MinimumPlan& p = minimum_plan();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  for (auto const& s : p.plan.register_minimums) v[s.below->probe] = {.accepted = false, .message = kLimit, .error = ""};
  Audit a = judge_audit(p.suite, p.plan, v);
  const StatementVerdict* st = minimum_statement(a);
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->verdict, Verdict::Confirmed) << st->evidence;
  EXPECT_EQ(st->forms, 3u);
  EXPECT_EQ(st->kind, "register-minimum");
  JudgedIds judged = judged_by_audit(a);
  EXPECT_TRUE(judged.ptxas.count("mma-f64-requires-64-registers"));

  // Taken at 63 on one shape: contradicted, a finding naming the statement.
  v[p.plan.register_minimums[1].below->probe] = {.accepted = true, .message = "", .error = ""};
  a = judge_audit(p.suite, p.plan, v);
  EXPECT_EQ(minimum_statement(a)->verdict, Verdict::Contradicted) << minimum_statement(a)->evidence;
  bool finding = false;
  for (auto const& f : a.findings) finding = finding || f.id == "document-error/register-minimum/mma-f64-requires-64-registers";
  EXPECT_TRUE(finding);
}

TEST(RegisterMinimums, ARefusalForAnotherReasonOrAtTheMinimumDecidesNothing) {
  const MinimumPlan& p = minimum_plan();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  for (auto const& s : p.plan.register_minimums)
    v[s.below->probe] = {.accepted = false, .message = "ptxas probe.ptx, line 5; error   : Unknown symbol", .error = ""};
  Audit a = judge_audit(p.suite, p.plan, v);
  EXPECT_EQ(minimum_statement(a)->verdict, Verdict::NotCheckable) << minimum_statement(a)->evidence;
  EXPECT_FALSE(judged_by_audit(a).ptxas.count("mma-f64-requires-64-registers"));
  for (auto const& s : p.plan.register_minimums) {
    v[s.below->probe] = {.accepted = false, .message = kLimit, .error = ""};
    v[s.at->probe] = {.accepted = false, .message = kLimit, .error = ""};
  }
  a = judge_audit(p.suite, p.plan, v);
  EXPECT_EQ(minimum_statement(a)->verdict, Verdict::NotCheckable) << minimum_statement(a)->evidence;
  EXPECT_NE(minimum_statement(a)->evidence.find("refused at 64 registers too"), std::string::npos);
}

}  // namespace

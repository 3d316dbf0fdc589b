// The plan made on one thread and on several is the same plan, probe for probe and question for
// question: judge/audit_plan makes the documented forms' negative spaces on several threads and adds
// them in the forms' order (the probes' order is every module's, record's and report's).
#include <gtest/gtest.h>

#include <string>

#include "judge/audit_plan.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(AuditPlanThreads, OneThreadOrFourMakeTheSamePlan) {
  const Suite suite = build_suite(load_specs(spec_files()));
  const Toolchain tc = unrun_ptxas_13_0(suite);
  const AuditPlan one = plan_audit(suite, tc, 1), four = plan_audit(suite, tc, 4);
  ASSERT_GT(one.mutations.size(), 10000u);  // the negative spaces are most of the plan
  ASSERT_EQ(one.probes.size(), four.probes.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < one.probes.size(); ++k) {
    const Probe &a = one.probes[k], &b = four.probes[k];
    differ += a.target != b.target || !(a.ptx == b.ptx) || a.body != b.body || a.arch != b.arch || a.group != b.group;
  }
  EXPECT_EQ(differ, 0u) << "probes at other places";
  ASSERT_EQ(one.mutations.size(), four.mutations.size());
  differ = 0;
  for (std::size_t j = 0; j < one.mutations.size(); ++j) {
    const MutationSubject &a = one.mutations[j], &b = four.mutations[j];
    differ += a.of != b.of || a.m->kind != b.m->kind || a.m->detail != b.m->detail || a.m->text != b.m->text ||
              a.instruction != b.instruction || a.on.target != b.on.target || a.on.probe != b.on.probe || a.home != b.home;
  }
  EXPECT_EQ(differ, 0u) << "questions at other places";
}

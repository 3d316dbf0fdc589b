// The audit with the real ptxas, on a small grammar (tests/support/grammar_fixture.hpp): a rule the
// toolkit keeps is confirmed, and the same rule made wrong (it forbids what ptxas accepts) is
// contradicted, a finding with the rule's words. Parse-only probes, as the audit runs them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include "judge/audit.hpp"
#include "kinds/kinds.hpp"
#include "support/grammar_fixture.hpp"

using namespace ptxcts;

namespace {

struct Judged {
  Audit audit;
  std::size_t probes = 0;
};

Judged audit_of(const Toolchain& tc, const Suite& suite) {
  const std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("ptxcts-audit-ptxas-" + std::to_string(::getpid()));
  AuditPlan plan = plan_audit(suite, tc);
  std::vector<ProbeVerdict> verdicts = assemble_probes(tc, plan.probes, cache, 2);
  std::filesystem::remove_all(cache);
  return {judge_audit(suite, plan, verdicts), plan.probes.size()};
}

const StatementVerdict* statement(const Audit& a, const std::string& id) {
  for (auto const& s : a.statements)
    if (s.id == id) return &s;
  return nullptr;
}

}  // namespace

TEST(AuditWithPtxas, AWrongRuleTurnsItsConfirmedClaimIntoAContradictedOne) {
  Toolchain tc;
  try {
    tc = Toolchain::discover();
  } catch (const std::exception& e) { GTEST_SKIP() << "no ptxas: " << e.what(); }
  // As the manual says it: only .x1 and .x2 for .m16n16. ptxas agrees.
  Suite right = build_suite(load_specs(test::files(test::kGrammar)));
  Judged r = audit_of(tc, right);
  ASSERT_NE(statement(r.audit, "m16n16-num"), nullptr);
  EXPECT_EQ(statement(r.audit, "m16n16-num")->verdict, Verdict::Confirmed) << statement(r.audit, "m16n16-num")->evidence;
  for (auto const& f : r.audit.findings) EXPECT_NE(f.id, "toolkit-accepts/rule/m16n16-num");

  // Made wrong: only .x1. ptxas accepts .m16n16.x2 (with .trans and .b8, on the targets that have it).
  const std::string from = "only: {num: [.x1, .x2]}";
  const std::size_t at = test::kGrammar.find(from);
  ASSERT_NE(at, std::string::npos);
  const std::string edited = test::kGrammar.substr(0, at) + "only: {num: [.x1]}" + test::kGrammar.substr(at + from.size());
  Suite suite = build_suite(load_specs(test::files(edited)));
  Judged w = audit_of(tc, suite);
  const StatementVerdict* s = statement(w.audit, "m16n16-num");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->verdict, Verdict::Contradicted) << s->evidence;
  const Finding* f = nullptr;
  for (auto const& x : w.audit.findings)
    if (x.id == "toolkit-accepts/rule/m16n16-num") f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->words, "When .shape is .m16n16, only .x1 and .x2 are valid values for .num.");
  EXPECT_NE(f->example.find(".m16n16.x2.trans"), std::string::npos) << f->example;
  EXPECT_NE(std::find(f->targets.begin(), f->targets.end(), "sm_100a"), f->targets.end());
  EXPECT_EQ(std::find(f->targets.begin(), f->targets.end(), "sm_90"), f->targets.end());  // no .m16n16 there
  EXPECT_TRUE(f->fails());
  EXPECT_GT(w.audit.contradictions(), 0);
}

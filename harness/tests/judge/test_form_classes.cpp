// Every mutation kind on every documented form (issue 43, parts 1, 4 and 5): the wider questions
// asked on the head of each class of forms the documents' rules give the same verdicts (the forms
// with wmma's optional stride, each fragment table row's register count), a seeded sample of the
// others checked against it as a statement, the coverage per block and kind, and each finding at
// its extent. Expected values come from the manual's syntax and the specs' grammar blocks; no
// ptxas: verdicts are made up where one is needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "judge/audit.hpp"
#include "judge/form_classes.hpp"
#include "judge/form_ranges.hpp"
#include "judge/negative_space_parts.hpp"
#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

struct PlannedForms {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));

  // The questions the forms of `block` asked for themselves (not to check a class), "kind: detail" -> forms' texts.
  std::map<std::string, std::set<std::string>> own(const std::string& block) const {
    std::map<std::string, std::set<std::string>> out;
    for (auto const& m : plan.mutations)
      if (m.home && !m.equivalence && plan.grammar[m.of].cc.combo.block->id == block)
        out[m.m->kind + ": " + m.m->detail].insert(plan.grammar[m.of].cc.combo.text);
    return out;
  }
};

const PlannedForms& planned_forms() {
  static const PlannedForms p;
  return p;
}

bool any_with(const std::set<std::string>& texts, const std::string& part) {
  for (auto const& t : texts)
    if (t.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

// "wmma.load.a.sync.aligned.layout.shape{.ss}.atype r, [p] {, stride};" (PTX ISA 9.0, 9.7.14.4.3):
// the stride is an optional operand, so the forms written with it ask the operand questions of
// their own: an immediate for the stride, each operand left out. Without the stride, the form is
// one the block spells itself: no operand question asks it.
TEST(FormClasses, TheOptionalStrideIsAskedOnAFormThatHasIt) {
  auto q = planned_forms().own("wmma.load.a.f16");
  ASSERT_TRUE(q.count("operand-form: immediate in place of {stride}"));
  EXPECT_TRUE(any_with(q.at("operand-form: immediate in place of {stride}"), ", {stride};"));
  ASSERT_TRUE(q.count("operand-form: operand [{addr}] left out"));
  EXPECT_TRUE(any_with(q.at("operand-form: operand [{addr}] left out"), ", {stride};"));
  EXPECT_FALSE(q.count("operand-form: last operand {stride} left out"));
  std::set<std::string> grammar;
  for (auto const& g : planned_forms().plan.grammar) grammar.insert(g.cc.combo.text);
  for (auto const& m : planned_forms().plan.mutations) {
    if (m.m->kind != "operand-form" || !m.m->shape.declarations.empty() || !m.m->shape.unbraced.empty()) continue;
    EXPECT_FALSE(grammar.count(m.m->text)) << "a documented form asked as an operand form: " << m.m->text;
  }
}

// wmma.load.c's registers are "m * n * bits / 1024" (the fragment table: four .f16x2 registers for
// .f16, eight .f32 or .s32): both rows ask every count from none to twice their own.
TEST(FormClasses, EveryFragmentRowAsksEveryRegisterCount) {
  auto q = planned_forms().own("wmma.load.c.f16");
  for (const char* d : {"registers: {regs}: 0 registers (documented 4)", "registers: {regs}: 8 registers (documented 4)",
                        "registers: {regs}: 0 registers (documented 8)", "registers: {regs}: 16 registers (documented 8)"})
    EXPECT_TRUE(q.count(d)) << d;
}

// The operands of mma.sp "d, a, b, c, e, f", f "a 32-bit integer constant" (PTX ISA 9.0, 9.7.14.6.3):
// each operand left out, a register where the selector is a constant, an immediate for e.
TEST(FormClasses, EveryOperandPositionOfTheSparseSyntaxIsAsked) {
  Combination c{.block = nullptr, .choice = {},
                .text = "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {d}, {a}, {b}, {c}, {e}, 0;"};
  ClassifiedCombination cc{.combo = c, .doc = DocClass::Valid, .instance = nullptr, .forbidden_by = {}};
  OperandShape shape;
  shape.registers = {{"d", 2}, {"a", 2}, {"b", 1}, {"c", 2}};
  MutationSet out(c, shape);
  operand_form_mutations(out, cc, shape, nullptr);
  std::set<std::string> details;
  for (auto const& m : out.out) details.insert(m.detail);
  for (const char* d : {"operand {d} left out", "operand {a} left out", "operand {c} left out", "operand {e} left out",
                        "last operand 0 left out", "register in place of the immediate 0", "immediate in place of {e}",
                        "{e} and 0 swapped"})
    EXPECT_TRUE(details.count(d)) << d;
}

// Every documented form is in one class of each part; a class's head asks the part's questions for
// itself, its sampled members (drawn again: the same) a sample of those same questions.
TEST(FormClasses, EveryFormIsInAClassAndEachSampleAsksItsHeadsQuestions) {
  const AuditPlan& plan = planned_forms().plan;
  std::size_t valid = 0;
  for (auto const& g : plan.grammar) valid += g.cc.doc == DocClass::Valid;
  std::map<FormPart, std::size_t> forms;
  for (auto const& fc : plan.form_classes) {
    forms[fc.part] += fc.forms.size();
    for (auto s : fc.sampled) EXPECT_NE(std::find(fc.forms.begin() + 1, fc.forms.end(), s), fc.forms.end());
    EXPECT_LE(fc.sampled.size(), kEquivalenceForms);
  }
  for (FormPart part : {FormPart::Values, FormPart::Operands, FormPart::Registers}) EXPECT_EQ(forms[part], valid);
  std::set<std::string> head;  // "class|kind|detail"
  for (auto const& m : plan.mutations)
    for (std::size_t ci = 0; ci < plan.form_classes.size(); ++ci)
      if (m.home && !m.equivalence && plan.form_classes[ci].forms.front() == m.of)
        head.insert(std::to_string(ci) + "|" + m.m->kind + "|" + m.m->detail);
  std::size_t sampled = 0;
  for (auto const& m : plan.mutations) {
    if (!m.equivalence) continue;
    ++sampled;
    EXPECT_EQ(form_part_of(m.m->kind), plan.form_classes[*m.equivalence].part) << m.m->kind;
    EXPECT_TRUE(head.count(std::to_string(*m.equivalence) + "|" + m.m->kind + "|" + m.m->detail)) << m.m->detail;
  }
  EXPECT_GT(sampled, 100u);
  const AuditPlan again = plan_audit(planned_forms().suite, unrun_ptxas_13_0(planned_forms().suite));
  ASSERT_EQ(again.form_classes.size(), plan.form_classes.size());
  for (std::size_t ci = 0; ci < plan.form_classes.size(); ++ci)
    EXPECT_EQ(again.form_classes[ci].sampled, plan.form_classes[ci].sampled);
}

// The same verdicts everywhere confirm every class's statement; one sampled verdict that differs
// from its head's contradicts that class's statement, and only that one.
TEST(FormClasses, AClassStatementFailsWhereASampledVerdictDiffersFromItsHead) {
  const PlannedForms& p = planned_forms();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = false, .message = "x", .error = ""});
  auto equivalence = [&](const Audit& a) {
    std::map<std::string, Verdict> out;
    for (auto const& s : a.statements)
      if (s.kind == "equivalence") out[s.id] = s.verdict;
    return out;
  };
  auto all = equivalence(judge_audit(p.suite, p.plan, v));
  ASSERT_GT(all.size(), 50u);
  for (auto const& [id, verdict] : all) EXPECT_EQ(verdict, Verdict::Confirmed) << id;
  const MutationSubject* sample = nullptr;
  for (auto const& m : p.plan.mutations)
    if (m.equivalence && p.plan.grammar[m.of].cc.combo.block->id == "wmma.load.a.f16" &&
        p.plan.form_classes[*m.equivalence].part == FormPart::Operands)
      sample = sample ? sample : &m;
  ASSERT_NE(sample, nullptr);
  v[sample->on.probe].accepted = true;
  std::size_t contradicted = 0;
  for (auto const& [id, verdict] : equivalence(judge_audit(p.suite, p.plan, v)))
    if (verdict == Verdict::Contradicted) {
      ++contradicted;
      EXPECT_EQ(id.rfind("wmma.load.a.f16/equivalence/operands/", 0), 0u) << id;
    }
  EXPECT_EQ(contradicted, 1u);
}

// Forms named at their extent: the mnemonics collapsed qualifier by qualifier, exactly (a range is
// the product of its values, never more), those of another length apart.
TEST(FormClasses, FormsCollapseIntoRangesQualifierByQualifier) {
  EXPECT_EQ(form_ranges({"ld.row.x {r};", "ld.col.x {r};", "ld.row.y {r};", "ld.col.y {r};"}),
            std::vector<std::string>{"ld.{col,row}.{x,y}"});
  EXPECT_EQ(form_ranges({"ld.row.x", "ld.col.y"}), (std::vector<std::string>{"ld.col.y", "ld.row.x"}));
  // In the forms' order (the first form of each range's): "ld.col.x.t" < "ld.row.x".
  EXPECT_EQ(form_ranges({"ld.row.x", "ld.row.x.t", "ld.col.x.t"}), (std::vector<std::string>{"ld.{col,row}.x.t", "ld.row.x"}));
}

// The coverage per block and kind: of how many forms, the heads asked in full, the others by their
// class's checked equivalence with the seed; in the JSON (read back strictly), Markdown and page.
// A finding names its forms in ranges, how many questions could have given it, and the targets
// asked where it does not hold.
TEST(FormClasses, TheReportCountsPerBlockAndKindAndGivesEachFindingsExtent) {
  const PlannedForms& p = planned_forms();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = false, .message = "x", .error = ""});
  const MutationSubject* first = nullptr;  // ldmatrix.shape's first operand form, asked on every target too
  for (auto const& m : p.plan.mutations)
    if (!m.home && m.m->kind == "operand-form" && p.plan.grammar[m.of].cc.combo.block->id == "ldmatrix.shape")
      first = first ? first : &m;
  ASSERT_NE(first, nullptr);
  std::size_t operand_forms = 0;
  for (auto const& m : p.plan.mutations)
    if (m.home && m.m->kind == "operand-form" && p.plan.grammar[m.of].cc.combo.block->id == "ldmatrix.shape") {
      ++operand_forms;
      if (m.m->detail == first->m->detail && m.instruction == first->instruction) v[m.on.probe].accepted = true;
    }
  Audit a = judge_audit(p.suite, p.plan, v);
  auto f = std::find_if(a.findings.begin(), a.findings.end(), [](auto const& x) {
    return x.id == "toolkit-accepts-undocumented/negative-space/ldmatrix.shape/operand-form";
  });
  ASSERT_NE(f, a.findings.end());
  EXPECT_EQ(f->asked, operand_forms);
  EXPECT_EQ(f->targets.size(), 1u);
  EXPECT_GT(f->not_on.size(), 5u);  // every other target its copy was asked on, rejected there
  EXPECT_EQ(f->form_ranges, std::vector<std::string>{first->instruction.substr(0, first->instruction.find(' '))});
  auto row = std::find_if(a.block_coverage.begin(), a.block_coverage.end(), [](auto const& c) {
    return c.block == "wmma.load.a.f16" && c.kind == QuestionKind::OperandForms;
  });
  ASSERT_NE(row, a.block_coverage.end());
  std::size_t forms = 0;
  for (auto const& g : p.plan.grammar) forms += g.cc.doc == DocClass::Valid && g.cc.combo.block->id == "wmma.load.a.f16";
  EXPECT_EQ(row->forms, forms);
  EXPECT_GE(row->asked, 2u);  // the heads: without the stride and with it
  EXPECT_GT(row->sampled, 0u);
  EXPECT_EQ(row->asked + row->by_class, forms);
  EXPECT_NE(row->how.find("seed 43"), std::string::npos) << row->how;
  AuditRun run{.host = "host", .date = "2026-11-28T00:00:00Z", .suite_version = "0.1.0", .suite_commit = "abc"};
  const std::string json = audit_json(a, p.plan, v, run);
  EXPECT_EQ(nlohmann::json::parse(json)["schema_version"], 6);
  const AuditSummary read = parse_audit_report(json, "audit.json");
  ASSERT_EQ(read.block_coverage.size(), a.block_coverage.size());
  auto rf = std::find_if(read.findings.begin(), read.findings.end(), [&](auto const& x) { return x.id == f->id; });
  ASSERT_NE(rf, read.findings.end());
  EXPECT_EQ(rf->not_on, f->not_on);
  EXPECT_EQ(rf->asked, f->asked);
  EXPECT_NE(audit_markdown(a, run).find("### Coverage, by syntax block and kind of question"), std::string::npos);
  const std::string page = audit_html(read);
  EXPECT_NE(page.find("Coverage, by syntax block and kind of question"), std::string::npos);
  EXPECT_NE(page.find("Does not hold on"), std::string::npos);
}

// The kinds of question the audit asks beyond the documented forms (issue 28), each with the verdict
// the manual's text gives it: every element type on every shape, operand forms, values and state
// spaces no syntax spells, every register count from none to twice the documented one, address
// findings citing the instruction's own section, the negative space compared across targets, and the
// coverage per kind of question in the report. No ptxas: verdicts are made up where one is needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "judge/audit.hpp"
#include "judge/target_agreement.hpp"
#include "judge/type_shape_product.hpp"
#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

struct Planned {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));

  // The home questions around the representative of `block`, by detail.
  std::map<std::string, const MutationSubject*> of_block(const std::string& block) const {
    std::map<std::string, const MutationSubject*> out;
    for (auto const& m : plan.mutations)
      if (m.home && plan.grammar[m.of].cc.combo.block->id == block) out.emplace(m.m->kind + ": " + m.m->detail, &m);
    return out;
  }
};

const Planned& planned() {
  static const Planned p;
  return p;
}

}  // namespace

// wmma.load's .f64 syntax gives .m8n8k4 only with .f64 (PTX ISA 9.0, 9.7.14.4.3): .f16 on .m8n8k4 is
// asked as a type x shape question, undocumented; nothing the grammar asks is asked again.
TEST(QuestionKinds, EveryElementTypeOnEveryShapeAndMatrixIsAskedOnceUndocumented) {
  const Planned& p = planned();
  std::set<std::string> grammar;
  for (auto const& g : p.plan.grammar) grammar.insert(g.cc.combo.text);
  bool f16_on_m8n8k4 = false, mma_a_as_e2m1_on_m8n8k4 = false;
  for (auto const& m : p.plan.mutations) {
    if (m.m->kind != "type-shape") continue;
    EXPECT_EQ(m.m->expected, DocClass::Undocumented) << m.m->text;
    EXPECT_FALSE(grammar.count(m.m->text)) << "asked by the grammar already: " << m.m->text;
    f16_on_m8n8k4 = f16_on_m8n8k4 || m.m->text == "wmma.load.a.sync.aligned.row.m8n8k4.f16 {regs}, [{addr}];";
    mma_a_as_e2m1_on_m8n8k4 = mma_a_as_e2m1_on_m8n8k4 || (m.m->text.rfind("mma.sync.aligned.m8n8k4.", 0) == 0 &&
                                                          m.m->detail.find("{a} as .e2m1") != std::string::npos);
  }
  EXPECT_TRUE(f16_on_m8n8k4);
  EXPECT_TRUE(mma_a_as_e2m1_on_m8n8k4);  // each matrix's type: mma's A too
}

// ldmatrix's syntax writes "r, [p]" (9.7.14.5.15): the operands swapped, r without its braces and
// p without its brackets are forms no document gives.
TEST(QuestionKinds, OperandFormsOfLdmatrixAreAskedUndocumented) {
  auto q = planned().of_block("ldmatrix.shape");
  for (const char* d : {"operand-form: {regs} and [{addr}] swapped", "operand-form: {regs} without braces",
                        "operand-form: immediate in place of [{addr}]", "operand-form: one operand too many",
                        "operand-form: register in place of the address's immediate offset"}) {
    ASSERT_TRUE(q.count(d)) << d;
    EXPECT_EQ(q.at(d)->m->expected, DocClass::Undocumented) << d;
  }
  EXPECT_EQ(q.at("operand-form: {regs} and [{addr}] swapped")->m->text, "ldmatrix.sync.aligned.m8n8.x1.b16 [{addr}], {regs};");
  EXPECT_EQ(q.at("operand-form: {regs} without braces")->instruction, "ldmatrix.sync.aligned.m8n8.x1.b16 %v0, [%ad];");
}

// ".num = {.x1, .x2, .x4}" (9.7.14.5.15): .x3 and .x8 are values no syntax spells (undocumented);
// ldmatrix loads "from .shared state space", so .global and .local are documented invalid, with
// those words and ldmatrix's own section; wmma.load "may be used only with .global and .shared
// spaces" (9.7.14.4.3): .local invalid, .global never asked as a mutation (a documented value).
TEST(QuestionKinds, ValuesNoSyntaxSpellsAndStateSpacesOnEveryForm) {
  auto ld = planned().of_block("ldmatrix.shape");
  for (const char* d : {"value: num as .x3", "value: num as .x8", "conflict: num twice: .x1.x2", "double: .sync twice"})
    ASSERT_TRUE(ld.count(d) && ld.at(d)->m->expected == DocClass::Undocumented) << d;
  for (const char* space : {".global", ".local", ".const", ".param"}) {
    const std::string d = std::string("state-space: state space ") + space;
    ASSERT_TRUE(ld.count(d)) << d;
    EXPECT_EQ(ld.at(d)->m->expected, DocClass::Invalid) << d;
    EXPECT_EQ(ld.at(d)->m->words, "from .shared state space into destination register r");
    EXPECT_NE(ld.at(d)->m->source.find("9.7.14.5.15 ldmatrix"), std::string::npos);
  }
  EXPECT_EQ(ld.at("state-space: state space .shared::cluster")->m->expected, DocClass::Undocumented);
  auto wl = planned().of_block("wmma.load.a.f16");
  ASSERT_TRUE(wl.count("state-space: state space .local"));
  EXPECT_EQ(wl.at("state-space: state space .local")->m->expected, DocClass::Invalid);
  EXPECT_NE(wl.at("state-space: state space .local")->m->source.find("9.7.14.4.3 wmma.load"), std::string::npos);
  EXPECT_FALSE(wl.count("state-space: state space .global"));
}

// mma.m16n8k16 with .f16 takes A in four .f16x2 registers (9.7.14.5.8): every count from none to
// eight but four is asked, documented invalid; none ("{}") is a syntax error, kept apart (group 2).
TEST(QuestionKinds, RegisterCountsFromNoneToTwiceTheDocumentedOne) {
  const Planned& p = planned();
  std::set<int> counts;
  for (auto const& [d, m] : p.of_block("mma.half.m16n8k16")) {
    if (m->m->kind != "registers" || d.find("{a}:") == std::string::npos) continue;
    counts.insert(m->m->shape.registers.at("a"));
    EXPECT_EQ(m->m->expected, DocClass::Invalid) << d;
    EXPECT_EQ(p.plan.probes[m->on.probe].group, m->m->shape.registers.at("a") == 0 ? 2 : 1) << d;
  }
  EXPECT_EQ(counts, (std::set<int>{0, 1, 2, 3, 5, 6, 7, 8}));
}

// Each address question cites its instruction's own section (the manual's numbering: 9.7.14.4.3
// wmma.load, 9.7.14.4.4 wmma.store, 9.7.14.5.15 ldmatrix, 9.7.14.5.16 stmatrix), never another's.
TEST(QuestionKinds, AddressFindingsCiteTheInstructionsOwnSection) {
  int checked = 0;
  for (auto const& m : planned().plan.mutations) {
    if (m.m->kind.rfind("address", 0) != 0 || m.m->expected != DocClass::Valid) continue;
    const std::string& t = m.m->text;
    const char* own = t.rfind("wmma.load", 0) == 0    ? "9.7.14.4.3 wmma.load"
                      : t.rfind("wmma.store", 0) == 0 ? "9.7.14.4.4 wmma.store"
                      : t.rfind("ldmatrix", 0) == 0   ? "9.7.14.5.15 ldmatrix"
                                                      : "9.7.14.5.16 stmatrix";
    EXPECT_NE(m.m->source.find(own), std::string::npos) << t << ": " << m.m->source;
    EXPECT_FALSE(m.m->words.empty()) << t;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

// The sample asked again on other targets: the same verdicts everywhere confirm each block's
// statement; one verdict that differs on one target contradicts that block's, and only that one.
TEST(QuestionKinds, TheNegativeSpaceIsComparedAcrossEveryTargetSupportingTheForm) {
  const Planned& p = planned();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = false, .message = "x", .error = ""});
  auto statements = target_agreement(p.plan, v);
  ASSERT_GT(statements.size(), 30u);
  for (auto const& s : statements) EXPECT_EQ(s.verdict, Verdict::Confirmed) << s.id << ": " << s.evidence;
  const MutationSubject* other = nullptr;
  for (auto const& m : p.plan.mutations)
    if (!m.home && p.plan.grammar[m.of].cc.combo.block->id == "ldmatrix.shape") other = other ? other : &m;
  ASSERT_NE(other, nullptr);
  v[other->on.probe].accepted = true;
  for (auto const& s : target_agreement(p.plan, v))
    EXPECT_EQ(s.verdict, s.id == "ldmatrix.shape/targets" ? Verdict::Contradicted : Verdict::Confirmed) << s.id;
}

// Each kind of question once, in QuestionKind's order, with an id and a title of its own; a finding
// counts under the kind of question that found it, whatever its id says: nothing reads a kind back
// from a finding's id (which the count did before, by substring).
TEST(QuestionKinds, EachKindIsTypedOnceAndAFindingCountsUnderItsOwn) {
  std::set<std::string> ids, titles;
  for (std::size_t k = 0; k < question_kinds().size(); ++k) {
    const QuestionKindInfo& q = question_kinds()[k];
    EXPECT_EQ(static_cast<std::size_t>(q.kind), k) << q.id;
    EXPECT_TRUE(ids.insert(q.id).second) << q.id;
    EXPECT_TRUE(titles.insert(q.title).second) << q.title;
    EXPECT_STRNE(q.asks, "") << q.id;
  }
  EXPECT_EQ(question_kinds().size(), 16u);  // 16 since the register types per fragment table row (issue 43)
  EXPECT_STREQ(question_title(QuestionKind::TargetAgreement), "negative space on other targets");
  std::vector<QuestionCount> counts = question_counts(planned().plan);
  Finding f{.id = "toolkit-accepts/example/x", .cls = FindingClass::ToolkitAccepts};
  f.question = QuestionKind::RegisterCounts;
  count_findings(counts, {f});
  EXPECT_EQ(counts[static_cast<std::size_t>(QuestionKind::RegisterCounts)].findings, 1u);
  EXPECT_EQ(counts[static_cast<std::size_t>(QuestionKind::ManualExamples)].findings, 0u);
}

// Every probe is one kind's, and the report gives the kinds with their questions and findings: the
// JSON (read back by the strict reader), the Markdown and the page.
TEST(QuestionKinds, TheReportCountsQuestionsAndFindingsPerKind) {
  const Planned& p = planned();
  std::vector<ProbeVerdict> v(p.plan.probes.size(), {.accepted = false, .message = "x", .error = ""});
  Audit a = judge_audit(p.suite, p.plan, v);
  std::size_t probes = 0, findings = 0;
  for (auto const& c : a.coverage) probes += c.probes, findings += c.findings;
  EXPECT_EQ(probes, p.plan.probes.size());
  EXPECT_EQ(findings, a.findings.size());
  ASSERT_EQ(a.coverage.size(), question_kinds().size());
  for (const char* kind : {"operand forms", "element type x shape", "register counts", "address modes",
                           "invalid values and state spaces", "address widths", "negative space on other targets"}) {
    auto c = std::find_if(a.coverage.begin(), a.coverage.end(),
                          [&](auto const& q) { return question_title(q.kind) == std::string(kind); });
    ASSERT_NE(c, a.coverage.end()) << kind;
    EXPECT_GT(c->questions, 0u) << kind;
  }
  AuditRun run{.host = "host", .date = "2026-11-26T00:00:00Z", .suite_version = "0.1.0", .suite_commit = "abc"};
  const std::string json = audit_json(a, p.plan, v, run);
  auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j["schema_version"], 6);
  ASSERT_EQ(j["coverage"].size(), a.coverage.size());
  EXPECT_EQ(j["coverage"][0]["kind"], "grammar forms x targets");
  EXPECT_EQ(j["coverage"][0]["question"], "grammar");
  // Each finding says its kind of question by id, and the reader reads it back typed.
  const AuditSummary read = parse_audit_report(json, "audit.json");
  EXPECT_EQ(read.coverage.size(), a.coverage.size());
  ASSERT_EQ(read.findings.size(), a.findings.size());
  ASSERT_FALSE(a.findings.empty());
  for (std::size_t k = 0; k < a.findings.size(); ++k) {
    EXPECT_EQ(j["findings"][k]["question"], info(a.findings[k].question).id) << a.findings[k].id;
    EXPECT_EQ(read.findings[k].question, a.findings[k].question) << a.findings[k].id;
  }
  EXPECT_EQ(read.coverage[10].question, QuestionKind::TypeShape);
  std::string bad = json;
  const std::size_t at = bad.find("\"question\": \"");
  bad.replace(at, bad.find('"', at + 13) - at + 1, "\"question\": \"grammer\"");
  try {
    parse_audit_report(bad, "audit.json");
    ADD_FAILURE() << "a kind of question no one knows was read";
  } catch (const JsonInputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a kind of question (grammar, address-width, "), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("audit.json:", 0), 0u) << e.what();
  }
  EXPECT_NE(audit_markdown(a, run).find("| operand forms | "), std::string::npos);
  EXPECT_NE(audit_html(parse_audit_report(json, "audit.json")).find("element type x shape"), std::string::npos);
}

// A type x shape question takes the asked type's own fragment-table row where it has one: .tf32 in A
// of .m16n8k8 is "A vector expression containing four .b32 registers, containing four .tf32 elements
// from the matrix A." (PTX ISA 9.0, 9.7.14.5.7), so that question on the .f16 form of .m16n8k8 (whose
// A is two .f16x2 registers) is asked with four .b32 registers; a type with no row on an operand says so.
TEST(QuestionKinds, ATypeShapeQuestionTakesTheAskedTypesOwnFragmentRow) {
  const Planned& p = planned();
  const MutationSubject* tf32 = nullptr;
  std::size_t no_row = 0;
  for (auto const& m : p.plan.mutations) {
    if (m.m->kind != "type-shape") continue;
    no_row += m.m->detail.find(kNoFragmentRow) != std::string::npos;
    if (m.m->text.rfind("mma.sync.aligned.m16n8k8.row.col.", 0) == 0 && m.m->text.find(".tf32.f16") != std::string::npos &&
        m.m->detail.rfind(".m16n8k8 {a} as .tf32, ", 0) == 0 && m.m->detail.find("row") != std::string::npos)
      tf32 = &m;
  }
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->m->detail, ".m16n8k8 {a} as .tf32, {a} as its row mma-fragment-m16n8k8-tf32-a states (4 .b32 registers)");
  EXPECT_EQ(tf32->m->shape.registers.at("a"), 4);
  EXPECT_EQ(tf32->m->shape.types.at("a"), ".b32");
  EXPECT_GT(no_row, 0u);
}

// Register types per fragment table row (judge/register_types.hpp, QuestionKind::FragmentRegisterTypes).
// The rows' register types are the manual's words (checked against the reference text where
// ../shared is at hand); the fake ptxas answers below follow an oracle written here from the
// manual's rules (the row's type; a bit-size type of the same size; signed and unsigned integers of
// one size alike), never from the code under test: answering as the rules say gives no finding;
// accepting a forbidden type, or refusing the row's own, gives one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "judge/audit.hpp"
#include "judge/question_coverage.hpp"
#include "judge/register_types.hpp"
#include "support/reference_text.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

namespace {

using namespace ptxcts;
namespace fs = std::filesystem;

struct TypePlan {
  Suite suite = build_suite(load_specs(test::spec_files()));
  AuditPlan plan = plan_audit(suite, test::unrun_ptxas_13_0(suite));
};

const TypePlan& type_plan() {
  static const TypePlan p;
  return p;
}

// The type a row's words name: "... two .f16x2 registers ..." -> ".f16x2".
std::string named_type(const std::string& words) {
  std::smatch m;
  return std::regex_search(words, m, std::regex(R"((\.[a-z0-9]+) registers?\b)")) ? m[1].str() : "";
}

int bits(const std::string& t) { return t == ".pred" ? 1 : t == ".f16x2" ? 32 : std::stoi(t.substr(2)); }

// The oracle: what the manual's rules allow for an operand a row gives `documented`.
bool rules_allow(const std::string& documented, const std::string& tried) {
  if (tried == documented) return true;
  if (tried == ".pred" || bits(tried) != bits(documented)) return false;
  const char d = documented[1], t = tried[1];
  if (d == 'b' || t == 'b') return true;  // "Bit-size types are compatible with any fundamental type having the same size"
  return (d == 's' || d == 'u') && (t == 's' || t == 'u');
}

struct Asked {
  const MutationSubject* ms;
  std::string documented, tried;
};

// Every question of the kind with the row's type (from the row's words) and the type tried.
std::vector<Asked> asked(const AuditPlan& plan) {
  std::vector<Asked> out;
  for (auto const& ms : plan.mutations) {
    if (ms.m->kind != kFragmentRegisterType) continue;
    const std::string operand = ms.m->detail.substr(1, ms.m->detail.find('}') - 1);
    const Instance& inst = *plan.grammar[ms.of].cc.instance;
    std::string documented;
    for (auto const& rs : plan.register_claims) {  // the row of the form's variant, selection and operand
      const RegisterClaim& rc = *rs.claim;
      bool selects = rc.variant == inst.variant().name && rc.operand == operand;
      for (auto const& [axis, vals] : rc.select)
        selects = selects && std::find(vals.begin(), vals.end(), inst.option(axis).text) != vals.end();
      if (selects) documented = named_type(rc.text);
    }
    out.push_back({&ms, documented, ms.m->shape.types.at(operand)});
  }
  return out;
}

std::vector<ProbeVerdict> by_the_rules(const AuditPlan& plan) {
  std::vector<ProbeVerdict> v(plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  for (auto const& a : asked(plan))
    if (!rules_allow(a.documented, a.tried))
      v[a.ms->on.probe] = {.accepted = false, .message = "ptxas p.ptx, line 6; error   : Arguments mismatch", .error = ""};
  return v;
}

std::vector<const Finding*> type_findings(const Audit& a) {
  std::vector<const Finding*> out;
  for (auto const& f : a.findings)
    if (f.question == QuestionKind::FragmentRegisterTypes) out.push_back(&f);
  return out;
}

TEST(RegisterTypes, EveryRowWithATypeIsAskedEveryTypeOnItsForm) {
  const TypePlan& p = type_plan();
  const std::vector<Asked> all = asked(p.plan);
  std::set<std::pair<std::size_t, std::string>> rows;
  std::size_t heads = 0, rows_typed = 0;
  for (auto const& a : all) {
    EXPECT_FALSE(a.documented.empty()) << a.ms->instruction;
    if (!a.ms->equivalence) ++heads, rows.emplace(a.ms->of, a.ms->m->detail.substr(0, 3));
  }
  for (auto const& rc : p.suite.specs.register_claims) rows_typed += !rc.register_type.empty();
  EXPECT_EQ(rows_typed, 87u);  // 69 rows of the multiply's tables (12 of them .f64), 10 of mma.sp's (9.7.14.6.2.x), 8 of the wmma tables' claims
  // 14 types each (.b16 .u16 .s16 .f16 .b32 .u32 .s32 .f32 .f16x2 .b64 .u64 .s64 .f64 .pred).
  EXPECT_EQ(heads, rows.size() * 14);
  EXPECT_GE(rows.size(), 50u);
  for (auto const& a : all) {  // the form's own register count (the syntax block's), every question
    const std::string operand = a.ms->m->detail.substr(1, a.ms->m->detail.find('}') - 1);
    EXPECT_EQ(a.ms->m->shape.registers.at(operand),
              documented_shape(p.plan.grammar[a.ms->of].cc.combo).registers.at(operand))
        << a.ms->instruction;
  }
}

TEST(RegisterTypes, AnsweringByTheRulesGivesNoFinding) {
  const TypePlan& p = type_plan();
  std::vector<ProbeVerdict> v = by_the_rules(p.plan);
  Audit a = judge_audit(p.suite, p.plan, v);
  for (auto const* f : type_findings(a)) ADD_FAILURE() << f->id << ": " << f->example;
  // Refusing every type the rules allow (not the row's), and accepting every one they leave open,
  // is no finding either: the documents decide neither.
  for (auto const& x : asked(p.plan)) {
    const bool decided = x.tried == x.documented || bits(x.tried) != bits(x.documented) || x.tried == ".pred" ||
                         ((x.documented[1] == 'f') != (x.tried[1] == 'f') && x.documented[1] != 'b' && x.tried[1] != 'b');
    if (!decided) v[x.ms->on.probe].accepted = !rules_allow(x.documented, x.tried);
  }
  a = judge_audit(p.suite, p.plan, v);
  for (auto const* f : type_findings(a)) ADD_FAILURE() << f->id << ": " << f->example;
}

TEST(RegisterTypes, AcceptingAForbiddenTypeGivesAFinding) {
  const TypePlan& p = type_plan();
  std::vector<ProbeVerdict> v = by_the_rules(p.plan);
  std::size_t flipped = 0;
  std::string row_words;
  for (auto const& x : asked(p.plan))  // .s64 for an .f64 row, .s32 for an .f32 row: another class
    if (!x.ms->equivalence && ((x.documented == ".f32" && x.tried == ".s32") || (x.documented == ".b32" && x.tried == ".b64"))) {
      v[x.ms->on.probe] = {.accepted = true, .message = "", .error = ""};
      ++flipped;
    }
  ASSERT_GT(flipped, 0u);
  const Audit a = judge_audit(p.suite, p.plan, v);
  const std::vector<const Finding*> fs = type_findings(a);
  ASSERT_FALSE(fs.empty());
  std::size_t forms = 0;
  for (auto const* f : fs) {
    EXPECT_EQ(f->cls, FindingClass::ToolkitAccepts) << f->id;
    EXPECT_EQ(f->id.rfind("toolkit-accepts/fragment-register-type/", 0), 0u) << f->id;
    EXPECT_NE(f->words.find(" registers"), std::string::npos) << f->words;  // the row's words
    EXPECT_FALSE(f->form_ranges.empty()) << f->id;
    EXPECT_FALSE(f->undocumented) << f->id;  // a finding against the documents (known where the specs list it)
    forms += f->forms;
  }
  EXPECT_EQ(forms, flipped);
}

TEST(RegisterTypes, RefusingTheRowsOwnTypeGivesAFinding) {
  const TypePlan& p = type_plan();
  std::vector<ProbeVerdict> v = by_the_rules(p.plan);
  const Asked* row = nullptr;
  for (auto const& x : asked(p.plan))
    if (!row && x.documented == ".f16x2" && x.tried == ".f16x2") {
      v[x.ms->on.probe] = {.accepted = false, .message = "ptxas p.ptx, line 6; error   : Arguments mismatch", .error = ""};
      row = &x;
    }
  const Audit a = judge_audit(p.suite, p.plan, v);
  const std::vector<const Finding*> fs = type_findings(a);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0]->cls, FindingClass::ToolkitRejects);
  EXPECT_EQ(fs[0]->id.rfind("toolkit-rejects/fragment-register-type/", 0), 0u) << fs[0]->id;
  EXPECT_NE(fs[0]->words.find(".f16x2 registers"), std::string::npos) << fs[0]->words;
  EXPECT_NE(fs[0]->observed.find("Arguments mismatch"), std::string::npos) << fs[0]->observed;
}

TEST(RegisterTypes, TheCoverageCountsTheKindPerBlockAskedByClassAndSampled) {
  const TypePlan& p = type_plan();
  std::size_t blocks = 0, sampled = 0, by_class = 0;
  for (auto const& c : block_coverage(p.plan)) {
    if (c.kind != QuestionKind::FragmentRegisterTypes) continue;
    ++blocks;
    EXPECT_GT(c.asked, 0u) << c.block;
    sampled += c.sampled;
    by_class += c.by_class;
  }
  EXPECT_GE(blocks, 10u);
  EXPECT_GT(by_class, sampled);
  EXPECT_GT(sampled, 0u);
  const auto counts = question_counts(p.plan);
  EXPECT_EQ(counts[static_cast<std::size_t>(QuestionKind::FragmentRegisterTypes)].probes, asked(p.plan).size());
}

// The rows' register types are the manual's words: a sample of rows, each found in the reference
// text of its fragment section with the type in its words.
TEST(RegisterTypes, TheRowsTypesAreTheManualsWords) {
  const fs::path shared = fs::path(PTXCTS_SOURCE_DIR).parent_path() / "shared/reference/ptx-isa/mma-fragments";
  if (!fs::is_directory(shared)) GTEST_SKIP() << shared << " is not here (a fresh clone)";
  std::string text;
  for (auto const& f : fs::directory_iterator(shared)) text += test::norm(test::read_all(f.path())) + "\n";
  const std::map<std::string, std::string> sample = {
      {"mma-fragment-m8n8k4-f16-a", ".f16x2"}, {"mma-fragment-m8n8k4-f16-c-f32", ".f32"},
      {"mma-fragment-m8n8k16-a", ".b32"}};
  std::size_t checked = 0;
  for (auto const& rc : test::loaded_specs().register_claims) {
    if (rc.register_type.empty() || rc.family != "mma") continue;
    const std::size_t at = text.find(test::norm(rc.text));
    ASSERT_NE(at, std::string::npos) << rc.id << ": \"" << rc.text << "\" not in the reference text";
    EXPECT_EQ(rc.register_type, named_type(text.substr(at, test::norm(rc.text).size()))) << rc.id;
    if (auto s = sample.find(rc.id); s != sample.end()) {
      EXPECT_EQ(rc.register_type, s->second) << rc.id;
      ++checked;
    }
  }
  EXPECT_EQ(checked, sample.size());
}

}  // namespace

// A toolkit of PTX ISA 8.4 (CUDA 12.4) does not know mma.sp::ordered_metadata (8.5): a row's class
// holds only the forms it knows, so no such form is asked (before: 12 of them asked on 11.8, 12.0
// and 12.4, each refused, "Parsing error near ':'", and 4 false findings of toolkit-rejects).
TEST(RegisterTypes, AFormNewerThanTheToolkitIsNotAsked) {
  const TypePlan& p = type_plan();
  const AuditPlan plan = plan_audit(p.suite, test::unrun_ptxas(p.suite, "12.4.131", "12.4", {8, 4}));
  ASSERT_EQ(plan.toolkit_ptx, (PtxVersion{8, 4}));
  std::size_t sparse = 0;
  for (auto const& a : asked(plan)) {
    const Instance& inst = *plan.grammar[a.ms->of].cc.instance;
    EXPECT_FALSE(plan.toolkit_ptx < inst.min_ptx()) << a.ms->instruction;
    sparse += a.ms->instruction.rfind("mma.sp.", 0) == 0;
  }
  EXPECT_GT(sparse, 0u);  // mma.sp's own forms (PTX ISA 7.1) are still asked
}

// The syntax blocks of mma against its fragment sections (issue 28, item 7: two parts of the
// documents that disagree are a finding of their own): the double precision syntax spells
// ".m8n84" (PTX ISA 9.0, 9.7.14.5.14), a shape no fragment section names, and 9.7.14.5.2 is
// "Matrix Fragments for mma.m8n8k4 with .f64 floating point type", which no block spells. No
// ptxas: the verdicts are made up where the audit needs them.
#include <gtest/gtest.h>

#include <algorithm>

#include "judge/audit.hpp"
#include "judge/fragment_sections.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

GrammarBlock& grammar_block(SpecSet& s, const std::string& id) {
  auto b = std::find_if(s.grammar.begin(), s.grammar.end(), [&](auto const& g) { return g.id == id; });
  if (b == s.grammar.end()) throw std::runtime_error("no block " + id);
  return *b;
}

}  // namespace

TEST(FragmentSections, EveryDenseMmaShapeHasItsSectionFromTheSpecsSources) {
  std::vector<std::string> dense;
  for (auto const& s : fragment_sections(loaded_specs()))
    if (s.instruction == "mma") dense.push_back(s.number + " " + s.shape);
  EXPECT_EQ(dense.size(), 13u);  // 9.7.14.5.1 to 9.7.14.5.13
  EXPECT_NE(std::find(dense.begin(), dense.end(), "9.7.14.5.2 .m8n8k4"), dense.end());
}

TEST(FragmentSections, TheDoublePrecisionSyntaxAndSection9_7_14_5_2Disagree) {
  const std::vector<FragmentDisagreement> d = fragment_disagreements(loaded_specs());
  ASSERT_EQ(d.size(), 1u);
  ASSERT_NE(d[0].block, nullptr);
  EXPECT_EQ(d[0].block->id, "mma.f64");
  EXPECT_EQ(d[0].unnamed_shapes, std::vector<std::string>{".m8n84"});
  ASSERT_EQ(d[0].unspelled.size(), 1u);
  EXPECT_EQ(d[0].unspelled[0].number, "9.7.14.5.2");
  EXPECT_EQ(d[0].unspelled[0].title, "Matrix Fragments for mma.m8n8k4 with .f64 floating point type");
  EXPECT_EQ(d[0].unspelled[0].types, std::vector<std::string>{".f64"});
}

// Spelled as the section names it, the two parts agree: nothing else of mma disagrees.
TEST(FragmentSections, WithTheShapeTheSectionNamesNoPartDisagrees) {
  SpecSet s = loaded_specs();
  for (auto& p : grammar_block(s, "mma.f64").positions)
    for (auto& v : p.values)
      if (v.text == ".m8n84") v.text = ".m8n8k4";
  EXPECT_TRUE(fragment_disagreements(s).empty());
}

// A section whose shape no block spells, with no block spelling a type its title names (these
// titles name none): a finding of its own, citing the section alone.
TEST(FragmentSections, ASectionNoBlockSpellsIsADisagreementOfItsOwn) {
  SpecSet s = loaded_specs();
  for (auto& p : grammar_block(s, "mma.f64").positions)
    for (auto& v : p.values)
      if (v.text == ".m8n84") v.text = ".m8n8k4";
  s.grammar.erase(std::find_if(s.grammar.begin(), s.grammar.end(), [](auto const& g) { return g.id == "mma.b1"; }));
  std::vector<std::string> alone;
  for (auto const& d : fragment_disagreements(s)) {
    EXPECT_EQ(d.block, nullptr);
    for (auto const& u : d.unspelled) alone.push_back(u.number);
  }
  EXPECT_EQ(alone, (std::vector<std::string>{"9.7.14.5.5", "9.7.14.5.12", "9.7.14.5.13"}));
}

// In the audit: one documents-disagree finding citing the block's and the section's words, with
// ptxas's verdicts on the block's .m8n84 form and on the .m8n8k4 .f64 example; the specs expect it.
TEST(FragmentSections, TheAuditFindsItCitingBothPartsInTheirWords) {
  const Suite suite = build_suite(load_specs(spec_files()));
  const AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
  const std::vector<ProbeVerdict> v(plan.probes.size(), {.accepted = false, .message = "x", .error = ""});
  const Audit a = judge_audit(suite, plan, v);
  auto f = std::find_if(a.findings.begin(), a.findings.end(),
                        [](auto const& x) { return x.id == "documents-disagree/fragment-sections/mma.f64"; });
  ASSERT_NE(f, a.findings.end());
  EXPECT_EQ(f->cls, FindingClass::DocumentsDisagree);
  EXPECT_NE(f->words.find(".shape   = {.m8n84, .m16n8k4, .m16n8k8, .m16n8k16};"), std::string::npos) << f->words;
  EXPECT_NE(f->words.find("\"Matrix Fragments for mma.m8n8k4 with .f64 floating point type\""), std::string::npos)
      << f->words;
  EXPECT_NE(f->observed.find("mma.sync.aligned.m8n84.row.col.f64.f64.f64.f64"), std::string::npos) << f->observed;
  EXPECT_NE(f->observed.find("example mma-manual-f64-1"), std::string::npos) << f->observed;
  ASSERT_NE(f->known, nullptr);
  EXPECT_FALSE(f->fails());
}

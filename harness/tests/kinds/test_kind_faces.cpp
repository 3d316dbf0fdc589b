// The describing face's figure and audit sides (kinds/kind_figures.hpp, kinds/kind_statements.hpp):
// each kind gives its figures and the statements only it can check, as data that report/ and judge/
// draw and judge without naming a kind. Expected values from the manual (PTX ISA 9.0): ldmatrix .x4
// loads four 8x8 matrices, a 16-bit element pair per register (9.7.14.5.15); mma.m16n8k16 .f16's
// A is 16x16, B 16x8, C/D 16x8 (9.7.14.5.8); the register layout of wmma's fragments is
// unspecified (9.7.14.4.1, as specs/wmma.yaml quotes it: "the distribution of fragments loaded by the
// threads in a warp is unspecified"), every other kind's is given; the
// specs read two printed mma formulas otherwise than printed (specs/mma.yaml's two `reading:`s).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "judge/audit.hpp"
#include "kinds/kinds.hpp"
#include "report/layout_svg.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

// Two kinds give figures, each under its own heading, in the kinds' order; a form is under its own
// kind's figures only, with the grid the manual gives it.
TEST(KindFaces, FiguresComeKindByKindEachFormWithItsOwnKind) {
  const std::vector<KindFigures> kinds = kind_figures(loaded_specs());
  ASSERT_EQ(kinds.size(), 2u);
  EXPECT_EQ(kinds[0].anchor, "spec-layout-");
  EXPECT_EQ(kinds[1].anchor, "mma-layout-");
  for (auto const& [form, refs] : kinds[0].figures_of) {
    EXPECT_TRUE(starts(form, "ldmatrix") || starts(form, "stmatrix") || starts(form, "movmatrix")) << form;
    ASSERT_EQ(refs.size(), 1u) << form;
    EXPECT_EQ(kinds[0].figures[refs[0].figure].letter, 0) << form;  // boxes name registers
  }
  for (auto const& [form, refs] : kinds[1].figures_of) EXPECT_TRUE(starts(form, "mma.sync")) << form;

  const auto x4 = kinds[0].figures_of.find("ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  ASSERT_NE(x4, kinds[0].figures_of.end());
  const Layout& L = kinds[0].figures[x4->second.front().figure].layout;
  EXPECT_EQ(L.matrices, 4);
  EXPECT_EQ(L.registers, 4);
  EXPECT_EQ(L.elements_per_register, 2);

  const auto f16 = kinds[1].figures_of.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ASSERT_NE(f16, kinds[1].figures_of.end());
  std::vector<std::string> seen;
  for (auto const& ref : f16->second) {
    const FragmentFigure& f = kinds[1].figures[ref.figure];
    seen.push_back(fmt::format("{} {}x{} {}", ref.label, f.layout.rows, f.layout.cols, f.letter));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"A 16x16 a", "B 16x8 b", "C/D 16x8 c"}));
}

// The reports' headings over observed layouts name the kinds whose layouts the documents leave
// unspecified: wmma's alone.
TEST(KindFaces, OnlyWmmaObservesLayouts) { EXPECT_EQ(layout_observers(), "wmma"); }

// The audit asks every kind's statements once, through one judge: the mma kind's printed formulas
// and sparse sections each a statement, the two formulas the specs read otherwise each a document
// error of the fragment formulas.
TEST(KindFaces, TheAuditJudgesEachKindsStatementsOnce) {
  const Suite suite = build_suite(load_specs(spec_files()));
  const AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
  const std::vector<ProbeVerdict> v(plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  const Audit a = judge_audit(suite, plan, v);
  const std::vector<KindStatement> asked = kind_statements(suite.specs);
  std::size_t judged = 0;
  for (auto const& k : asked)
    judged += std::count_if(a.statements.begin(), a.statements.end(),
                            [&](auto const& s) { return s.id == k.id && s.kind == k.kind; });
  EXPECT_EQ(judged, asked.size());
  std::vector<std::string> errors;
  for (auto const& f : a.findings)
    if (f.question == QuestionKind::FragmentFormulas) errors.push_back(f.id);
  EXPECT_EQ(errors, (std::vector<std::string>{"document-error/formula/mma.m16n8k16.f64/a.col",
                                              "document-error/formula/mma.m16n8k256.b1/a.col"}));
}

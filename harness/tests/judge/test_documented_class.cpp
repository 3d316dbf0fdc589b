// Documented means the documents say so: a combination a syntax block of the manual spells that no
// rule of the manual forbids is documented, whether or not a variant of the specs spells it; a rule
// of a study note is that note's claim (its own citation), never the manual's, and where it forbids
// what the manual spells the documents disagree. Expected values from the manual's stmatrix section
// (9.7.14.5.16): ".shape = {.m8n8, .m16n8}; ... .type = {.b16, .b8};" and its one rule on types,
// ".m16n8 shape is valid only for .b8 type."
#include <gtest/gtest.h>

#include "judge/audit.hpp"
#include "spec/grammar.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const ClassifiedCombination& combination(const std::vector<ClassifiedCombination>& all, const std::string& text) {
  for (auto const& cc : all)
    if (cc.combo.text == text) return cc;
  throw std::runtime_error("no combination " + text);
}

}  // namespace

TEST(DocumentedClass, WhatTheManualSpellsAndNoRuleOfItForbidsIsDocumentedWhateverANoteSays) {
  Suite suite = build_suite(load_specs(spec_files()));
  const auto all = classify_grammar(suite.specs, instances_by_text(suite.instances));
  // .m8n8 with .b8: spelled by the manual's product, forbidden by no rule of the manual.
  const auto& m8n8_b8 = combination(all, "stmatrix.sync.aligned.m8n8.x1.shared.b8 [{addr}], {regs};");
  EXPECT_EQ(m8n8_b8.doc, DocClass::Unencoded);
  ASSERT_EQ(m8n8_b8.forbidden_by.size(), 1u);  // the study notes' rule, listed as theirs
  EXPECT_EQ(m8n8_b8.forbidden_by[0]->cite.document, "xuwh-2025-ldmatrix-notes");
  // .m16n8 with .b16: the manual's own rule forbids it.
  const auto& m16n8_b16 = combination(all, "stmatrix.sync.aligned.m16n8.x1.trans.shared.b16 [{addr}], {regs};");
  EXPECT_EQ(m16n8_b16.doc, DocClass::Invalid);
  EXPECT_EQ(m16n8_b16.forbidden_by[0]->cite.document, "manual");
}

TEST(DocumentedClass, ANoteForbiddingWhatTheManualSpellsIsADisagreementAndItsRuleTheNotesClaim) {
  Suite suite = build_suite(load_specs(spec_files()));
  const Toolchain tc = unrun_ptxas_13_0(suite);
  const AuditPlan plan = plan_audit(suite, tc);
  // ptxas as 13.0 answers: every stmatrix .m8n8 .b8 refused ("Incorrect instruction type").
  std::vector<ProbeVerdict> v(plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  for (auto const& g : plan.grammar)
    if (g.cc.combo.block->id == "stmatrix.shape" && g.cc.doc == DocClass::Unencoded)
      for (auto const& on : g.on)
        v[on.probe] = {.accepted = false,
                       .message = "ptxas probe.ptx, line 3; error   : Incorrect instruction type specified for "
                                  "stmatrix with shape '.m8n8'",
                       .error = ""};
  const Audit a = judge_audit(suite, plan, v);
  auto find = [&](const std::string& id) -> const Finding* {
    for (auto const& f : a.findings)
      if (f.id == id) return &f;
    return nullptr;
  };
  // The manual spells it, ptxas refuses it: a disagreement between the toolkit and the manual.
  const Finding* rejects = find("toolkit-rejects/syntax/stmatrix.shape");
  ASSERT_NE(rejects, nullptr);
  EXPECT_EQ(rejects->source, "PTX ISA 9.0, 9.7.14.5.16 stmatrix, Syntax");
  EXPECT_EQ(rejects->forms, 18u);  // 3 .num x 2 .trans x 3 .ss
  EXPECT_NE(rejects->known, nullptr);
  // The notes forbid it: the documents disagree, and the notes' rule is confirmed under their own citation.
  EXPECT_NE(find("documents-disagree/syntax/stmatrix.shape/stmatrix-notes-m8n8-16-bit"), nullptr);
  EXPECT_EQ(find("toolkit-accepts/rule/stmatrix-notes-m8n8-16-bit"), nullptr);
  for (auto const& s : a.statements)
    if (s.id == "stmatrix-notes-m8n8-16-bit") {
      EXPECT_EQ(s.verdict, Verdict::Confirmed);
      EXPECT_EQ(s.source.find("PTX ISA"), std::string::npos) << "the notes' rule cites the notes: " << s.source;
    }
  // And where ptxas takes it, the note errs: a document error of the note, not a toolkit finding.
  std::vector<ProbeVerdict> taken(plan.probes.size(), {.accepted = true, .message = "", .error = ""});
  const Audit b = judge_audit(suite, plan, taken);
  bool note_errs = false;
  for (auto const& f : b.findings) {
    EXPECT_NE(f.id, "toolkit-accepts/rule/stmatrix-notes-m8n8-16-bit");
    note_errs = note_errs || (f.id == "document-error/rule/stmatrix-notes-m8n8-16-bit" &&
                              f.cls == FindingClass::DocumentError);
  }
  EXPECT_TRUE(note_errs);
}

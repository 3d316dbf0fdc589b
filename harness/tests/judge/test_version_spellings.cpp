// Probes spelled as the documents spell them at each PTX ISA version (specs' version_spellings):
// the manual says of wmma.load, wmma.store and wmma.mma "Modifier .aligned is required from PTX ISA
// version 6.3 onwards, and considered implicit in PTX ISA versions less than 6.3.", so a question at
// PTX ISA 6.0 or 6.1 asks the form without .aligned, and the form with it is asked apart as one no
// document gives there: ptxas refusing it ("Feature '.aligned modifier for wmma' requires PTX ISA
// .version 6.3") is no finding against the documents. And examples are judged as examples: on the
// targets (and at the version) their instruction is documented for.
#include <gtest/gtest.h>

#include "judge/audit.hpp"
#include "judge/version_spellings.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const char* kAlignedWords =
    "Modifier .aligned is required from PTX ISA version 6.3 onwards, and considered implicit in PTX ISA versions "
    "less than 6.3.";

// The instruction line of a probe body (its last line).
std::string last_line(const std::string& body) {
  std::string b = body;
  while (!b.empty() && b.back() == '\n') b.pop_back();
  return b.substr(b.rfind('\n') == std::string::npos ? 0 : b.rfind('\n') + 1);
}

struct SpelledPlan {
  Suite suite = build_suite(load_specs(spec_files()));
  AuditPlan plan = plan_audit(suite, unrun_ptxas_13_0(suite));
};

const SpelledPlan& spelled_plan() {
  static const SpelledPlan p;
  return p;
}

ProbeVerdict ok_verdict() { return {.accepted = true, .message = "", .error = ""}; }
ProbeVerdict no_verdict(const std::string& why) { return {.accepted = false, .message = why, .error = ""}; }

// ptxas as it answers: the documented forms accepted where their targets are, the version probes
// accepted at the documented version and refused below it naming the version, every other probe
// (the negative space, the other spelling below 6.3 among them) refused.
std::vector<ProbeVerdict> as_ptxas_says(const SpelledPlan& p) {
  std::vector<ProbeVerdict> v(p.plan.probes.size(), no_verdict("ptxas probe.ptx, line 3; error   : not this"));
  for (auto const& g : p.plan.grammar)
    for (auto const& on : g.on)
      if (g.cc.doc == DocClass::Valid &&
          supports(p.suite.specs.targets, *g.cc.instance, *p.suite.specs.targets.find(on.target)))
        v[on.probe] = ok_verdict();
  for (auto const& m : p.plan.mutations)
    if (m.m->expected == DocClass::Valid) v[m.on.probe] = ok_verdict();
  for (auto const& e : p.plan.examples)
    for (auto const& on : e.on) v[on.probe] = ok_verdict();
  for (auto const& r : p.plan.register_claims)
    if (r.on) v[r.on->probe] = ok_verdict();
  for (auto const& vs : p.plan.versions) {
    if (vs.at) v[vs.at->probe] = ok_verdict();
    if (vs.below) v[vs.below->probe] = no_verdict("error   : Feature 'x' requires PTX ISA .version 9.9 or later");
  }
  for (auto const& t : p.plan.target_versions)
    if (t.at) v[t.at->probe] = ok_verdict();
  return v;
}

// The other spelling at a form's documented version (not one of the spelling's edges).
bool other_spelling(const MutationSubject& m) {
  return m.m->kind == "version-spelling" && m.m->detail.find("where the documents leave it out") != std::string::npos;
}

const ExampleSubject& example_of(const SpelledPlan& p, const std::string& id) {
  for (auto const& e : p.plan.examples)
    if (e.example->id == id) return e;
  throw std::runtime_error("no example " + id);
}

}  // namespace

TEST(VersionSpellings, TheSpecsCarryTheManualsSentenceAsData) {
  const SpecSet& specs = spelled_plan().suite.specs;
  ASSERT_EQ(specs.version_spellings.size(), 1u);
  const VersionSpelling& s = specs.version_spellings.front();
  EXPECT_EQ(s.text, kAlignedWords);
  EXPECT_EQ(s.qualifier, ".aligned");
  EXPECT_EQ(s.from, (PtxVersion{.major = 6, .minor = 3}));
  // Spelled at a version: below 6.3 without it, from 6.3 as the syntax writes it; other instructions untouched.
  const std::string body = ".reg .b32 %v<8>;\nwmma.load.a.sync.aligned.row.m16n16k16.f16 {%v0}, [%ad];\n";
  EXPECT_EQ(last_line(spelled_at(specs, body, {.major = 6, .minor = 2})),
            "wmma.load.a.sync.row.m16n16k16.f16 {%v0}, [%ad];");
  EXPECT_EQ(spelled_at(specs, body, {.major = 6, .minor = 3}), body);
  const std::string ld = "ldmatrix.sync.aligned.m8n8.x1.b16 {%v0}, [%ad];";
  EXPECT_EQ(spelled_at(specs, ld, {.major = 6, .minor = 0}), ld);
}

TEST(VersionSpellings, AVersionQuestionBelow63AsksTheFormWithoutAlignedAndTheOtherSpellingApart) {
  const SpelledPlan& p = spelled_plan();
  int below = 0, from = 0, others = 0;
  for (auto const& vs : p.plan.versions) {
    const std::string& text = p.plan.grammar[vs.of].cc.combo.text;
    if (text.rfind("wmma.", 0) != 0 || !vs.at) continue;
    const std::string at = last_line(p.plan.probes[vs.at->probe].body);
    if (vs.documented < PtxVersion{.major = 6, .minor = 3}) {
      ++below;
      EXPECT_EQ(at.find(".aligned"), std::string::npos) << at << " at PTX ISA " << vs.documented.str();
      ASSERT_TRUE(vs.below);
      EXPECT_EQ(last_line(p.plan.probes[vs.below->probe].body).find(".aligned"), std::string::npos);
    } else {
      ++from;
      EXPECT_NE(at.find(".sync.aligned"), std::string::npos) << at << " at PTX ISA " << vs.documented.str();
    }
  }
  for (auto const& m : p.plan.mutations)
    if (other_spelling(m)) {
      ++others;
      const Probe& probe = p.plan.probes[m.on.probe];
      EXPECT_LT(probe.ptx, (PtxVersion{.major = 6, .minor = 3}));
      EXPECT_NE(last_line(probe.body).find(".sync.aligned"), std::string::npos);
      EXPECT_EQ(m.m->expected, DocClass::Undocumented) << "the documents neither give nor forbid it below 6.3";
      EXPECT_EQ(m.m->words, kAlignedWords);
    }
  EXPECT_GT(below, 100);  // the f16 wmma forms: 6.0, and 6.1 for .m8n32k16/.m32n8k16
  EXPECT_GT(from, 100);
  EXPECT_EQ(others, below);
}

TEST(VersionSpellings, PtxasRefusingAlignedBelow63IsNoFindingAndTheRequirementHolds) {
  const SpelledPlan& p = spelled_plan();
  std::vector<ProbeVerdict> v = as_ptxas_says(p);
  for (auto const& m : p.plan.mutations)  // what ptxas 13.0 says of the other spelling
    if (m.m->kind == "version-spelling" && m.m->expected == DocClass::Undocumented)
      v[m.on.probe] = no_verdict(
          "ptxas probe.ptx, line 3; error   : Feature '.aligned modifier for wmma' requires PTX ISA .version 6.3 or "
          "later");
  Audit a = judge_audit(p.suite, p.plan, v);
  int judged = 0;
  for (auto const& r : a.requirements)
    if (r.variant == "wmma.load.a.f16_int" && (r.requirement == "ptx 6.0" || r.requirement == "ptx 6.1")) {
      ++judged;
      EXPECT_EQ(r.verdict, Verdict::Confirmed) << r.requirement << ": " << r.evidence;
    }
  EXPECT_EQ(judged, 2);
  for (auto const& f : a.findings) {
    EXPECT_EQ(f.id.find("version-spelling"), std::string::npos) << f.id;
    EXPECT_EQ(f.id.find("/requirement/wmma"), std::string::npos) << f.id;
  }
  // Accepted, the other spelling is a form no document gives that ptxas takes: shown, never failing.
  for (auto const& m : p.plan.mutations)
    if (m.m->kind == "version-spelling" && m.m->expected == DocClass::Undocumented) v[m.on.probe] = ok_verdict();
  Audit b = judge_audit(p.suite, p.plan, v);
  int seen = 0;
  for (auto const& f : b.findings)
    if (f.id.find("/version-spelling") != std::string::npos) {
      ++seen;
      EXPECT_TRUE(f.undocumented) << f.id;
      EXPECT_FALSE(f.fails()) << f.id;
    }
  EXPECT_GT(seen, 0);
  EXPECT_EQ(b.contradictions(), a.contradictions());
}

TEST(Examples, AreAskedOnlyWhereTheirInstructionIsDocumented) {
  const SpelledPlan& p = spelled_plan();
  const TargetCatalog& cat = p.suite.specs.targets;
  // No syntax block spells it as written (.m16n16k16 before .row): its instruction is the .bf16
  // load the block wmma.load.a.bf16 spells, documented for sm_80 and later only.
  const ExampleSubject& bf16 = example_of(p, "wmma-load-manual-5");
  EXPECT_NE(bf16.doc, DocClass::Valid);
  ASSERT_NE(bf16.instance, nullptr);
  EXPECT_EQ(bf16.instance->variant().name, "wmma.load.a.bf16");
  ASSERT_FALSE(bf16.on.empty());
  for (auto const& on : bf16.on) EXPECT_TRUE(supports(cat, *bf16.instance, *cat.find(on.target))) << on.target;
  ASSERT_EQ(bf16.blocks.size(), 1u);
  EXPECT_EQ(bf16.blocks.front()->id, "wmma.load.a.bf16");
  // The f64 mma examples: .m16n8k4 .f64 needs sm_90.
  for (auto const& on : example_of(p, "mma-manual-f64-2").on) EXPECT_NE(on.target, "sm_89");
  // stmatrix as the blog writes it (.x1 before .m8n8): sm_90 and later.
  for (auto const& on : example_of(p, "stmatrix-blog-x1").on) EXPECT_NE(on.target, "sm_80");
  // wmma.store's example without .aligned: at PTX ISA 6.2, the newest version that spells it so.
  const ExampleSubject& old = example_of(p, "wmma-store-manual-1");
  ASSERT_NE(old.spelling, nullptr);
  EXPECT_EQ(old.version, (PtxVersion{.major = 6, .minor = 2}));
  ASSERT_EQ(old.on.size(), 1u);
  EXPECT_EQ(p.plan.probes[old.on.front().probe].ptx, old.version);
}

TEST(Examples, AnExampleTakenWhereItsInstructionIsIsConfirmedAndItsSpellingApartADisagreement) {
  const SpelledPlan& p = spelled_plan();
  Audit a = judge_audit(p.suite, p.plan, as_ptxas_says(p));
  auto statement = [&](const std::string& id) {
    for (auto const& s : a.statements)
      if (s.kind == "example" && s.id == id) return s;
    throw std::runtime_error("no statement " + id);
  };
  for (const char* id : {"wmma-load-manual-5", "wmma-store-manual-1", "ldmatrix-notes-x1", "mma-manual-f64-2"})
    EXPECT_EQ(statement(id).verdict, Verdict::Confirmed) << id << ": " << statement(id).evidence;
  const Finding* d = nullptr;
  for (auto const& f : a.findings)
    if (f.id == "documents-disagree/example/wmma-load-manual-5") d = &f;
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->cls, FindingClass::DocumentsDisagree);
  EXPECT_FALSE(d->fails());
  EXPECT_NE(d->subject.find("wmma.load.a.bf16"), std::string::npos) << d->subject;
  EXPECT_NE(d->words.find("wmma.load.a.sync.aligned.layout.shape{.ss}.atype r, [p] {, stride};"), std::string::npos)
      << d->words;
  for (auto const& f : a.findings) EXPECT_NE(f.id, "document-error/example/wmma-load-manual-5");
}

// Each spelling at its range's edges and one version past each: the form documented from 6.0 is
// spelled without .aligned from 6.0 to 6.2 and with it from 6.3 ("required from PTX ISA version 6.3
// onwards, and considered implicit in PTX ISA versions less than 6.3"). The minimum-version questions
// ask 6.0 (and 5.0 below it), the other spelling at 6.0, the grammar the toolkit's 9.0; the edges
// add 6.2 without it (valid), 6.3 without it (invalid: required), 6.3 with it (valid), 6.2 with it
// (no document gives it). Past 9.0 the toolkit knows no version: not asked.
TEST(VersionSpellings, EachSpellingIsAskedAtItsRangesEdgesAndOneVersionPastEach) {
  const SpecSet& specs = spelled_plan().suite.specs;
  const std::string body = ".reg .b32 %v<8>;\nwmma.load.a.sync.aligned.row.m16n16k16.f16 {%v0}, [%ad];\n";
  const PtxVersion v60{.major = 6, .minor = 0}, v61{.major = 6, .minor = 1}, v62{.major = 6, .minor = 2},
      v63{.major = 6, .minor = 3}, v70{.major = 7, .minor = 0}, v90{.major = 9, .minor = 0};
  const std::vector<SpellingEdge> e = spelling_edges(specs, body, v60, v90);
  ASSERT_EQ(e.size(), 4u);
  auto has = [&](PtxVersion v, bool with, DocClass c) {
    for (auto const& x : e)
      if (x.version == v && (last_line(x.body).find(".sync.aligned") != std::string::npos) == with && x.expected == c)
        return x.rule != nullptr && x.rule->text == kAlignedWords;
    return false;
  };
  EXPECT_TRUE(has(v62, false, DocClass::Valid));
  EXPECT_TRUE(has(v63, false, DocClass::Invalid));
  EXPECT_TRUE(has(v63, true, DocClass::Valid));
  EXPECT_TRUE(has(v62, true, DocClass::Undocumented));
  EXPECT_EQ(spelling_edges(specs, body, v61, v90).size(), 4u);
  EXPECT_TRUE(spelling_edges(specs, body, v63, v90).empty());  // one spelling over its whole range
  EXPECT_TRUE(spelling_edges(specs, body, v70, v90).empty());
  EXPECT_TRUE(spelling_edges(specs, "ldmatrix.sync.aligned.m8n8.x1.b16 {%v0}, [%ad];", v60, v90).empty());
  // Planned: each wmma form documented below 6.3 gets its four, on a target that knows the version.
  const SpelledPlan& p = spelled_plan();
  std::size_t below = 0, edges = 0;
  for (auto const& vs : p.plan.versions)
    below += vs.at && vs.documented < v63 && p.plan.grammar[vs.of].cc.combo.text.rfind("wmma.", 0) == 0;
  for (auto const& m : p.plan.mutations)
    if (m.m->kind == "version-spelling" && !other_spelling(m)) {
      ++edges;
      const Probe& probe = p.plan.probes[m.on.probe];
      EXPECT_TRUE(probe.ptx == v62 || probe.ptx == v63) << m.m->detail;
      EXPECT_LE(p.suite.specs.targets.find(probe.target)->ptx, probe.ptx) << probe.target;
    }
  EXPECT_GT(below, 100u);
  EXPECT_EQ(edges, 4 * below);
}

TEST(VersionSpellings, AnEdgeTakenAsTheDocumentsSayIsNoFindingAndOmittingAlignedAt63Accepted) {
  const SpelledPlan& p = spelled_plan();
  std::vector<ProbeVerdict> v = as_ptxas_says(p);  // valid accepted, the rest refused
  const Audit a = judge_audit(p.suite, p.plan, v);
  for (auto const& f : a.findings) EXPECT_EQ(f.id.find("version-spelling"), std::string::npos) << f.id;
  for (auto const& m : p.plan.mutations)  // a toolkit that takes wmma without .aligned at 6.3
    if (m.m->kind == "version-spelling" && m.m->expected == DocClass::Invalid) v[m.on.probe] = ok_verdict();
  const Audit b = judge_audit(p.suite, p.plan, v);
  int seen = 0;
  for (auto const& f : b.findings)
    if (f.id.find("toolkit-accepts/negative-space/") == 0 && f.id.find("/version-spelling") != std::string::npos) {
      ++seen;
      EXPECT_TRUE(f.fails()) << f.id;
      EXPECT_EQ(f.words, kAlignedWords);
      EXPECT_EQ(f.question, QuestionKind::PtxVersions);
    }
  EXPECT_GT(seen, 0);
}

// The audit's judgement, given a verdict per probe (no ptxas): a toolkit that does exactly what the
// documents say confirms everything and finds nothing; each way of doing otherwise is a finding of
// its class (an undocumented target, a rule broken, an example rejected, a register count, a
// version below the minimum, a hand-listed form), a known one stays visible without failing, and
// ptxas failing gives no verdict. Then the report: Findings first.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <regex>

#include "judge/audit.hpp"
#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/audit/audit_report.hpp"
#include "support/spec_fixture.hpp"
#include "support/unrun_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

ProbeVerdict accepted() { return {.accepted = true, .message = "", .error = ""}; }
ProbeVerdict rejected(const std::string& why = "ptxas probe.ptx, line 3; error   : not this") {
  return {.accepted = false, .message = why, .error = ""};
}

// A ptxas 13.0 message of each diagnostic class, as seen when probing it.
const std::map<std::string, std::string> kSample = {
    {"wrong-target", "Feature '.m16n16' not supported on .target 'sm_90'"},
    {"ptx-too-old", "Feature 'ldmatrix' requires PTX ISA .version 6.5 or later"},
    {"missing-trans", "Modifier '.trans' require for instruction ldmatrix with shape '.m16n16'"},
    {"trans-not-allowed", "Modifier .trans not allowed for shape '.m8n16'"},
    {"wrong-num", "Incorrect no. of matrix: 4 for ldmatrix with shape '.m16n16'"},
    {"wrong-type", "Incorrect instruction type specified for ldmatrix with shape '.m8n8'"},
    {"wrong-register-count", "Vector of size 1 is expected for argument 0 of instruction 'ldmatrix'"},
    {"state-space", "State space incorrect for instruction 'ldmatrix'"},
    {"missing-qualifier", ".aligned modifier required for instruction 'ldmatrix'"},
    {"wrong-layout", "Illegal alayout '.col' for instruction 'wmma.load.a'"},
    {"removed-feature",
     "Instruction ''wmma.mma' with floating point type' with '.satfinite' is not supported starting from PTX ISA "
     "version 6.5"}};

// What a toolkit that does exactly what the documents say answers to every probe of the plan.
std::vector<ProbeVerdict> documented(const Suite& s, const AuditPlan& plan) {
  std::vector<ProbeVerdict> v(plan.probes.size(), rejected());
  for (auto const& g : plan.grammar)
    for (auto const& on : g.on)
      if (g.cc.doc == DocClass::Valid && supports(s.specs.targets, *g.cc.instance, *s.specs.targets.find(on.target)))
        v[on.probe] = accepted();
  for (auto const& m : plan.mutations)
    if (m.m->expected == DocClass::Valid) v[m.on.probe] = accepted();
  // An example is valid PTX, as the document that prints it says, unless a rule forbids it.
  for (auto const& e : plan.examples)
    for (auto const& on : e.on) v[on.probe] = e.doc == DocClass::Invalid ? rejected() : accepted();
  for (auto const& r : plan.register_claims)
    if (r.on) v[r.on->probe] = accepted();
  for (auto const& vs : plan.versions) {
    if (vs.at) v[vs.at->probe] = accepted();
    if (vs.below) v[vs.below->probe] = rejected("error   : Feature 'x' requires PTX ISA .version 9.9 or later");
  }
  for (auto const& t : plan.target_versions)
    if (t.at) v[t.at->probe] = accepted();
  if (plan.toolkit_version) v[plan.toolkit_version->at->probe] = accepted();
  for (auto const& f : plan.forms)
    if (f.on)
      v[f.on->probe] = f.form->kind == AuditForm::Kind::Spelling
                           ? rejected()
                           : rejected("ptxas probe.ptx, line 3; error   : " + kSample.at(f.form->diagnostic));
  return v;
}

struct Fixture {
  Suite suite;
  AuditPlan plan;
  std::vector<ProbeVerdict> verdicts;
  explicit Fixture(std::vector<SpecFile> files) : suite(build_suite(load_specs(files))) {
    plan = plan_audit(suite, unrun_ptxas_13_0(suite));
    verdicts = documented(suite, plan);
  }
  Audit judge() const { return judge_audit(suite, plan, verdicts); }
};

const Finding* find_finding(const Audit& a, const std::string& id) {
  for (auto const& f : a.findings)
    if (f.id == id) return &f;
  return nullptr;
}

const StatementVerdict* find_statement(const Audit& a, const std::string& id) {
  for (auto const& s : a.statements)
    if (s.id == id) return &s;
  return nullptr;
}

const RequirementVerdict& find_requirement(const Audit& a, const std::string& variant, const std::string& req) {
  for (auto const& r : a.requirements)
    if (r.variant == variant && r.requirement == req) return r;
  throw std::runtime_error("no verdict " + variant + " " + req);
}

}  // namespace

TEST(Audit, ADocumentedToolkitConfirmsEverythingAndFindsNothing) {
  Fixture f(spec_files());
  ASSERT_FALSE(f.plan.grammar.empty()) << "the specs give no grammar";
  Audit a = f.judge();
  for (auto const& fd : a.findings)
    // Between documents no toolkit makes a finding go away: an example a rule forbids is one; so is a
    // printed formula that cannot be right (judged on the host, no toolkit involved).
    // The forms a syntax block spells that no variant encodes are rejected here as ptxas rejects them
    // (the manual's .m8n84, stmatrix .m8n8 .b8): findings the specs expect (known).
    if (fd.cls != FindingClass::DocumentsDisagree && fd.id.rfind("document-error/example/", 0) != 0 &&
        fd.id.rfind("document-error/formula/", 0) != 0 && !(fd.known && fd.id.rfind("toolkit-rejects/syntax/", 0) == 0))
      ADD_FAILURE() << fd.id << ": " << fd.observed;
  EXPECT_EQ(a.contradictions(), 0);
  for (auto const& r : a.requirements)
    EXPECT_NE(r.verdict, Verdict::Contradicted) << r.variant << " " << r.requirement << ": " << r.evidence;
  for (auto const& s : a.statements) {
    // examples and syntax blocks may disagree with the rules; a printed formula with the manual's
    if (s.kind == "example" || s.kind == "syntax" || s.kind == "fragment-formula") continue;
    EXPECT_NE(s.verdict, Verdict::Contradicted) << s.kind << " " << s.id << ": " << s.evidence;
  }
  for (auto const& fv : a.forms)
    EXPECT_EQ(fv.verdict, fv.form->kind == AuditForm::Kind::Invalid ? Verdict::Confirmed : Verdict::NotCheckable)
        << fv.form->name << ": " << fv.evidence;
  // .shared::cta raises ldmatrix's minimum to 7.8: a verdict of its own.
  EXPECT_EQ(find_requirement(a, "ldmatrix.m8n8.b16", "ptx 7.8").documented, "PTX ISA 7.8 (.shared::cta)");
  EXPECT_EQ(find_requirement(a, "ldmatrix.m8n8.b16", "ptx 7.8").verdict, Verdict::Confirmed);
}

TEST(Audit, AToolkitThatAcceptsAnUndocumentedTargetIsAFinding) {
  Fixture f(spec_files());
  int flipped = 0;
  for (auto const& g : f.plan.grammar)
    if (g.cc.doc == DocClass::Valid && g.cc.instance->variant().name == "stmatrix.m8n8.b16")
      for (auto const& on : g.on)
        if (on.target == "sm_89") f.verdicts[on.probe] = accepted(), ++flipped;
  ASSERT_GT(flipped, 0);
  Audit a = f.judge();
  EXPECT_EQ(find_requirement(a, "stmatrix.m8n8.b16", "targets").verdict, Verdict::Contradicted);
  const Finding* fd = find_finding(a, "toolkit-accepts/requirement/stmatrix.m8n8.b16/targets");
  ASSERT_NE(fd, nullptr);
  EXPECT_EQ(fd->cls, FindingClass::ToolkitAccepts);
  EXPECT_EQ(fd->forms, static_cast<std::size_t>(flipped));
  EXPECT_EQ(fd->targets, std::vector<std::string>{"sm_89"});
  EXPECT_EQ(fd->words, "requires >= sm_90");
  EXPECT_TRUE(fd->fails());
  EXPECT_EQ(a.contradictions(), 1);
}

TEST(Audit, AFormARuleForbidsAcceptedContradictsTheRule) {
  Fixture f(spec_files());
  const GrammarSubject* forbidden = nullptr;
  for (auto const& g : f.plan.grammar)
    if (g.cc.doc == DocClass::Invalid) {
      forbidden = &g;
      break;
    }
  ASSERT_NE(forbidden, nullptr);
  f.verdicts[forbidden->on.back().probe] = accepted();
  Audit a = f.judge();
  const GrammarRule& rule = *forbidden->cc.forbidden_by.front();
  const Finding* fd = find_finding(a, "toolkit-accepts/rule/" + rule.id);
  ASSERT_NE(fd, nullptr);
  EXPECT_EQ(fd->words, rule.text);
  EXPECT_EQ(fd->example, forbidden->instruction);
  EXPECT_EQ(find_statement(a, rule.id)->verdict, Verdict::Contradicted);
  EXPECT_GE(a.contradictions(), 1);
}

TEST(Audit, ARejectedExampleIsADocumentErrorAndARejectedRegisterCountToo) {
  Fixture f(spec_files());
  const ExampleSubject* ex = nullptr;
  for (auto const& e : f.plan.examples)
    if (e.doc == DocClass::Valid && !e.on.empty()) {
      ex = &e;
      break;
    }
  ASSERT_NE(ex, nullptr) << "no documented example";
  f.verdicts[ex->on.front().probe] = rejected("ptxas probe.ptx, line 3; error   : Unknown symbol 'addr'");
  ASSERT_FALSE(f.plan.register_claims.empty());
  const RegisterClaimSubject& rc = f.plan.register_claims.front();
  ASSERT_TRUE(rc.on);
  f.verdicts[rc.on->probe] = rejected("ptxas probe.ptx, line 3; error   : Argument vector size mismatch");
  Audit a = f.judge();
  const Finding* e = find_finding(a, "document-error/example/" + ex->example->id);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->observed, "rejected: " + ex->on.front().target + ": error   : Unknown symbol 'addr'");
  EXPECT_EQ(find_statement(a, ex->example->id)->verdict, Verdict::Contradicted);
  const Finding* r = find_finding(a, "document-error/register-count/" + rc.claim->id);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->words, rc.claim->text);
  EXPECT_EQ(a.contradictions(), 2);
}

TEST(Audit, AcceptanceBelowTheDocumentedVersionIsAFinding) {
  Fixture f(spec_files());
  for (auto const& vs : f.plan.versions)
    if (vs.below && f.plan.grammar[vs.of].cc.instance->variant().name == "movmatrix.m8n8.b16")
      f.verdicts[vs.below->probe] = accepted();
  Audit a = f.judge();
  EXPECT_EQ(find_requirement(a, "movmatrix.m8n8.b16", "ptx 7.8").verdict, Verdict::Contradicted);
  EXPECT_NE(find_finding(a, "toolkit-accepts/requirement/movmatrix.m8n8.b16/ptx-7.8"), nullptr);
}

TEST(Audit, InvalidFormsAcceptedOrRejectedForAnotherReasonAreFindings) {
  Fixture f(spec_files());
  for (auto const& fs : f.plan.forms) {
    if (fs.form->name == "ldmatrix-m16n16-without-trans") f.verdicts[fs.on->probe] = accepted();
    if (fs.form->name == "stmatrix-m16n8-b16") f.verdicts[fs.on->probe] = rejected("error   : something else");
  }
  Audit a = f.judge();
  for (auto const& fv : a.forms) {
    if (fv.form->name == "ldmatrix-m16n16-without-trans") {
      EXPECT_EQ(fv.verdict, Verdict::Contradicted);
      EXPECT_NE(fv.evidence.find("although documented invalid: .trans is mandatory for 16x16 matrices"),
                std::string::npos)
          << fv.evidence;
    }
    if (fv.form->name == "stmatrix-m16n8-b16") {
      EXPECT_EQ(fv.verdict, Verdict::Contradicted);
      EXPECT_NE(fv.evidence.find("not for the documented reason (wrong-type)"), std::string::npos) << fv.evidence;
    }
  }
  EXPECT_NE(find_finding(a, "toolkit-accepts/form/ldmatrix-m16n16-without-trans"), nullptr);
  EXPECT_NE(find_finding(a, "document-error/form/stmatrix-m16n8-b16"), nullptr);
  EXPECT_EQ(a.contradictions(), 2);
}

TEST(Audit, AKnownFindingStaysVisibleButDoesNotFailAndAnUnusedOneIsSaid) {
  Fixture f(spec_files("stmatrix.yaml", "\nknown_discrepancies:\n",
                       "\nknown_discrepancies:\n  - finding: toolkit-accepts/requirement/stmatrix.m8n8.b16/targets\n"
                       "    source: \"an erratum\"\n  - finding: toolkit-accepts/rule/no-such-rule\n"
                       "    source: \"another erratum\"\n"));
  for (auto const& g : f.plan.grammar)
    if (g.cc.doc == DocClass::Valid && g.cc.instance->variant().name == "stmatrix.m8n8.b16")
      for (auto const& on : g.on)
        if (on.target == "sm_89") f.verdicts[on.probe] = accepted();
  Audit a = f.judge();
  const Finding* fd = find_finding(a, "toolkit-accepts/requirement/stmatrix.m8n8.b16/targets");
  ASSERT_NE(fd, nullptr);
  ASSERT_NE(fd->known, nullptr);
  EXPECT_EQ(fd->known->source, "an erratum");
  EXPECT_FALSE(fd->fails());
  EXPECT_EQ(a.contradictions(), 0);
  EXPECT_TRUE(std::any_of(a.unused_known.begin(), a.unused_known.end(),
                          [](auto const* k) { return k->finding == "toolkit-accepts/rule/no-such-rule"; }));
  std::string md = audit_markdown(a, {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
  EXPECT_NE(md.find("known: an erratum"), std::string::npos);
  EXPECT_NE(md.find("- toolkit-accepts/rule/no-such-rule (another erratum)"), std::string::npos);
}

TEST(Audit, AProbePtxasFailedOnIsNotCheckableNeverARejection) {
  Fixture f(spec_files());
  const std::string failed = "ptxas killed by signal 9 (Killed)";
  for (auto const& g : f.plan.grammar)
    if (g.cc.doc == DocClass::Valid && g.cc.instance->variant().name == "stmatrix.m8n8.b16")
      for (auto const& on : g.on) f.verdicts[on.probe] = {.accepted = false, .message = "", .error = failed};
  for (auto const& fs : f.plan.forms)
    if (fs.form->name == "ldmatrix-m16n16-without-trans")
      f.verdicts[fs.on->probe] = {.accepted = false, .message = "", .error = failed};
  Audit a = f.judge();
  EXPECT_EQ(a.contradictions(), 0);
  const RequirementVerdict& targets = find_requirement(a, "stmatrix.m8n8.b16", "targets");
  EXPECT_EQ(targets.verdict, Verdict::NotCheckable);
  EXPECT_EQ(targets.evidence.rfind("ptxas failed on all ", 0), 0u) << targets.evidence;
  for (auto const& fv : a.forms)
    if (fv.form->name == "ldmatrix-m16n16-without-trans") {
      EXPECT_EQ(fv.verdict, Verdict::NotCheckable);
      EXPECT_EQ(fv.evidence, "ptxas failed: " + failed);
    }
  ASSERT_FALSE(a.errors.empty());
  EXPECT_NE(a.errors.front().find(failed), std::string::npos);
}

// mma.sp's fragment sections (9.7.14.6.2.1-8): each A block a statement the document's own text
// confirms; each operand the manual only draws, or defers to a dense section for, a statement that
// says so and is never a verdict; an A block that cannot be right, a document error.
TEST(Audit, SparseFragmentSectionsAreStatementsAndAnInconsistentOneADocumentError) {
  Fixture f(spec_files());
  const Audit a = f.judge();
  int formulas = 0, metadata = 0;
  for (auto const& s : a.statements) {
    if (s.id.rfind("mma.sp.", 0) != 0) continue;
    formulas += s.kind == "fragment-formula";
    EXPECT_EQ(s.verdict, s.kind == "fragment-formula" ? Verdict::Confirmed : Verdict::NotCheckable)
        << s.id << ": " << s.evidence;
    if (s.id.size() > 9 && s.id.substr(s.id.size() - 9) == "/metadata") {
      ++metadata;
      EXPECT_EQ(s.kind, "fragment-figures") << s.id;
    }
  }
  EXPECT_EQ(formulas, 8);
  EXPECT_EQ(metadata, 8);
  const StatementVerdict* sa = find_statement(a, "mma.sp.m16n8k16.f16/a");
  ASSERT_NE(sa, nullptr);
  EXPECT_EQ(sa->source, "PTX ISA 9.0, 9.7.14.6.2.1 Matrix Fragments for sparse mma.m16n8k16 with .f16 and .bf16 types, "
                        "Figure 118");
  EXPECT_EQ(sa->words,
            "groupID = %laneid >> 2\nthreadID_in_group = %laneid % 4\nrow = groupID for a0 and a1\n groupID + 8 for a2 "
            "and a3\ncol = [firstcol ... lastcol] // As per the mapping of non-zero elements\n // as described in "
            "Sparse matrix storage\nWhere\nfirstcol = threadID_in_group * 4\nlastcol = firstcol + 3");
  const StatementVerdict* sb = find_statement(a, "mma.sp.m16n8k32.f16/b");
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(sb->kind, "fragment-figures");
  EXPECT_EQ(sb->evidence, "the manual gives only pictures (Figure 121): not encoded, not checked");
  const StatementVerdict* scd = find_statement(a, "mma.sp.m16n8k64.s8/cd");
  ASSERT_NE(scd, nullptr);
  EXPECT_EQ(scd->kind, "fragment-reference");
  EXPECT_NE(scd->evidence.find("defers to 9.7.14.5.9 Matrix Fragments for mma.m16n8k16 with integer type"),
            std::string::npos)
      << scd->evidence;
  for (auto const& fd : a.findings) EXPECT_EQ(fd.id.find("/sparse-"), std::string::npos) << fd.id;

  // Rows 8-15 left to no lane: the block contradicts itself.
  Fixture g(spec_files("mma.yaml", "        groupID + 8 for a2 and a3\n      col_note: &",
                       "        groupID for a2 and a3\n      col_note: &"));
  const Audit b = g.judge();
  const StatementVerdict* bad = find_statement(b, "mma.sp.m16n8k16.f16/a");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->verdict, Verdict::Contradicted);
  const Finding* fd = find_finding(b, "document-error/sparse-formula/mma.sp.m16n8k16.f16/a");
  ASSERT_NE(fd, nullptr);
  EXPECT_TRUE(fd->fails());
  EXPECT_EQ(fd->observed, bad->evidence);
  EXPECT_EQ(b.contradictions(), a.contradictions() + 1);
}

TEST(Audit, ClassifiesPtxasMessages) {
  SpecSet specs = load_specs(spec_files());
  EXPECT_EQ(classify_diagnostic(
                specs, "ptxas kernel.ptx, line 78; error   : Feature 'stmatrix' requires .target sm_90 or higher"),
            "wrong-target");
  EXPECT_EQ(
      classify_diagnostic(specs, "error   : Modifier '.trans' require for instruction ldmatrix with shape '.m16n16'"),
      "missing-trans");
  EXPECT_EQ(classify_diagnostic(specs, "error   : Incorrect no. of matrix: 4 for ldmatrix with shape '.m16n16'"),
            "wrong-num");
  EXPECT_EQ(classify_diagnostic(specs, "error   : something new"), "");
}

TEST(TargetSets, FamilyFromMeansTheFamilysLaterSpecificTargets) {
  SpecSet specs = load_specs(spec_files());
  const TargetSet& set = *specs.find_variant("stmatrix.m16n8.b8")->requires_.targets;
  auto in = [&](const char* t) { return specs.targets.contains(set, *specs.targets.find(t)); };
  for (const char* yes :
       {"sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"})
    EXPECT_TRUE(in(yes)) << yes;
  for (const char* no : {"sm_90", "sm_90a", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121", "sm_89"})
    EXPECT_FALSE(in(no)) << no;
}

// The reports name each document by its public identity (specs/documents.yaml, read here on its own),
// never by a number of ours: the JSON lists the documents, the Markdown and the page print their
// titles and addresses, and no text of the three says "seed-0" or "seed 0".
TEST(AuditReport, NamesEachDocumentByItsPublicIdentity) {
  Fixture f(spec_files());
  Audit a = f.judge();
  AuditRun run{.host = "host", .date = "2026-11-28T00:00:00Z", .suite_version = "0.1.0", .suite_commit = "abc"};
  const std::string json = audit_json(a, f.plan, f.verdicts, run), md = audit_markdown(a, run);
  const std::string html = audit_html(parse_audit_report(json, "audit.json"));
  const YAML::Node registry = YAML::LoadFile(std::string(PTXCTS_SOURCE_DIR) + "/specs/documents.yaml")["documents"];
  auto j = nlohmann::json::parse(json);
  ASSERT_EQ(j["documents"].size(), registry.size());
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const auto title = registry[i]["title"].as<std::string>(), address = registry[i]["address"].as<std::string>();
    EXPECT_EQ(j["documents"][i]["id"], registry[i]["id"].as<std::string>());
    EXPECT_EQ(j["documents"][i]["title"], title);
    EXPECT_NE(md.find(fmt::format("| {} | {} |", title, registry[i]["author"].as<std::string>())), std::string::npos)
        << title;
    EXPECT_NE(html.find(fmt::format("<td>{}</td>", address)), std::string::npos) << address;
  }
  // A finding's words name the study notes by their id; the page, by their title (from the report).
  bool notes = false;
  for (auto const& fi : a.findings) notes = notes || fi.words.find("(xuwh-2025-ldmatrix-notes, ") != std::string::npos;
  EXPECT_TRUE(notes) << "no finding quotes the study notes";
  EXPECT_EQ(html.find("(xuwh-2025-ldmatrix-notes, "), std::string::npos);
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(ldmatrix-notes-x1 \((&quot;|")ldmatrix \(study notes on)")));
  static const std::regex ours(R"(seed[- ]0)", std::regex::icase);
  for (auto const* text : {&json, &md, &html}) EXPECT_FALSE(std::regex_search(*text, ours));
  // The report's reader takes its documents, each once.
  EXPECT_NO_THROW(parse_audit_report(json, "audit.json"));
  auto twice = j;
  twice["documents"].push_back(twice["documents"][0]);
  EXPECT_THROW(parse_audit_report(twice.dump(), "audit.json"), std::exception);
}

TEST(AuditReport, OpensWithFindingsByClassThenCountsThenTheStatements) {
  Fixture f(spec_files());
  f.verdicts[f.plan.forms.front().on->probe] = accepted();  // a finding
  Audit a = f.judge();
  AuditRun run{.host = "host", .date = "2026-11-22T00:00:00Z", .suite_version = "0.1.0", .suite_commit = "abc"};
  auto j = nlohmann::json::parse(audit_json(a, f.plan, f.verdicts, run));
  EXPECT_EQ(j["schema_version"], 6);
  EXPECT_EQ(j["summary"]["probes"], f.plan.probes.size());
  EXPECT_EQ(j["grammar"].size(), f.plan.grammar.size());
  EXPECT_EQ(j["negative_space"].size(), 0u);  // a documented toolkit does nothing the documents do not say
  EXPECT_EQ(j["grammar"][0]["verdicts"].get<std::string>().size(), f.plan.targets.size());
  EXPECT_EQ(j["summary"]["contradictions"], a.contradictions());
  std::string md = audit_markdown(a, run);
  auto findings = md.find("## Findings"), counts = md.find("## Counts"), statements = md.find("## Statements"),
       reqs = md.find("## Documented requirements");
  ASSERT_NE(findings, std::string::npos);
  EXPECT_LT(findings, counts);
  EXPECT_LT(counts, statements);
  EXPECT_LT(statements, reqs);
  EXPECT_NE(md.find(f.plan.forms.front().form->name, findings), std::string::npos);
  EXPECT_LT(md.find(f.plan.forms.front().form->name, findings), counts);
}

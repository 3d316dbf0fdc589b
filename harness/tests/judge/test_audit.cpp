// The audit's judgement on an in-memory catalog: agreement, a target contradiction, a version
// accepted below the documented minimum, documented-invalid forms accepted or rejected for
// another reason, and target-set semantics.
#include <gtest/gtest.h>

#include <map>

#include "judge/audit.hpp"
#include "report/audit_report.hpp"

#include <nlohmann/json.hpp>
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

// A catalog in which ptxas did exactly what the specs document.
Catalog documented_catalog(const Suite& s) {
  Catalog c;
  c.cuda_release = "13.0";
  c.ptxas_version = "13.0.88";
  c.toolkit_ptx = {9, 0};
  for (auto const& t : s.specs.targets.targets) c.targets.push_back(t.name);
  for (auto const& k : s.kernels) {
    if (!k.audited) continue;
    const Instance& inst = k.subject_instance();
    for (auto const& t : s.specs.targets.targets) {
      bool ok = supports(s.specs.targets, inst, t);
      c.assemblies.push_back({.kernel = k.name,
                              .target = t.name,
                              .ptx = std::max(inst.min_ptx(), t.ptx),
                              .accepted = ok,
                              .attempted = true,
                              .message = ok ? "" : "error   : Feature requires .target sm_XY",
                              .cubin = "",
                              .ptx_file = "",
                              .instruction = inst.id(),
                              .entry = ""});
    }
    if (auto below = s.specs.targets.previous(inst.min_ptx()))  // none below the first version there is
      c.probes.push_back({.kernel = k.name,
                          .target = "sm_x",
                          .ptx = *below,
                          .documented = inst.min_ptx(),
                          .accepted = false,
                          .message = "error   : Feature 'x' requires PTX ISA .version 9.9 or later"});
  }
  // A ptxas 13.0 message of each class, as seen when probing it.
  const std::map<std::string, std::string> sample = {
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
  for (auto const& f : s.specs.forms) {
    std::string msg = f.kind == AuditForm::Kind::Invalid ? sample.at(f.diagnostic) : "";
    c.forms.push_back({.form = f.name,
                       .target = f.target,
                       .ptx = {9, 0},
                       .accepted = f.kind == AuditForm::Kind::Spelling,
                       .message = "ptxas kernel.ptx, line 74; error   : " + msg,
                       .instruction = f.text});
  }
  return c;
}

// The documented catalog, but for one undocumented acceptance: stmatrix on sm_89.
Catalog stmatrix_accepted_on_sm89(const Suite& s) {
  Catalog c = documented_catalog(s);
  for (auto& a : c.assemblies)
    if (a.kernel == "stmatrix.sync.aligned.m8n8.x1.shared.b16_a32" && a.target == "sm_89") a.accepted = true;
  return c;
}

const RequirementVerdict& find(const Audit& a, const std::string& variant, const std::string& requirement) {
  for (auto const& r : a.requirements)
    if (r.variant == variant && r.requirement == requirement) return r;
  throw std::runtime_error("no verdict " + variant + " " + requirement);
}

}  // namespace

TEST(Audit, DocumentedBehaviourConfirmsEveryRequirementAndInvalidForm) {
  Suite s = build_suite(load_specs(spec_files()));
  Audit a = run_audit(s, documented_catalog(s));
  EXPECT_EQ(a.contradictions(), 0);
  for (auto const& r : a.requirements)  // PTX ISA 6.0, the first version there is, has none below to try
    EXPECT_EQ(r.verdict, r.requirement == "ptx 6.0" ? Verdict::NotCheckable : Verdict::Confirmed)
        << r.variant << " " << r.requirement << ": " << r.evidence;
  for (auto const& f : a.forms)
    EXPECT_EQ(f.verdict, f.form->kind == AuditForm::Kind::Invalid ? Verdict::Confirmed : Verdict::NotCheckable)
        << f.form->name << ": " << f.evidence;
  // .shared::cta raises ldmatrix's minimum to 7.8: a verdict of its own.
  EXPECT_EQ(find(a, "ldmatrix.m8n8.b16", "ptx 7.8").documented, "PTX ISA 7.8 (.shared::cta)");
}

TEST(Audit, AToolkitThatAcceptsAnUndocumentedTargetIsAFinding) {
  Suite s = build_suite(load_specs(spec_files()));
  Catalog c = stmatrix_accepted_on_sm89(s);
  Audit a = run_audit(s, c);
  const RequirementVerdict& r = find(a, "stmatrix.m8n8.b16", "targets");
  EXPECT_EQ(r.verdict, Verdict::Contradicted);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0],
            "stmatrix.sync.aligned.m8n8.x1.shared.b16@a32 on sm_89: documented unsupported, ptxas accepted it");
  EXPECT_EQ(a.contradictions(), 1);
}

TEST(Audit, AcceptanceBelowTheDocumentedVersionIsAFinding) {
  Suite s = build_suite(load_specs(spec_files()));
  Catalog c = documented_catalog(s);
  for (auto& p : c.probes)
    if (p.kernel == "movmatrix.sync.aligned.m8n8.trans.b16") p.accepted = true;
  Audit a = run_audit(s, c);
  EXPECT_EQ(find(a, "movmatrix.m8n8.b16", "ptx 7.8").verdict, Verdict::Contradicted);
}

TEST(Audit, InvalidFormsAcceptedOrRejectedForAnotherReasonAreFindings) {
  Suite s = build_suite(load_specs(spec_files()));
  Catalog c = documented_catalog(s);
  for (auto& f : c.forms) {
    if (f.form == "ldmatrix-m16n16-without-trans") f.accepted = true;
    if (f.form == "stmatrix-m16n8-b16") f.message = "error   : something else entirely";
  }
  Audit a = run_audit(s, c);
  for (auto const& f : a.forms) {
    if (f.form->name == "ldmatrix-m16n16-without-trans") {
      EXPECT_EQ(f.verdict, Verdict::Contradicted);
      EXPECT_NE(f.evidence.find("although documented invalid: .trans is mandatory for 16x16 matrices"),
                std::string::npos)
          << f.evidence;
    }
    if (f.form->name == "stmatrix-m16n8-b16") {
      EXPECT_EQ(f.verdict, Verdict::Contradicted);
      EXPECT_NE(f.evidence.find("not for the documented reason (wrong-type)"), std::string::npos) << f.evidence;
    }
  }
  EXPECT_EQ(a.contradictions(), 2);
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
  EXPECT_EQ(
      classify_diagnostic(specs, "error   : Vector of size 1 is expected for argument 0 of instruction 'ldmatrix'"),
      "wrong-register-count");
  EXPECT_EQ(classify_diagnostic(specs, "error   : something new"), "");
}

TEST(TargetSets, FamilyFromMeansTheFamilysLaterSpecificTargets) {
  SpecSet specs = load_specs(spec_files());
  const Variant* v = specs.find_variant("stmatrix.m16n8.b8");
  ASSERT_NE(v, nullptr);
  const TargetSet& set = *v->requires_.targets;
  auto in = [&](const char* t) { return specs.targets.contains(set, *specs.targets.find(t)); };
  for (const char* yes :
       {"sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"})
    EXPECT_TRUE(in(yes)) << yes;
  for (const char* no : {"sm_90", "sm_90a", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121", "sm_89"})
    EXPECT_FALSE(in(no)) << no;
  const TargetSet& at_least = *specs.find_variant("stmatrix.m8n8.b16")->requires_.targets;
  EXPECT_TRUE(specs.targets.contains(at_least, *specs.targets.find("sm_90a")));
  EXPECT_TRUE(specs.targets.contains(at_least, *specs.targets.find("sm_121f")));
  EXPECT_FALSE(specs.targets.contains(at_least, *specs.targets.find("sm_89")));
}

TEST(AuditReport, ListsEveryAssemblyWithItsTextAndFindingsFirst) {
  Suite s = build_suite(load_specs(spec_files()));
  Catalog c = documented_catalog(s);
  c.forms[0].accepted = true;  // a finding
  Audit a = run_audit(s, c);
  AuditRun run{.host = "host", .date = "2026-11-22T00:00:00Z", .suite_version = "0.1.0", .suite_commit = "abc"};
  auto j = nlohmann::json::parse(audit_json(a, s, c, run));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["assemblies"].size(), c.assemblies.size());
  EXPECT_EQ(j["assemblies"][0]["instruction"], c.assemblies[0].instruction);
  EXPECT_TRUE(j["assemblies"][0].contains("ptx_isa"));
  EXPECT_EQ(j["summary"]["contradictions"], 1);
  std::string md = audit_markdown(a, s, c, run);
  auto findings = md.find("## Findings"), reqs = md.find("## Documented requirements"), grid = md.find("## Assemblies");
  ASSERT_NE(findings, std::string::npos);
  EXPECT_LT(findings, reqs);
  EXPECT_LT(reqs, grid);
  EXPECT_NE(md.find(c.forms[0].form, findings), std::string::npos);
}

TEST(Audit, AKnownDiscrepancyStaysVisibleButDoesNotFail) {
  Suite s = build_suite(load_specs(
      spec_files("stmatrix.yaml", "\nspellings:\n",
                 "\nknown_discrepancies:\n  - variant: stmatrix.m8n8.b16\n    target: sm_89\n    observed: accepted\n"
                 "    source: \"an erratum\"\n  - form: stmatrix-m16n8-b16\n    observed: accepted\n"
                 "    source: \"another erratum\"\n\nspellings:\n")));
  Catalog c = stmatrix_accepted_on_sm89(s);
  Audit a = run_audit(s, c);
  const RequirementVerdict& r = find(a, "stmatrix.m8n8.b16", "targets");
  EXPECT_EQ(r.verdict, Verdict::Contradicted);
  EXPECT_TRUE(r.explained());
  ASSERT_EQ(r.known.size(), 1u);
  EXPECT_NE(r.known[0].find("[known: an erratum]"), std::string::npos);
  EXPECT_EQ(a.contradictions(), 0);
  // The form's discrepancy did not happen (ptxas rejected it as documented): said, not hidden.
  ASSERT_EQ(a.unused_known.size(), 1u);
  EXPECT_EQ(a.unused_known[0]->form, "stmatrix-m16n8-b16");
  std::string md = audit_markdown(a, s, c, {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
  EXPECT_NE(md.find("## Known discrepancies"), std::string::npos);
  EXPECT_NE(md.find("no longer observed: stmatrix-m16n8-b16 (another erratum)"), std::string::npos);
}

TEST(Audit, AnAssemblyPtxasFailedOnIsNotCheckableNeverARejection) {
  Suite s = build_suite(load_specs(spec_files()));
  Catalog c = documented_catalog(s);
  // ptxas killed on stmatrix for sm_90 (documented: accepted), on its version probe, and on an invalid form.
  const std::string failed = "ptxas killed by signal 9 (Killed), on a batch of 128 kernels";
  for (auto& a : c.assemblies)
    if (a.kernel == "stmatrix.sync.aligned.m8n8.x1.shared.b16_a32" && a.target == "sm_90")
      a.accepted = false, a.message.clear(), a.error = failed;
  for (auto& p : c.probes)
    if (p.kernel == "stmatrix.sync.aligned.m8n8.x1.shared.b16_a32") p.message.clear(), p.error = failed;
  for (auto& f : c.forms)
    if (f.form == "ldmatrix-m16n16-without-trans") f.message.clear(), f.error = failed;
  Audit a = run_audit(s, c);
  EXPECT_EQ(a.contradictions(), 0);
  const RequirementVerdict& targets = find(a, "stmatrix.m8n8.b16", "targets");
  EXPECT_EQ(targets.verdict, Verdict::NotCheckable);
  EXPECT_EQ(targets.evidence.rfind(
                "ptxas failed: stmatrix.sync.aligned.m8n8.x1.shared.b16@a32 on sm_90: " + failed + " (1 of ", 0),
            0u)
      << targets.evidence;
  const RequirementVerdict& version = find(a, "stmatrix.m8n8.b16", "ptx 7.8");
  EXPECT_EQ(version.verdict, Verdict::NotCheckable);
  EXPECT_EQ(version.evidence.rfind("ptxas failed: ", 0), 0u) << version.evidence;
  for (auto const& f : a.forms)
    if (f.form->name == "ldmatrix-m16n16-without-trans") {
      EXPECT_EQ(f.verdict, Verdict::NotCheckable);
      EXPECT_EQ(f.evidence, "ptxas failed: " + failed);
    }
  // The report says so too: the assembly's error, and `!` in the matrix.
  const AuditRun run{.host = "host", .date = "date", .suite_version = "1.0", .suite_commit = "abc"};
  nlohmann::json j = nlohmann::json::parse(audit_json(a, s, c, run));
  EXPECT_EQ(j["summary"]["ptxas_failures"], 3);
  EXPECT_NE(audit_markdown(a, s, c, run).find(" ! |"), std::string::npos);
}

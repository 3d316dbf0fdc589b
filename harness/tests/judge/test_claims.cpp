// Claims that predict a failure or a fault are confirmed only when their control cases pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "judge/claims.hpp"
#include "results/outcome.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

// Every case of the claim's kernels: the fault cases with `fault`, every other case with `other`.
std::vector<ClaimVerdict> judge(Status fault, Status other) {
  Suite suite = build_suite(load_specs(spec_files()));
  std::vector<CaseResult> results;
  for (auto const& k : suite.kernels)
    for (auto const& c : suite.specs.cases.cases)
      if (k.family == "ldmatrix" && takes(k, c)) {
        CaseResult r;
        r.kernel = k.name;
        r.family = k.family;
        r.case_name = c.name;
        r.fault_case = c.fault != Fault::None;
        r.status = r.fault_case ? fault : other;
        r.reason = "as the test says";
        results.push_back(r);
      }
  return evaluate_claims(suite, Audit{}, results);
}

const ClaimVerdict& find(const std::vector<ClaimVerdict>& vs, const std::string& id) {
  for (auto const& v : vs)
    if (v.id == id) return v;
  throw std::runtime_error("no claim " + id);
}

}  // namespace

TEST(ClaimControls, APredictedFaultIsConfirmedWhenTheControlsPass) {
  auto vs = judge(Status::Crash, Status::Pass);
  EXPECT_EQ(find(vs, "ldmatrix-rows-must-be-aligned").verdict, Verdict::Confirmed)
      << find(vs, "ldmatrix-rows-must-be-aligned").evidence;
}

TEST(ClaimControls, APredictedFaultOnADeviceThatFailsEverythingIsNotCheckable) {
  auto vs = judge(Status::Crash, Status::Crash);
  const ClaimVerdict& v = find(vs, "ldmatrix-rows-must-be-aligned");
  EXPECT_EQ(v.verdict, Verdict::NotCheckable);
  EXPECT_NE(v.evidence.find("control case ldmatrix.sync.aligned.m8n8.x4."), std::string::npos) << v.evidence;
  EXPECT_NE(v.evidence.find("/unique-contiguous did not pass (crash: as the test says)"), std::string::npos)
      << v.evidence;
}

TEST(ClaimControls, APredictedFailureNeedsItsControlsToo) {
  EXPECT_EQ(find(judge(Status::Pass, Status::Fail), "blog-consecutive-rows-stored-consecutively").verdict,
            Verdict::NotCheckable);
}

TEST(ClaimControls, ASpecThatPredictsAFaultWithoutControlsIsRefused) {
  auto files =
      spec_files("ldmatrix.yaml", "cases: [fault-misaligned-rows], expect: fault, controls: [unique-contiguous]}",
                 "cases: [fault-misaligned-rows], expect: fault}");
  try {
    load_specs(files);
    FAIL() << "loaded";
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()),
              "specs/ldmatrix.yaml:294:94: a claim that predicts a fault needs 'controls': cases of the same kernels "
              "that must pass, so that a "
              "device that fails everything does not confirm it");
  }
}

// Undefined behaviour is recorded, not judged: `expect: observe` claims, and `expect: fault` claims
// whose rule the GPU did not enforce in every case, are observed. Could not check is another verdict.
TEST(ClaimVerdicts, UndefinedBehaviourIsObservedNotNotCheckable) {
  auto unenforced = judge(Status::Pass, Status::Pass);  // no fault case faulted
  const ClaimVerdict& rule = find(unenforced, "ldmatrix-rows-must-be-aligned");
  EXPECT_EQ(rule.verdict, Verdict::Observed) << rule.evidence;
  EXPECT_NE(rule.evidence.find("; the GPU does not enforce the rule in every case"), std::string::npos)
      << rule.evidence;
  for (Status fault : {Status::Pass, Status::Crash}) {
    auto vs = judge(fault, Status::Pass);
    const ClaimVerdict& ub = find(vs, "ldmatrix-generic-outside-shared-undefined");
    EXPECT_EQ(ub.verdict, Verdict::Observed) << ub.evidence;
    EXPECT_EQ(ub.evidence.rfind("undefined behaviour, observed: ", 0), 0u) << ub.evidence;
  }
  // No GPU: nothing ran, so nothing was observed.
  Suite suite = build_suite(load_specs(spec_files()));
  auto none = evaluate_claims(suite, Audit{}, {}, "no GPU on this machine");
  for (const char* id : {"ldmatrix-rows-must-be-aligned", "ldmatrix-generic-outside-shared-undefined"}) {
    EXPECT_EQ(find(none, id).verdict, Verdict::NotCheckable) << id;
    EXPECT_EQ(find(none, id).evidence, "no GPU on this machine") << id;
  }
}

// `expect` is read once into an enum: each word reads back as itself, and the loader keeps it.
TEST(ClaimExpect, EachWordReadsBackAndTheLoaderKeepsIt) {
  for (Expect e : {Expect::Pass, Expect::Fail, Expect::Fault, Expect::Observe})
    EXPECT_EQ(expect_from_string(to_string(e)), e);
  EXPECT_THROW(expect_from_string("observed"), std::invalid_argument);
  SpecSet specs = load_specs(spec_files());
  std::map<std::string, Expect> by_id;
  for (auto const& c : specs.claims) by_id[c.id] = c.check.expect;
  EXPECT_EQ(by_id.at("ldmatrix-rows-must-be-aligned"), Expect::Fault);
  EXPECT_EQ(by_id.at("ldmatrix-generic-outside-shared-undefined"), Expect::Observe);
  EXPECT_EQ(by_id.at("blog-consecutive-rows-stored-consecutively"), Expect::Fail);
}

namespace {

// Every case of the kernels of `family` that the specs plan, through `status_of` (which may also mark
// the result known or its fault case as an allowed edge case).
std::vector<ClaimVerdict> judge_family(const std::string& family,
                                       const std::function<void(CaseResult&, const KernelPlan&)>& status_of) {
  Suite suite = build_suite(load_specs(spec_files()));
  std::vector<CaseResult> results;
  for (auto const& k : suite.kernels)
    for (auto const& c : suite.specs.cases.cases)
      if (k.family == family && takes(k, c)) {
        CaseResult r;
        r.kernel = k.name;
        r.family = k.family;
        r.case_name = c.name;
        r.fault_case = c.fault != Fault::None;
        r.fault_expected = c.fault != Fault::MinimalAlignmentAddress && c.fault != Fault::MinimalAlignmentStride;  // as run/runner
        r.status = Status::Pass;
        r.reason = "as the test says";
        if (!k.claim.empty()) r.roundtrip_identity = true;
        status_of(r, k);
        results.push_back(r);
      }
  return evaluate_claims(suite, Audit{}, results);
}

}  // namespace

// Issue 38: a claim that only cases needing action contradict says nothing of the document (the GPU
// gets wrong what it is about): undecided, never a documentation finding. Cases that pass and a
// prediction of failure that they contradict, a fault case that faulted where the manual allows it,
// and a known difference stay findings.
TEST(ClaimVerdicts, AContradictionOnlyCasesNeedingActionGiveIsUndecided) {
  auto wrong = judge_family("ldmatrix", [](CaseResult& r, const KernelPlan&) {
    if (!r.fault_case) r.status = Status::Fail;
  });
  const ClaimVerdict& trans = find(wrong, "ldmatrix-trans-delivers-transpose");
  EXPECT_EQ(trans.verdict, Verdict::Undecided) << trans.evidence;
  EXPECT_EQ(trans.evidence.rfind("undecided: every case that contradicts the claim needs action on this run", 0), 0u)
      << trans.evidence;
  EXPECT_EQ(find(wrong, "ldmatrix-rows-need-not-be-contiguous").verdict, Verdict::Undecided);
  for (auto const& v : wrong) EXPECT_NE(v.verdict, Verdict::Contradicted) << v.id << ": " << v.evidence;

  // Crashed and hung cases that are not fault cases need action too.
  for (Status s : {Status::Crash, Status::Timeout}) {
    auto vs = judge_family("ldmatrix", [s](CaseResult& r, const KernelPlan&) {
      if (!r.fault_case && r.case_name == "random-scattered") r.status = s;
    });
    EXPECT_EQ(find(vs, "ldmatrix-rows-need-not-be-contiguous").verdict, Verdict::Undecided) << to_string(s);
  }

  // One contradicting case the GPU did not get wrong (a known difference) keeps the finding.
  int failed = 0;
  auto known = judge_family("ldmatrix", [&failed](CaseResult& r, const KernelPlan& k) {
    if (r.fault_case || r.case_name != "random-scattered") return;
    r.status = Status::Fail;
    if (k.subject_instance().variant().name == "ldmatrix.m8n8.b16" && failed++ == 0)
      r.known = "a known driver difference";
  });
  EXPECT_GT(failed, 1);
  EXPECT_EQ(find(known, "ldmatrix-rows-need-not-be-contiguous").verdict, Verdict::Contradicted);

  // Cases that pass contradict a seed's prediction of failure: a finding, as before.
  auto passing = judge_family("ldmatrix", [](CaseResult&, const KernelPlan&) {});
  EXPECT_EQ(find(passing, "blog-consecutive-rows-stored-consecutively").verdict, Verdict::Contradicted);
}

TEST(ClaimVerdicts, AnAllowedEdgeCaseThatFaultedIsAFindingOneComputedWrongIsUndecided) {
  auto faulted = judge_family("wmma", [](CaseResult& r, const KernelPlan&) {
    if (r.fault_case && !r.fault_expected) r.status = Status::Crash;
  });
  EXPECT_EQ(find(faulted, "wmma-alignment-rule-suffices").verdict, Verdict::Contradicted);
  auto wrong = judge_family("wmma", [](CaseResult& r, const KernelPlan&) {
    if (r.fault_case && !r.fault_expected) r.status = Status::Fail;
  });
  EXPECT_EQ(find(wrong, "wmma-alignment-rule-suffices").verdict, Verdict::Undecided);
}

// A round trip that did not give back its rows: a finding where its case passed (the specs' own
// rows say so), undecided where the case failed (the GPU got the instructions wrong).
TEST(ClaimVerdicts, ARoundTripBrokenByAFailingCaseIsUndecided) {
  auto broken = [](Status s) {
    return judge_family("stmatrix", [s](CaseResult& r, const KernelPlan&) {
      if (r.roundtrip_identity) {
        r.roundtrip_identity = false;
        r.status = s;
      }
    });
  };
  const std::string id = "stmatrix-inverts-ldmatrix";
  EXPECT_EQ(find(broken(Status::Pass), id).verdict, Verdict::Contradicted);
  EXPECT_EQ(find(broken(Status::Fail), id).verdict, Verdict::Undecided);
}

// A hypothesis (the suite's reading of what the documents only draw: mma.sp's metadata figures)
// that a GPU getting the rest of the family right refutes is a finding about the reading: the claim
// contradicted, its failing cases known (no action), the other hypotheses untouched; on a GPU that
// also gets a dense case wrong, undecided.
TEST(ClaimVerdicts, AHypothesisTheGpuRefutesIsAFindingWithItsCasesKnown) {
  Suite suite = build_suite(load_specs(spec_files()));
  std::vector<CaseResult> results;
  for (auto const& k : suite.kernels)
    for (auto const& c : suite.specs.cases.cases)
      if (k.family == "mma" && k.name.starts_with("mma.sp") && takes(k, c)) {
        CaseResult r;
        r.kernel = k.name;
        r.family = k.family;
        r.case_name = c.name;
        const bool refuted = k.name.find(".m16n8k16.row.col.f16.f16.f16.f16_e_1") != std::string::npos;
        r.status = refuted ? Status::Fail : Status::Pass;
        r.reason = "as the test says";
        results.push_back(r);
      }
  const auto vs = evaluate_claims(suite, Audit{}, results);
  const ClaimVerdict& refuted = find(vs, "mma-sp-metadata-m16n8k16-f16");
  EXPECT_EQ(refuted.verdict, Verdict::Contradicted) << refuted.evidence;
  EXPECT_EQ(refuted.evidence.rfind("the suite's reading of what the documents give only as figures", 0), 0u)
      << refuted.evidence;
  EXPECT_EQ(find(vs, "mma-sp-metadata-m16n8k32-f16").verdict, Verdict::Confirmed);
  mark_hypothesis_findings(suite, vs, results);
  int known = 0, failed = 0;
  for (auto const& r : results) {
    failed += r.status == Status::Fail;
    known += !r.known.empty();
    EXPECT_FALSE(needs_action(r)) << r.kernel << "/" << r.case_name;
    if (r.status == Status::Pass) {
      EXPECT_TRUE(r.known.empty()) << r.kernel;
    }
  }
  EXPECT_EQ(failed, 8);  // .sp and .sp::ordered_metadata, 4 cases each
  EXPECT_EQ(known, failed);
  // A GPU that gets a dense mma case wrong as well: what the reading rests on does not hold, so the
  // hypothesis is undecided and its cases need action, as any claim's (a wrong device has no finding).
  for (auto& r : results) r.known.clear();
  const KernelPlan& dense = *suite.find_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  results.push_back({});
  results.back().kernel = dense.name;
  results.back().family = dense.family;
  results.back().case_name = "mma-random-1";
  results.back().status = Status::Fail;
  const auto unsound = evaluate_claims(suite, Audit{}, results);
  EXPECT_EQ(find(unsound, "mma-sp-metadata-m16n8k16-f16").verdict, Verdict::Undecided);
  mark_hypothesis_findings(suite, unsound, results);
  EXPECT_TRUE(std::none_of(results.begin(), results.end(), [](const CaseResult& r) { return !r.known.empty(); }));
}

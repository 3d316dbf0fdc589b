// Claims that predict a failure or a fault are confirmed only when their control cases pass.
#include <gtest/gtest.h>

#include "judge/claims.hpp"
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
  EXPECT_NE(v.evidence.find("/ unique-contiguous did not pass (crash: as the test says)"), std::string::npos)
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

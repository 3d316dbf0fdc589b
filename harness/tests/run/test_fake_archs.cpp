// The suite on every architecture the fake device runner can play (PTXCTS_FAKE_ARCH): a device that
// behaves as the documents say for its target, and does the worst the documents still allow where
// they leave a case undefined there (cases.yaml 'undefined'), must conform, its undefined cases
// counted as observations; the five wrong devices must still fail every case whose outcome the
// documents define there, of the kernels that only other targets than sm_100a run, and of a seeded
// sixth of the rest (kernels_to_catch: sm_100a's runs are the whole suite's). A verdict that holds on
// sm_90 alone would fail here on another target.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "judge/claims.hpp"
#include "report/run/report_junit.hpp"
#include "results/outcome.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

// The targets the fake device runner models here, one of each architecture the suite's forms divide
// on (Turing, Ampere and its consumer parts, Ada, Hopper, Blackwell's consumer parts); sm_100a, the
// target that runs every form, is test_mutants.cpp's whole-suite run (Mutants.*, Specs/WrongDevice.*),
// with the same fake arch, so that no whole suite is run twice.
const char* const kArchs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_120a"};

class ArchRun {
 public:
  // `specs`: a spec folder of this run's own (an edited copy), else the source tree's; the runner reads
  // the same, unless `runner_reads_source_specs`.
  ArchRun(std::string arch, const fs::path& specs = {}, bool runner_reads_source_specs = false)
      : arch_(std::move(arch)),
        suite_(build_suite(specs.empty() ? load_specs(spec_files()) : load_spec_dir(specs))),
        work_(fs::temp_directory_path() / fmt::format("ptxcts-arch-{}-{}", arch_, ::getpid())) {
    // The catalog holds every kernel for the target; the run keeps those the specs document there.
    catalog_ = fake_catalog(suite_, {arch_}, {9, 0}, [](auto const&, auto const&) { return "entry"; });
    setenv("PTXCTS_FAKE_ARCH", arch_.c_str(), 1);
    if (specs.empty() || runner_reads_source_specs) unsetenv("PTXCTS_FAKE_SPECS");
    else setenv("PTXCTS_FAKE_SPECS", specs.c_str(), 1);
  }
  ~ArchRun() {
    fs::remove_all(work_);
    unsetenv("PTXCTS_FAKE_ARCH");
    unsetenv("PTXCTS_FAKE_SPECS");
  }
  const Suite& suite() const { return suite_; }

  RunReport run(const std::string& mode, const std::set<std::string>& families = {}, double case_timeout = 30,
                std::vector<std::string> case_globs = {}) {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    const TargetInfo* t = suite_.specs.targets.find(arch_);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work_,
                   .work_dir = work_,
                   .families = families,
                   .case_globs = std::move(case_globs),
                   .progress = {},
                   .case_timeout = case_timeout,
                   .journal = nullptr,
                   .done = {}};
    RunReport report;
    report.info.sm = arch_;
    report.results =
        run_on_device(suite_, catalog_, {0, "Fake GPU", t->arch / 10, t->arch % 10, "13.0", "0.0"}, opt).results;
    report.claims = evaluate_claims(suite_, Audit{}, report.results);
    return report;
  }

 private:
  std::string arch_;
  Suite suite_;
  Catalog catalog_;
  fs::path work_;
};

const ClaimVerdict& claim(const RunReport& r, const std::string& id) {
  for (auto const& c : r.claims)
    if (c.id == id) return c;
  throw std::runtime_error("no claim " + id);
}

bool excused(const Suite& s, const std::string& mutant, const CaseResult& r) {
  const KernelPlan* k = s.find_kernel(r.kernel);
  if (!k) return false;
  for (auto const& e : s.specs.cases.mutant_exceptions) {
    if (e.mutant != mutant || (e.alone && k->steps.size() != 1)) continue;
    if (!e.cases.empty() && std::find(e.cases.begin(), e.cases.end(), r.case_name) == e.cases.end()) continue;
    const std::string& v = k->subject_instance().variant().name;
    for (auto const& pat : e.variants)
      if (pat.ends_with("*") ? v.starts_with(pat.substr(0, pat.size() - 1)) : v == pat) return true;
  }
  return false;
}

// A copy of the specs with one edit of cases.yaml, for the runner and the run alike.
fs::path edited_specs(const std::string& from, const std::string& to) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("ptxcts-arch-specs-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (auto const& f : spec_files("cases.yaml", from, to))
    std::ofstream(dir / fs::path(f.path).filename()) << f.text;
  return dir;
}

// A case's 'undefined' entry (cases.yaml) for a result the run marked undefined, and the status its
// fake_device gives: fault a device fault (crash), garbage wrong values (fail), hang no result in time.
const UndefinedOn& undefined_entry(const Suite& s, const CaseResult& r) {
  const CaseSpec* c = s.specs.find_case(r.case_name);
  if (!c || c->undefined.empty()) throw std::runtime_error("no undefined entry for " + r.case_name);
  return c->undefined.front();
}
Status status_of(const std::string& fake_device) {
  return fake_device == "fault" ? Status::Crash : fake_device == "garbage" ? Status::Fail : Status::Timeout;
}

class FakeArch : public ::testing::TestWithParam<const char*> {};

bool documented_on(const Suite& s, const KernelPlan& k, const std::string& target) {
  const TargetInfo* t = s.specs.targets.find(target);
  return t && std::all_of(k.steps.begin(), k.steps.end(),
                          [&](const Instance* step) { return supports(s.specs.targets, *step, *t); });
}

// The kernels whose cases the wrong devices must fail on `arch`: every kernel documented there that
// the sm_100a runs (test_mutants.cpp: Specs/WrongDevice.*, the same five devices over the whole
// suite) do not run, and a seeded sixth of those they run too, a different sixth on each of the six
// targets (FNV-1a of the name). A kernel is judged by the same rules on every target that runs it,
// the target deciding only whether it runs and where its cases are undefined; the sample checks that
// statement target by target, where running every kernel on six targets repeated sm_100a's runs
// six times over (30 whole-suite runs, 222 s of the tests' 1,007).
std::vector<std::string> kernels_to_catch(const Suite& s, const std::string& arch) {
  const auto at = std::find_if(std::begin(kArchs), std::end(kArchs), [&](const char* a) { return arch == a; });
  const std::uint64_t sixth = static_cast<std::uint64_t>(at - std::begin(kArchs));
  std::vector<std::string> globs;
  for (auto const& k : s.kernels) {
    if (!documented_on(s, k, arch)) continue;
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char ch : k.name) h = (h ^ ch) * 1099511628211ull;
    if (!documented_on(s, k, "sm_100a") || h % std::size(kArchs) == sixth) globs.push_back(k.name + "/*");
  }
  return globs;
}

}  // namespace

TEST_P(FakeArch, ADeviceAsDocumentedConformsItsUndefinedCasesObserved) {
  ArchRun a(GetParam());
  const RunReport report = a.run("model");
  const Tally t = tally(report.results);
  EXPECT_EQ(t.needing_action, 0);
  for (auto const& r : report.results)
    EXPECT_FALSE(needs_action(r)) << r.kernel << " / " << r.case_name << ": " << r.reason;
  EXPECT_TRUE(verdict_line(report).starts_with("Conforms: ")) << verdict_line(report);
  EXPECT_GT(t[Outcome::Pass], 500);
  // ldmatrix's unused lanes: "For .target sm_75 or below, all threads must contain valid addresses.
  // Otherwise, the behavior is undefined." The fake faults there; the run observes it.
  // And the cases of what the manual leaves undefined on every target (issue 42, part 4), each as
  // its 'undefined' entry's fake_device says; counted apart.
  int undefined = 0, everywhere = 0;
  for (auto const& r : report.results) {
    if (outcome_of(r) != Outcome::Undefined) continue;
    if (r.case_name != "unique-poisoned-unused") {
      ++everywhere;
      EXPECT_EQ(r.status, status_of(undefined_entry(a.suite(), r).fake_device)) << r.case_name << ": " << r.reason;
      continue;
    }
    ++undefined;
    EXPECT_EQ(r.family, "ldmatrix");
    EXPECT_EQ(r.status, Status::Crash) << r.reason;
    EXPECT_NE(r.undefined.find("sm_75 or below"), std::string::npos) << r.undefined;
  }
  EXPECT_GT(everywhere, 0);
  const ClaimVerdict& unused = claim(report, "ldmatrix-unused-lane-addresses-ignored");
  if (std::string(GetParam()) == "sm_75") {
    EXPECT_GT(undefined, 0);
    EXPECT_NE(verdict_line(report).find(fmt::format("; {} undefined on sm_75, observed", undefined + everywhere)),
              std::string::npos)
        << verdict_line(report);
    EXPECT_EQ(unused.verdict, Verdict::NotCheckable) << unused.evidence;
    EXPECT_NE(unused.evidence.find("undefined on sm_75"), std::string::npos) << unused.evidence;
  } else {
    EXPECT_EQ(undefined, 0);
    EXPECT_EQ(unused.verdict, Verdict::Confirmed) << unused.evidence;
  }
}

TEST_P(FakeArch, EveryWrongDeviceFailsEveryCaseTheDocumentsDefineThere) {
  ArchRun a(GetParam());
  const std::vector<std::string> kernels = kernels_to_catch(a.suite(), GetParam());
  std::cout << GetParam() << ": " << kernels.size() << " kernels\n";
  for (auto const& mutant : a.suite().specs.cases.mutants) {
    int ran = 0, caught = 0;
    for (auto const& r : a.run(mutant, {}, 30, kernels).results) {
      const Outcome o = outcome_of(r);
      if (r.fault_case || o == Outcome::Undefined || o == Outcome::Skipped || o == Outcome::NotSupported) continue;
      ++ran;
      if (r.status != Status::Pass) ++caught;
      else if (!excused(a.suite(), mutant, r))
        ADD_FAILURE() << GetParam() << ": the " << mutant << " device passed " << r.kernel << " / " << r.case_name;
    }
    EXPECT_GT(ran, 100) << mutant;
    std::cout << GetParam() << ": " << mutant << " caught " << caught << " of " << ran << " cases\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FakeArch, ::testing::ValuesIn(kArchs),
                         [](const auto& info) { return std::string(info.param); });

// Each behaviour the spec may choose for an undefined case (fault, garbage, hang) is an observation:
// the run still conforms. Without the spec's 'undefined' entry, the same device on sm_75 is a device
// that faults where the documents say nothing: then the run does not conform, which shows that the
// entry, not luck, makes the difference.
TEST(FakeArchUndefined, EveryBehaviourTheSpecMayChooseIsAnObservation) {
  // ldmatrix's entry (the cases of issue 42, part 4, have entries of their own, further indented).
  const std::string entry = "ldmatrix (Note)\"\n        fake_device: fault\n";
  for (const char* worst : {"fault", "garbage", "hang"}) {
    const fs::path specs = edited_specs(entry, fmt::format("ldmatrix (Note)\"\n        fake_device: {}\n", worst));
    ArchRun a("sm_75", specs);
    // Four kernels (each hang costs the case's limit): the .x1 and .x2 loads of .shared, 64-bit addresses.
    const RunReport report = a.run("model", {"ldmatrix"}, 5.0, {"ldmatrix.sync.aligned.m8n8.x[12].shared.b16_a64/*"});
    const Tally t = tally(report.results);
    EXPECT_EQ(t.needing_action, 0) << worst;
    EXPECT_GT(t[Outcome::Undefined], 0) << worst;
    const Status want = std::string(worst) == "fault" ? Status::Crash
                        : std::string(worst) == "garbage" ? Status::Fail
                                                          : Status::Timeout;
    for (auto const& r : report.results) {
      if (outcome_of(r) == Outcome::Undefined) {
        EXPECT_EQ(r.status, want) << worst << ": " << r.reason;
      }
    }
    EXPECT_TRUE(verdict_line(report).starts_with("Conforms: ")) << worst << ": " << verdict_line(report);
    fs::remove_all(specs);
  }
}

TEST(FakeArchUndefined, WithoutTheSpecsWordsTheSameFaultNeedsAction) {
  const std::string cut_from = "    undefined:\n      - targets: \"<= sm_75\"\n";
  std::string text = read_spec("cases.yaml");
  const std::size_t at = text.find(cut_from);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = text.find("        fake_device: fault\n", at);
  ASSERT_NE(end, std::string::npos);
  const std::string entry = text.substr(at, end + std::strlen("        fake_device: fault\n") - at);
  // The device still faults there (the runner reads the source tree's specs, with the entry): this
  // run's own specs lack it.
  const fs::path bare = edited_specs(entry, "");
  RunReport report;
  {
    ArchRun a("sm_75", bare, true);
    report = a.run("model", {"ldmatrix"});
  }
  fs::remove_all(bare);
  const Tally t = tally(report.results);
  // Undefined are ldmatrix's lanes cases alone (cases.yaml's matrix_move block: undefined on every
  // target, with their own words), not the poisoned addresses.
  int undefined = 0;
  for (auto const& r : report.results)
    if (outcome_of(r) == Outcome::Undefined) {
      ++undefined;
      EXPECT_TRUE(r.case_name.starts_with("ldmatrix-undefined-upper-lanes-")) << case_id(r);
    }
  EXPECT_EQ(undefined, 3);
  EXPECT_GT(t.needing_action_of(Outcome::Crash), 0);
  EXPECT_TRUE(verdict_line(report).starts_with("Does not conform: ")) << verdict_line(report);
}

// The .block_scale forms (mma.yaml: syntax, requirements and fragments, no scaling): on sm_90 every
// case of theirs is "not supported" (Target ISA notes: "Support for .kind, .block_scale,
// .scale_vec_size qualifier requires sm_120a ..."); on sm_120a, where they are built, each is skipped
// with the reason that no result of theirs can be checked, never judged pass or fail.
TEST(FakeArchBlockScale, NotSupportedOnSm90AndNotJudgedWhereTheyRun) {
  for (const char* arch : {"sm_90", "sm_120a"}) {
    ArchRun a(arch);
    const RunReport report = a.run("model", {"mma"}, 30, {"*block_scale*/*"});
    ASSERT_FALSE(report.results.empty()) << arch;
    std::set<std::string> kernels;
    for (auto const& r : report.results) {
      kernels.insert(r.kernel);
      if (std::string(arch) == "sm_90") {
        EXPECT_EQ(r.status, Status::NotSupported) << r.kernel << ": " << r.reason;
      } else {
        EXPECT_EQ(r.status, Status::Skip) << r.kernel;
        EXPECT_NE(r.reason.find("Block Scaling"), std::string::npos) << r.kernel << ": " << r.reason;
      }
    }
    EXPECT_EQ(kernels.size(), 2u + 2u + 50u) << arch;  // .kind::mxf4, ::mxf4nvf4, ::mxf8f6f4
  }
}

// Issue 42, part 4: what the manual leaves undefined on every target, done on purpose (cases.yaml's
// wmma-undefined-* and mma-undefined-* cases: a stride below the default, lanes that give another p
// or another stride, mma.sp::ordered_metadata's indices unsorted), one representative form each.
// On sm_90 each runs, does what its 'undefined' entry's fake_device says (a fault, or other values
// than its model's), and is an observation: never a case that needs action, a documentation finding
// or a JUnit failure; each claim that quotes the sentence is `observed`, its evidence saying what the
// GPU did, case by case, with the first difference lane by lane.
namespace {
const std::vector<std::string> kUndefinedCases = {"*/wmma-undefined-*", "*/mma-undefined-*", "*/mma-sp-undefined-*"};
const char* const kUndefinedClaims[] = {"wmma-stride-below-default-undefined", "wmma-lanes-same-p-and-stride-undefined",
                                        "mma-sp-ordered-metadata-unsorted-undefined", "mma-same-qualifiers-no-exited-thread-undefined",
                                        "mma-aligned-conditional-undefined",
                                        "mma-sp-same-qualifiers-no-exited-thread-undefined",
                                        "mma-sp-aligned-conditional-undefined"};
}  // namespace

TEST(FakeArchUndefined, WhatTheManualLeavesUndefinedIsObservedNeverAFailure) {
  ArchRun a("sm_90");
  RunReport report = a.run("model", {}, 30, kUndefinedCases);
  std::set<std::string> cases;
  for (auto const& r : report.results) {
    cases.insert(r.case_name);
    EXPECT_EQ(outcome_of(r), Outcome::Undefined) << case_id(r) << ": " << r.reason;
    EXPECT_FALSE(needs_action(r)) << case_id(r);
    EXPECT_EQ(r.status, status_of(undefined_entry(a.suite(), r).fake_device)) << case_id(r) << ": " << r.reason;
    EXPECT_NE(r.undefined.find(undefined_entry(a.suite(), r).words), std::string::npos) << r.undefined;
  }
  // One representative form per sentence: one kernel a case.
  EXPECT_EQ(cases, (std::set<std::string>{"wmma-undefined-stride-below-default", "wmma-undefined-lanes-differ-address",
                                          "wmma-undefined-lanes-differ-stride", "mma-undefined-unsorted-ordered-metadata",
                                          "mma-undefined-upper-lanes-exited", "mma-undefined-upper-lanes-predicated-off",
                                          "mma-undefined-upper-lanes-other-form", "mma-sp-undefined-upper-lanes-exited",
                                          "mma-sp-undefined-upper-lanes-predicated-off",
                                          "mma-sp-undefined-upper-lanes-other-form"}));
  EXPECT_EQ(report.results.size(), cases.size());
  // These cases alone: nothing judged ("Nothing checked: none of 4 cases ran and passed; 4 undefined
  // on sm_90, observed"), never "Does not conform".
  EXPECT_TRUE(verdict_line(report).starts_with("Nothing checked: ")) << verdict_line(report);
  EXPECT_NE(verdict_line(report).find(fmt::format("; {} undefined on sm_90, observed", cases.size())), std::string::npos)
      << verdict_line(report);
  for (const char* id : kUndefinedClaims) {
    const ClaimVerdict& v = claim(report, id);
    EXPECT_EQ(v.verdict, Verdict::Observed) << id << ": " << v.evidence;
    EXPECT_NE(v.evidence.find("undefined behaviour, observed"), std::string::npos) << v.evidence;
    EXPECT_FALSE(v.checked.empty()) << id;
  }
  // The evidence says what the GPU did: garbage is other values, lane by lane; a fault its error.
  const ClaimVerdict& lanes = claim(report, "wmma-lanes-same-p-and-stride-undefined");
  EXPECT_NE(lanes.evidence.find("faulted (kernel: CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << lanes.evidence;
  EXPECT_NE(lanes.evidence.find("gave other values ("), std::string::npos) << lanes.evidence;
  EXPECT_NE(claim(report, "mma-sp-ordered-metadata-unsorted-undefined").evidence.find("(first: warp 0 lane "),
            std::string::npos)
      << claim(report, "mma-sp-ordered-metadata-unsorted-undefined").evidence;
  // Lanes 16 to 31 that exit before the mma (garbage: other values, lane by lane), skip it under a
  // predicate (a fault) or run another form: each on a kernel of its own, the plain kernel's name
  // and its shape's.
  // Lanes that run another form on a divergent path (garbage too).
  const ClaimVerdict& exited = claim(report, "mma-same-qualifiers-no-exited-thread-undefined");
  EXPECT_NE(exited.evidence.find("gave other values ("), std::string::npos) << exited.evidence;
  EXPECT_NE(exited.evidence.find("(first: warp 0 lane "), std::string::npos) << exited.evidence;
  EXPECT_EQ(exited.checked,
            (std::vector<std::string>{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.upper_exited/"
                                      "mma-undefined-upper-lanes-exited",
                                      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.upper_other_form/"
                                      "mma-undefined-upper-lanes-other-form"}));
  const ClaimVerdict& aligned = claim(report, "mma-aligned-conditional-undefined");
  EXPECT_NE(aligned.evidence.find("faulted (kernel: CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << aligned.evidence;
  ASSERT_EQ(aligned.checked.size(), 1u);
  EXPECT_TRUE(aligned.checked[0].starts_with("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.upper_predicated_off/"))
      << aligned.checked[0];
  const std::string junit = report_junit(report);
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
  EXPECT_EQ(junit.find("<error"), std::string::npos) << junit;
}

// The worst the words allow, a hang: the case is recorded as hung (timeout, an observation), the
// run goes on, and the results already obtained survive: the same kernel's defined cases pass.
TEST(FakeArchUndefined, AnUndefinedCaseThatHangsIsRecordedAsHungAndTheRunGoesOn) {
  const std::string from = "          words: \"Specifying a value lower than the default value results in undefined behavior.\"\n"
                           "          source: \"PTX ISA 9.0, 9.7.14.4.3 wmma.load, description\"\n"
                           "          fake_device: garbage\n";
  std::string to = from;
  to.replace(to.rfind("garbage"), 7, "hang");
  const fs::path specs = edited_specs(from, to);
  RunReport report;
  {
    ArchRun a("sm_90", specs);
    report = a.run("model", {"wmma"}, 3.0, {"wmma.load.a.sync.aligned.row.m16n16k16.shared.f16_stride_a64/*"});
  }
  fs::remove_all(specs);
  int passed = 0, hung = 0;
  for (auto const& r : report.results) {
    EXPECT_FALSE(needs_action(r)) << case_id(r) << ": " << r.reason;
    if (r.case_name == "wmma-undefined-stride-below-default") {
      ++hung;
      EXPECT_EQ(r.status, Status::Timeout) << r.reason;
      EXPECT_EQ(outcome_of(r), Outcome::Undefined);
      EXPECT_NE(undefined_observation(r).find("gave no result in time"), std::string::npos) << undefined_observation(r);
    } else if (r.undefined.empty() && !r.fault_case) {
      passed += r.status == Status::Pass;
      EXPECT_EQ(r.status, Status::Pass) << case_id(r) << ": " << r.reason;
    }
  }
  EXPECT_EQ(hung, 1);
  EXPECT_GE(passed, 2);  // wmma-unique-default-stride, -wide-stride, -random-...: before and after it
  EXPECT_TRUE(verdict_line(report).starts_with("Conforms: ")) << verdict_line(report);
  EXPECT_EQ(claim(report, "wmma-stride-below-default-undefined").verdict, Verdict::Observed);
}

// Issue 42, part 4, the second round: the same sentences of ldmatrix, stmatrix, movmatrix, wmma.load
// and wmma.store (lanes 16 to 31 exited, predicated off, running another form; wmma.store's stride
// below the default and lanes giving another p or stride), 16 cases, one representative form each.
// On sm_90, on the device as documented and on each wrong device (does nothing: echo; zeroes;
// shuffles), every one is undefined, an observation: never a case that needs action, and no JUnit
// failure; on the device as documented each does what its entry's fake_device says, and each claim
// quoting the sentences is `observed` on exactly its cases.
namespace {
const std::vector<std::string> kLanesCases = {"*/ldmatrix-undefined-*", "*/stmatrix-undefined-*",
                                              "*/movmatrix-undefined-*", "*/wmma-load-undefined-*",
                                              "*/wmma-store-undefined-*"};
}  // namespace

TEST(FakeArchUndefined, LanesOfTheMatrixMovesAndWmmaLoadsAndStoresAreObservedOnEveryDevice) {
  ArchRun a("sm_90");
  for (const char* mode : {"model", "echo", "zero", "shuffled"}) {
    SCOPED_TRACE(mode);
    RunReport report = a.run(mode, {}, 30, kLanesCases);
    EXPECT_EQ(report.results.size(), 16u);
    for (auto const& r : report.results) {
      EXPECT_EQ(outcome_of(r), Outcome::Undefined) << case_id(r) << ": " << r.reason;
      EXPECT_FALSE(needs_action(r)) << case_id(r);
      EXPECT_NE(r.undefined.find(undefined_entry(a.suite(), r).words), std::string::npos) << r.undefined;
      if (std::string(mode) == "model") {
        EXPECT_EQ(r.status, status_of(undefined_entry(a.suite(), r).fake_device)) << case_id(r) << ": " << r.reason;
      }
    }
    EXPECT_NE(verdict_line(report).find("; 16 undefined on sm_90, observed"), std::string::npos) << verdict_line(report);
    for (const char* id : {"ldmatrix-aligned-conditional-undefined", "ldmatrix-same-qualifiers-no-exited-thread-undefined",
                           "stmatrix-aligned-conditional-undefined", "stmatrix-same-qualifiers-no-exited-thread-undefined",
                           "movmatrix-aligned-conditional-undefined", "wmma-load-aligned-conditional-undefined",
                           "wmma-lanes-same-p-and-stride-undefined", "wmma-store-stride-below-default-undefined",
                           "wmma-store-aligned-conditional-undefined", "wmma-store-same-p-and-stride-undefined"}) {
      const ClaimVerdict& v = claim(report, id);
      EXPECT_EQ(v.verdict, Verdict::Observed) << id << ": " << v.evidence;
      EXPECT_NE(v.evidence.find("undefined behaviour, observed"), std::string::npos) << id << ": " << v.evidence;
    }
    EXPECT_EQ(claim(report, "ldmatrix-same-qualifiers-no-exited-thread-undefined").checked,
              (std::vector<std::string>{"ldmatrix.sync.aligned.m8n8.x4.b16_a64.upper_exited/"
                                        "ldmatrix-undefined-upper-lanes-exited",
                                        "ldmatrix.sync.aligned.m8n8.x4.b16_a64.upper_other_form/"
                                        "ldmatrix-undefined-upper-lanes-other-form"}));
    EXPECT_EQ(claim(report, "wmma-store-same-p-and-stride-undefined").checked.size(), 4u);
    const std::string junit = report_junit(report);
    EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
    EXPECT_EQ(junit.find("<error"), std::string::npos) << junit;
  }
  // The evidence says what happened: a fault its error (the predicated-off ldmatrix), other values
  // lane by lane (the exited lanes).
  RunReport report = a.run("model", {}, 30, kLanesCases);
  EXPECT_NE(claim(report, "ldmatrix-aligned-conditional-undefined").evidence.find("faulted (kernel: CUDA_ERROR_ILLEGAL_ADDRESS"),
            std::string::npos);
  EXPECT_NE(claim(report, "ldmatrix-same-qualifiers-no-exited-thread-undefined").evidence.find("(first: warp 0 lane "),
            std::string::npos);
}

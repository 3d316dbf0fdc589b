// The suite against wrong devices: the fake device runner plays a correct GPU in software (every
// case must pass) and each wrong device that cases.yaml lists under 'mutants' (every case that is not
// a fault case must fail, except those the spec lists, with their reason, under 'may_pass').
// The whole suite, every family, on a device that runs every form: the fake device runner playing
// sm_100a (PTXCTS_FAKE_ARCH), which is that architecture's run of test_fake_archs.cpp (FakeArch.*
// plays the other targets the same way).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "judge/claims.hpp"
#include "report/run/report_diff.hpp"
#include "results/outcome.hpp"
#include "run/runner.hpp"
#include "support/fake_catalog.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

struct WholeSuite {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog catalog;
  fs::path work;

  explicit WholeSuite(const std::string& mode)
      : work(fs::temp_directory_path() / fmt::format("ptxcts-mutant-{}-{}", mode, ::getpid())) {
    catalog = fake_catalog(suite, {"sm_100a"}, {8, 8}, [](auto const&, auto const&) { return "entry"; });
  }
  ~WholeSuite() {
    fs::remove_all(work);
    unsetenv("PTXCTS_FAKE_ARCH");
  }

  std::vector<CaseResult> run(const std::string& mode) {
    setenv("PTXCTS_FAKE_MODE", mode.c_str(), 1);
    setenv("PTXCTS_FAKE_ARCH", "sm_100a", 1);
    RunOptions opt{.runner = PTXCTS_FAKE_RUNNER,
                   .catalog_dir = work,
                   .work_dir = work,
                   .families = {},
                   .progress = {},
                   .case_timeout = 30,
                   .journal = nullptr,
                   .done = {}};
    return run_on_device(suite, catalog, {0, "Fake GPU", 10, 0, "13.0", "0.0"}, opt).results;
  }
};

bool matches(const MutantException& e, const Suite& s, const CaseResult& r) {
  const KernelPlan* k = s.find_kernel(r.kernel);
  if (!k || (e.alone && k->steps.size() != 1)) return false;
  if (!e.cases.empty() && std::find(e.cases.begin(), e.cases.end(), r.case_name) == e.cases.end()) return false;
  const std::string& v = k->subject_instance().variant().name;
  for (auto const& pat : e.variants)
    if (pat.ends_with("*") ? v.starts_with(pat.substr(0, pat.size() - 1)) : v == pat) return true;
  return false;
}

}  // namespace

TEST(Mutants, ACorrectDevicePassesEveryCase) {
  WholeSuite w("model");
  int ran = 0;
  RunReport report;
  report.info.sm = "sm_100a";
  report.results = w.run("model");
  EXPECT_TRUE(verdict_line(report).starts_with("Conforms: ")) << verdict_line(report);
  for (auto const& r : report.results) {
    // What the documents leave undefined (cases.yaml 'undefined') is an observation, whatever it gave.
    EXPECT_FALSE(needs_action(r)) << case_id(r) << ": " << r.reason;
    if (r.fault_case || outcome_of(r) == Outcome::Undefined || r.status == Status::Skip ||
        r.status == Status::NotSupported)
      continue;
    ++ran;
    EXPECT_EQ(r.status, Status::Pass) << r.kernel << " / " << r.case_name << ": " << r.reason
                                      << (r.diff.empty() ? "" : "\n" + r.diff.front());
  }
  EXPECT_GT(ran, 4000);
}

namespace {

// Issue 38: a wrong device's failures are no documentation findings (its run is the one the test
// above made). Every claim a wrong device
// contradicts, the conforming device (model) contradicts too; the claims its failing cases alone would
// contradict are undecided, and the verdict line counts them apart.
void has_no_finding_the_conforming_run_lacks(WholeSuite& w, const std::string& device,
                                             std::vector<CaseResult> results) {
  RunReport model;
  model.results = w.run("model");
  model.claims = evaluate_claims(w.suite, Audit{}, model.results);
  std::set<std::string> conforming;
  for (auto const& v : model.claims)
    if (v.verdict == Verdict::Contradicted) conforming.insert(v.id);
  RunReport wrong;
  wrong.results = std::move(results);
  wrong.claims = evaluate_claims(w.suite, Audit{}, wrong.results);
  int findings = 0, undecided = 0;
  for (auto const& v : wrong.claims) {
    undecided += v.verdict == Verdict::Undecided;
    if (v.verdict != Verdict::Contradicted) continue;
    ++findings;
    EXPECT_TRUE(conforming.count(v.id)) << device << " device: claim " << v.id
                                        << " is a documentation finding the conforming run does not have: "
                                        << v.evidence;
  }
  const std::string line = verdict_line(wrong);
  std::cout << device << ": " << findings << " documentation findings (the conforming run: " << conforming.size()
            << "), " << undecided << " claims undecided\n"
            << line << "\n";
  EXPECT_GT(undecided, 0);
  // `ptxcts diff` of the conforming run and this one: the cases' regressions, and no new finding.
  const ReportDiff d = diff_reports(model, wrong);
  EXPECT_EQ(d.new_findings(), 0);
  EXPECT_GT(d.regressions(), 0);
  std::cout << format_diff(d).substr(format_diff(d).rfind('\n', format_diff(d).size() - 2) + 1);
  EXPECT_NE(line.find(fmt::format(", {} claims undecided (their cases need action)", undecided)), std::string::npos)
      << line;
}

}  // namespace

class WrongDevice : public ::testing::TestWithParam<std::string> {};

// Every case that is not a fault case fails, and no failure is a documentation finding.
TEST_P(WrongDevice, FailsEveryCaseThatIsNotAFaultCase) {
  WholeSuite w(GetParam());
  const CaseSet& cs = w.suite.specs.cases;
  ASSERT_NE(std::find(cs.mutants.begin(), cs.mutants.end(), GetParam()), cs.mutants.end())
      << "cases.yaml does not list " << GetParam();
  std::vector<const MutantException*> excuses;
  for (auto const& e : cs.mutant_exceptions)
    if (e.mutant == GetParam()) excuses.push_back(&e);
  std::vector<int> used(excuses.size(), 0);
  int ran = 0, caught = 0;
  std::map<std::string, int> uncaught;  // per family
  const std::vector<CaseResult> results = w.run(GetParam());
  // No claim that rests on the GPU may be confirmed by a wrong device (where the spec excuses none
  // of its cases: a case it may pass is one a correct device may give too).
  for (auto const& v : evaluate_claims(w.suite, Audit{}, results)) {
    std::cout << GetParam() << ": claim " << v.id << " " << to_string(v.verdict) << "\n";
    const Claim* c = nullptr;
    for (auto const& x : w.suite.specs.claims)
      if (x.id == v.id) c = &x;
    if (excuses.empty() && c && c->check.kind != ClaimCheckKind::Requirements) {
      EXPECT_NE(v.verdict, Verdict::Confirmed)
          << v.id << " confirmed by the " << GetParam() << " device: " << v.evidence;
    }
  }
  std::map<std::string, std::pair<int, int>>
      faults;  // per family: fault cases that ran, and passed (printed, not judged)
  for (auto const& r : results) {
    if (r.fault_case && r.status != Status::Skip)
      ++faults[r.family].first, faults[r.family].second += r.status == Status::Pass;
    if (r.fault_case || r.status == Status::Skip || r.status == Status::NotSupported) continue;
    ++ran;
    if (r.status != Status::Pass) {
      ++caught;
      continue;
    }
    bool excused = false;
    for (std::size_t e = 0; e < excuses.size(); ++e)
      if (matches(*excuses[e], w.suite, r)) excused = true, ++used[e];
    if (!excused) {
      ++uncaught[r.family];
      ADD_FAILURE() << GetParam() << " device passed " << r.kernel << " / " << r.case_name;
    }
  }
  for (std::size_t e = 0; e < excuses.size(); ++e)
    EXPECT_GT(used[e], 0) << excuses[e]->where.file << ":" << excuses[e]->where.line
                          << ": an exception that no longer excuses any case";
  EXPECT_GT(ran, 4000);
  for (auto const& [family, n] : uncaught) std::cout << GetParam() << ": " << family << " " << n << " cases passed\n";
  std::cout << GetParam() << ": " << caught << " of " << ran << " cases caught\n";
  for (auto const& [family, n] : faults)
    std::cout << GetParam() << ": " << family << " fault cases passed: " << n.second << " of " << n.first << "\n";
  has_no_finding_the_conforming_run_lacks(w, GetParam(), results);
}

INSTANTIATE_TEST_SUITE_P(Specs, WrongDevice, ::testing::Values("echo", "zero", "shuffled", "off-by-one", "stale"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::erase(n, '-');
                           return n;
                         });

namespace {
std::string mutant_spec_error(const std::string& from, const std::string& to) {
  try {
    load_specs(spec_files("cases.yaml", from, to));
    return "(no error)";
  } catch (const SpecError& e) { return e.what(); }
}
}  // namespace

TEST(MutantSpecs, EveryExcuseNamesWhatExists) {
  EXPECT_EQ(mutant_spec_error("variants: [wmma.load.*, wmma.store.*]", "variants: [wmma.lod.*, wmma.store.*]"),
            "specs/cases.yaml:15:7: 'shuffled' may pass variants 'wmma.lod.*', which match no variant of the specs");
  EXPECT_EQ(mutant_spec_error("      alone: true\n", "      alone: true\n      cases: [unique-contiguos]\n"),
            "specs/cases.yaml:15:7: 'shuffled' may pass unknown case 'unique-contiguos'");
  EXPECT_EQ(mutant_spec_error("    - mutant: shuffled", "    - mutant: shufled"),
            "specs/cases.yaml:15:15: 'shufled' is not one of the devices listed above");
  EXPECT_EQ(mutant_spec_error("devices: [echo, zero,", "devices: [echo, nil,"),
            "specs/cases.yaml:13:19: unknown device 'nil'; expected echo, zero, shuffled, off-by-one or stale");
}

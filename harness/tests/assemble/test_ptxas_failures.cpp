// Only verdicts ptxas was seen to give are cached. Stand-in ptxas scripts that are killed, hang,
// run out of memory, exit 0 without a cubin or exit non-zero without a word give an error: never a
// rejection, never cached, tried again by the next build, and reported (the catalog, its manifest,
// the runner). One that rejects properly is cached as before, with how the verdict was obtained.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "assemble/assembly_cache.hpp"
#include "assemble/catalog.hpp"
#include "judge/audit_plan.hpp"
#include "run/runner.hpp"
#include "support/fake_ptxas.hpp"
#include "support/spec_fixture.hpp"
#include "util/sealed_file.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

struct Failure {
  const char* name;
  std::string body;
  std::string obtained;  // what the outcome says about how it ended
};

const std::vector<Failure> kFailures = {
    {"killed", kKilled, "ptxas killed by signal 9 (Killed)"},
    {"hangs", kHangs, "ptxas ran past the 0.5 s limit and was killed"},
    {"out of memory", kOutOfMemory, "ptxas exit 1 with a message that says ptxas failed"},
    {"exit 0 without a cubin", kNoCubin, "ptxas exit 0 without writing the cubin"},
    {"exit 2 without a word", kSilentFailure, "ptxas exit 2 without a message"},
};

const std::string kFailuresPtx = ".version 7.8\n.target sm_90\n.address_size 64\n";

Job failures_job_of(const FakePtxas& f) { return {kFailuresPtx, "sm_90", content_key(kFailuresPtx, "sm_90", f.tc.version), {}, false, {}}; }

// Three kernels sharing a module header on sm_90 (one batch), each with its version probe.
Suite failures_small_suite() {
  Suite s = build_suite(load_specs(spec_files()));
  std::vector<KernelPlan> keep;
  for (auto const& k : s.kernels)
    if (k.name == "ldmatrix.sync.aligned.m8n8.x1.shared__cta.b16_a64" ||
        k.name == "ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a64" ||
        k.name == "stmatrix.sync.aligned.m8n8.x1.b16_a64")
      keep.push_back(k);
  s.kernels = keep;
  s.specs.forms.clear();
  return s;
}

}  // namespace

TEST(PtxasFailures, EachWayPtxasFailsIsAnErrorNotARejection) {
  for (auto const& f : kFailures) {
    FakePtxas ptxas(f.body);
    std::ofstream(ptxas.dir / "k.ptx") << kFailuresPtx;
    AssemblyOutcome out = assemble(ptxas.tc, ptxas.dir / "k.ptx", "sm_90", ptxas.dir / "k.cubin");
    EXPECT_EQ(out.state, AssemblyState::Error) << f.name << ": " << out.obtained;
    EXPECT_EQ(out.obtained, f.obtained) << f.name;
  }
  FakePtxas rejects(kRejects), accepts(kAccepts);
  for (auto* p : {&rejects, &accepts}) std::ofstream(p->dir / "k.ptx") << kFailuresPtx;
  AssemblyOutcome no = assemble(rejects.tc, rejects.dir / "k.ptx", "sm_90", rejects.dir / "k.cubin");
  EXPECT_EQ(no.state, AssemblyState::Rejected);
  EXPECT_EQ(no.obtained, "ptxas exit 255 with a message");
  EXPECT_EQ(
      no.message,
      "ptxas kernel.ptx, line 1; error   : Unknown symbol 'bogus'\nptxas fatal   : Ptx assembly aborted due to errors");
  AssemblyOutcome yes = assemble(accepts.tc, accepts.dir / "k.ptx", "sm_90", accepts.dir / "k.cubin");
  EXPECT_EQ(yes.state, AssemblyState::Accepted);
  EXPECT_EQ(yes.obtained, "ptxas exit 0");
}

TEST(PtxasFailures, MessagesThatSayPtxasFailedAreKeptInOneList) {
  for (const char* m :
       {"ptxas fatal   : Out of memory", "ptxas fatal   : Internal error: bad state",
        "Segmentation fault (core dumped)", "terminate called after throwing an instance of 'std::bad_alloc'",
        "ptxas: x.cpp:12: f: Assertion `p' failed."})
    EXPECT_TRUE(says_ptxas_failed(m)) << m;
  for (const char* m : {"ptxas kernel.ptx, line 80; error   : Feature 'stmatrix' requires .target sm_90 or higher",
                        "ptxas fatal   : Ptx assembly aborted due to errors",
                        "ptxas kernel.ptx, line 3; fatal   : Parsing error near '.bogus'"})
    EXPECT_FALSE(says_ptxas_failed(m)) << m;
}

TEST(PtxasFailures, AnErrorIsNeverCachedAndTheNextBuildTriesAgain) {
  for (auto const& f : kFailures) {
    FakePtxas ptxas(f.body);
    Job first = failures_job_of(ptxas), second = failures_job_of(ptxas);
    run_job(ptxas.tc, ptxas.dir / "catalog", first);
    run_job(ptxas.tc, ptxas.dir / "catalog", second);
    EXPECT_TRUE(second.outcome.error()) << f.name;
    EXPECT_FALSE(second.cached) << f.name;
    EXPECT_EQ(ptxas.runs(), 2) << f.name;
    for (const char* ending : {".rejected", ".log", ".cubin"})
      EXPECT_EQ(ptxas.cached(ending), 0) << f.name << ": " << ending;
    EXPECT_EQ(ptxas.cached(".ptx"), 1) << f.name;  // only the module, kept to be read
  }
}

TEST(PtxasFailures, ARejectionIsCachedWithHowItWasObtained) {
  FakePtxas ptxas(kRejects);
  Job first = failures_job_of(ptxas), second = failures_job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", first);
  run_job(ptxas.tc, ptxas.dir / "catalog", second);
  EXPECT_EQ(ptxas.runs(), 1);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.outcome.state, AssemblyState::Rejected);
  EXPECT_EQ(second.outcome.obtained, "ptxas exit 255 with a message");
  EXPECT_EQ(second.outcome.message, first.outcome.message);
  EXPECT_EQ(read_sealed(ptxas.dir / "catalog" / "cache" / (first.key + ".rejected")).content,
            "obtained: ptxas exit 255 with a message\n" + first.outcome.message);
}

TEST(PtxasFailures, OldRecordsThatDoNotSayHowAreAssembledAgain) {
  // What a killed ptxas left before: an empty .rejected; and an accepted module's plain .log.
  FakePtxas ptxas(kRejects);
  Job job = failures_job_of(ptxas);
  fs::path cache = ptxas.dir / "catalog" / "cache";
  std::ofstream(cache / (job.key + ".rejected"));
  run_job(ptxas.tc, ptxas.dir / "catalog", job);
  EXPECT_FALSE(job.cached);
  EXPECT_EQ(ptxas.runs(), 1);
  EXPECT_EQ(job.outcome.state, AssemblyState::Rejected);
  fs::remove(cache / (job.key + ".rejected"));
  std::ofstream(cache / (job.key + ".cubin")) << "cubin";
  std::ofstream(cache / (job.key + ".log"));
  Job again = failures_job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", again);
  EXPECT_FALSE(again.cached);
  EXPECT_EQ(ptxas.runs(), 2);
  EXPECT_EQ(again.outcome.state, AssemblyState::Rejected);
  EXPECT_FALSE(fs::exists(cache / (job.key + ".cubin")));  // the verdict replaces the older one, not beside it
}

TEST(PtxasFailures, ACatalogBuildReportsErrorsCachesNoneAndRetriesThem) {
  const Suite suite = failures_small_suite();
  for (auto const& f : kFailures) {
    FakePtxas ptxas(f.body);
    CatalogStats first, second;
    Catalog cat = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2, &first);
    ASSERT_EQ(cat.assemblies.size(), 3u) << f.name;
    for (auto const& a : cat.assemblies) {
      EXPECT_FALSE(a.accepted) << f.name;
      EXPECT_EQ(a.error.rfind(f.obtained + ", on a batch of 3 kernels", 0), 0u) << f.name << ": " << a.error;
      EXPECT_TRUE(a.cubin.empty()) << f.name;
    }
    EXPECT_EQ(first.errors, 3) << f.name;
    EXPECT_EQ(first.ptxas_runs, 1) << f.name;  // the batch, which marks no kernel rejected
    ASSERT_EQ(cat.errors().size(), 3u) << f.name;
    EXPECT_EQ(cat.errors()[0], cat.assemblies[0].kernel + " on sm_90: " + cat.assemblies[0].error) << f.name;
    // Nothing of it is cached; the manifest keeps the errors.
    for (const char* ending : {".rejected", ".batch.json", ".log", ".cubin"})
      EXPECT_EQ(ptxas.cached(ending), 0) << f.name << ": " << ending;
    Catalog back = load_catalog(ptxas.dir / "catalog");
    EXPECT_EQ(back.errors(), cat.errors()) << f.name;
    // The next build tries every one again.
    build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2, &second);
    EXPECT_EQ(second.ptxas_runs, 1) << f.name;
    EXPECT_EQ(second.cached, 0) << f.name;
    EXPECT_EQ(ptxas.runs(), 2) << f.name;
  }
}

TEST(PtxasFailures, ACatalogBuildCachesRealRejections) {
  const Suite suite = failures_small_suite();
  FakePtxas ptxas(kRejects);
  CatalogStats first, second;
  Catalog cat = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2, &first);
  // The batch's message names a header line, so each kernel is assembled alone: 1 + 3.
  EXPECT_EQ(first.ptxas_runs, 4);
  EXPECT_EQ(first.errors, 0);
  EXPECT_TRUE(cat.errors().empty());
  for (auto const& a : cat.assemblies) EXPECT_FALSE(a.accepted);
  EXPECT_EQ(ptxas.cached(".batch.json"), 1);
  EXPECT_EQ(
      read_sealed(ptxas.dir / "catalog" / "cache" / (fs::path(cat.assemblies[0].ptx_file).stem().string() + ".rejected"))
          .content.rfind("obtained: ptxas exit 255 with a message\n", 0),
      0u);
  build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2, &second);
  EXPECT_EQ(second.ptxas_runs, 0);
  EXPECT_EQ(ptxas.runs(), 4);
}

TEST(PtxasFailures, TheRunnerReportsAKernelPtxasFailedOnAsAnErrorWithWhy) {
  Suite suite = build_suite(load_specs(spec_files()));
  Catalog cat;
  cat.cuda_release = "13.0";
  cat.targets = {"sm_75"};
  const KernelPlan& k = *suite.find_kernel("movmatrix.sync.aligned.m8n8.trans.b16");
  cat.assemblies.push_back({.kernel = k.name,
                            .target = "sm_75",
                            .ptx = {7, 8},
                            .accepted = false,
                            .attempted = true,
                            .message = "",
                            .cubin = "",
                            .ptx_file = "",
                            .instruction = "",
                            .entry = "",
                            .error = "ptxas killed by signal 9 (Killed), on a batch of 128 kernels"});
  RunOptions opt;
  opt.runner = PTXCTS_FAKE_RUNNER;
  opt.families = {"movmatrix"};
  DeviceRun run = run_on_device(suite, cat, {0, "Fake GPU", 7, 5, "13.0", "0.0"}, opt);
  ASSERT_FALSE(run.results.empty());
  std::size_t of_the_kernel = 0;
  for (auto const& r : run.results) {
    // The family's other kernels (its undefined-lanes shape, .upper_predicated_off) are not in this
    // catalog: their results say so, and are not this test's subject.
    if (r.kernel != k.name) continue;
    ++of_the_kernel;
    EXPECT_EQ(r.status, Status::Error) << r.case_name;
    EXPECT_EQ(r.reason,
              "ptxas failed on this kernel for sm_75, so there is no cubin (the next catalog build tries again): "
              "ptxas killed by signal 9 (Killed), on a batch of 128 kernels");
  }
  EXPECT_GT(of_the_kernel, 0u);
}

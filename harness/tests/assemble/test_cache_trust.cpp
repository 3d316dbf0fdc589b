// The cache believes nothing it cannot check: a cubin cut short, a record with a flipped bit, a
// probe verdict changed on disk, ptxas output that is no cubin; a ptxas that hangs costs a bounded
// time; two processes may build one catalog at once.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "assemble/assembly_cache.hpp"
#include "assemble/catalog.hpp"
#include "assemble/cubin_check.hpp"
#include "assemble/probe_assembly.hpp"
#include "run/runner.hpp"
#include "support/fake_ptxas.hpp"
#include "support/spec_fixture.hpp"
#include "util/sealed_file.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

const std::string kPtx = ".version 7.8\n.target sm_90\n.address_size 64\n";

Job job_of(const FakePtxas& f) { return {kPtx, "sm_90", content_key(kPtx, "sm_90", f.tc.version), {}, false, {}}; }

Suite small_suite() {
  Suite s = build_suite(load_specs(spec_files()));
  std::vector<KernelPlan> keep;
  for (auto const& k : s.kernels)
    if (k.name == "ldmatrix.sync.aligned.m8n8.x1.shared__cta.b16_a64" ||
        k.name == "ldmatrix.sync.aligned.m8n8.x2.shared__cta.b16_a64")
      keep.push_back(k);
  s.kernels = keep;
  s.specs.forms.clear();
  return s;
}

// Flips one bit of a file's last byte.
void flip_last_bit(const fs::path& p) {
  std::string s = read_bytes(p);
  s.back() = static_cast<char>(s.back() ^ 1);
  write_bytes(p, s);
}

fs::path only_file_ending(const fs::path& dir, const std::string& ending) {
  fs::path found;
  for (auto const& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (n.size() > ending.size() && n.compare(n.size() - ending.size(), ending.size(), ending) == 0) {
      EXPECT_TRUE(found.empty()) << "more than one " << ending;
      found = e.path();
    }
  }
  return found;
}

}  // namespace

TEST(CacheTrust, ACubinCutShortIsFoundAndAssembledAgain) {
  // Before: a cubin truncated to 10 bytes was taken from the cache as it was.
  FakePtxas ptxas(kAccepts);
  Job first = job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", first);
  ASSERT_EQ(first.outcome.state, AssemblyState::Accepted) << first.outcome.why();
  const fs::path cubin = ptxas.dir / "catalog" / "cache" / (first.key + ".cubin");
  write_bytes(cubin, read_bytes(cubin).substr(0, 10));
  testing::internal::CaptureStderr();
  Job again = job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", again);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(again.cached);
  EXPECT_EQ(ptxas.runs(), 2);
  EXPECT_EQ(again.outcome.state, AssemblyState::Accepted);
  EXPECT_EQ(read_bytes(cubin).size(), 64u);
  EXPECT_NE(said.find("cache: " + cubin.string() + ": 10 bytes, not the 64 "), std::string::npos) << said;
}

TEST(CacheTrust, ARecordWithAFlippedBitIsFoundAndAssembledAgain) {
  FakePtxas ptxas(kRejects);
  Job first = job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", first);
  flip_last_bit(ptxas.dir / "catalog" / "cache" / (first.key + ".rejected"));
  testing::internal::CaptureStderr();
  Job again = job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", again);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(again.cached);
  EXPECT_EQ(ptxas.runs(), 2);
  EXPECT_EQ(again.outcome.message, first.outcome.message);
  EXPECT_NE(said.find("its checksum does not match its content; discarded, rebuilt"), std::string::npos) << said;
}

TEST(CacheTrust, ABatchRecordWhoseAcceptedWasFlippedIsNotBelieved) {
  // Before: flipping a kernel's "accepted" in a .batch.json changed the catalog's verdict.
  const Suite suite = small_suite();
  FakePtxas ptxas(kAccepts);
  Catalog first = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1);
  ASSERT_EQ(first.assemblies.size(), 2u);
  ASSERT_TRUE(first.assemblies[0].accepted);
  const fs::path record = only_file_ending(ptxas.dir / "catalog" / "cache", ".batch.json");
  ASSERT_FALSE(record.empty());
  std::string text = read_bytes(record);
  const std::size_t at = text.find("\"accepted\":[true");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 16, "\"accepted\":[fals");  // the same length: only the checksum can tell
  write_bytes(record, text);
  const int runs = ptxas.runs();
  testing::internal::CaptureStderr();
  CatalogStats stats;
  Catalog again = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1, &stats);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(again.assemblies[0].accepted);
  EXPECT_TRUE(again.assemblies[1].accepted);
  EXPECT_NE(said.find(record.string() + ": its checksum does not match its content"), std::string::npos) << said;
  EXPECT_EQ(ptxas.runs(), runs);  // the batch's module verdict is still good: no ptxas needed to rebuild the record
}

TEST(CacheTrust, PtxasOutputThatIsNoCubinForTheTargetIsAnError) {
  FakePtxas garbage("echo 'not an ELF file' > \"$3\"\n");
  Job job = job_of(garbage);
  run_job(garbage.tc, garbage.dir / "catalog", job);
  EXPECT_EQ(job.outcome.state, AssemblyState::Error);
  EXPECT_EQ(job.outcome.obtained,
            "ptxas exit 0, but its output is not a cubin for sm_90: 16 bytes: too short for an ELF header");
  EXPECT_EQ(garbage.cached(".cubin"), 0);
  EXPECT_EQ(garbage.cached(".log"), 0);
}

TEST(CacheTrust, TheCubinCheckReadsTheElfHeaderAndTarget) {
  FakePtxas ptxas(kAccepts);
  Job job = job_of(ptxas);
  run_job(ptxas.tc, ptxas.dir / "catalog", job);
  const std::string cubin = read_bytes(ptxas.dir / "catalog" / "cache" / (job.key + ".cubin"));
  EXPECT_EQ(cubin_problem(cubin, "sm_90"), std::nullopt);
  EXPECT_EQ(cubin_problem(cubin, "sm_90a"), std::nullopt);
  EXPECT_EQ(cubin_problem(cubin, "sm_80"), "an ELF object for sm_90, not sm_80");
  std::string x86 = cubin;
  x86[18] = 62;  // EM_X86_64
  EXPECT_EQ(cubin_problem(x86, "sm_90"), "ELF machine 62, not CUDA (190)");
  EXPECT_EQ(cubin_problem("\x7f"
                          "ELF",
                          "sm_90"),
            "4 bytes: too short for an ELF header");
}

TEST(CacheTrust, AProbeVerdictChangedOnDiskIsNotBelieved) {
  // Before: a flipped probe verdict became a FINDING in the audit.
  FakePtxas ptxas(kNoCubin);  // parse-only: exit 0 accepts every probe
  std::vector<Probe> probes(3);
  for (std::size_t k = 0; k < probes.size(); ++k) {
    probes[k].target = "sm_90";
    probes[k].ptx = *PtxVersion::parse("7.8");
    probes[k].body = "    bogus.instruction" + std::to_string(k) + ";";
  }
  const fs::path cache = ptxas.dir / "catalog" / "probes";
  auto first = assemble_probes(ptxas.tc, probes, cache, 1, ProbeMode::ParseOnly);
  // Both records that hold the verdict, flipped: the call's whole record (read first) and its module's.
  for (const char* ending : {".call", ".probes"}) {
    const fs::path record = only_file_ending(cache, ending);
    ASSERT_FALSE(record.empty()) << ending;
    std::string text = read_bytes(record);
    const std::size_t plus = text.find("\n+");
    ASSERT_NE(plus, std::string::npos) << text;
    text[plus + 1] = '-';
    write_bytes(record, text);
  }
  testing::internal::CaptureStderr();
  auto again = assemble_probes(ptxas.tc, probes, cache, 1, ProbeMode::ParseOnly);
  const std::string said = testing::internal::GetCapturedStderr();
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    EXPECT_TRUE(first[k].accepted) << k;
    EXPECT_EQ(again[k].accepted, first[k].accepted) << k;
  }
  EXPECT_NE(said.find("its checksum does not match its content"), std::string::npos) << said;
}

TEST(CacheTrust, AHangingPtxasCostsTwoTimeLimitsNotOnePerAssembly) {
  // Before: 300 s per batch, then 300 s per kernel: about 10 hours for the catalog, in silence.
  FakePtxas ptxas(kHangs);  // killed after 0.5 s
  auto t0 = std::chrono::steady_clock::now();
  testing::internal::CaptureStderr();
  std::vector<Job> jobs(6, job_of(ptxas));
  for (auto& j : jobs) run_job(ptxas.tc, ptxas.dir / "catalog", j);
  const std::string said = testing::internal::GetCapturedStderr();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 4.0);
  EXPECT_EQ(ptxas.runs(), Toolchain::kHangsBeforeGivingUp);
  for (std::size_t k = 0; k < jobs.size(); ++k) EXPECT_EQ(jobs[k].outcome.state, AssemblyState::Error) << k;
  EXPECT_EQ(jobs.back().outcome.obtained,
            "not run: ptxas hung 2 times in this process (each killed after 0.5 s), so the rest was abandoned");
  EXPECT_NE(said.find("ptxas hung: killed after 0.5 s (2 of 2 hangs allowed; the remaining assemblies are abandoned)"),
            std::string::npos)
      << said;
}

TEST(CacheTrust, AHangingPtxasAbandonsAWholeCatalogBuildAfterTwoLimits) {
  // Before: a hanging ptxas cost the limit once per batch, then once per kernel of it, in silence.
  Suite suite = build_suite(load_specs(spec_files()));
  std::vector<KernelPlan> keep;
  for (auto const& k : suite.kernels)
    if (k.family == "ldmatrix" || k.family == "movmatrix") keep.push_back(k);
  suite.kernels = keep;
  suite.specs.forms.clear();
  ASSERT_GE(suite.kernels.size(), 10u);
  FakePtxas ptxas(kHangs);  // killed after 0.5 s
  auto t0 = std::chrono::steady_clock::now();
  testing::internal::CaptureStderr();
  Catalog cat = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2);
  const std::string said = testing::internal::GetCapturedStderr();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 10.0);
  EXPECT_EQ(ptxas.runs(), Toolchain::kHangsBeforeGivingUp);
  ASSERT_EQ(cat.assemblies.size(), suite.kernels.size());
  // Every assembly attempted is an error; those beyond this ptxas's PTX ISA version never start.
  std::size_t attempted = 0;
  for (auto const& a : cat.assemblies) {
    EXPECT_FALSE(a.accepted) << a.kernel;
    attempted += a.attempted;
  }
  EXPECT_GT(attempted, 10u);
  EXPECT_EQ(cat.errors().size(), attempted);
  EXPECT_NE(said.find("ptxas hung: killed after 0.5 s (2 of 2 hangs allowed; the remaining assemblies are abandoned)"),
            std::string::npos)
      << said;
}

TEST(CacheTrust, ASealedRecordWithBytesThatAreNotUtf8CannotPoisonTheCatalog) {
  // Before: a record holding a message that is not UTF-8 made every later build abort when it wrote
  // the batch record or the manifest (nlohmann's dump() throws), until the cache was deleted by hand.
  const Suite suite = small_suite();
  FakePtxas ptxas(kRejects);  // the batch's message names a header line: each kernel is assembled alone
  Catalog first = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1);
  ASSERT_EQ(first.assemblies.size(), 2u);
  const fs::path cache = ptxas.dir / "catalog" / "cache";
  fs::remove(only_file_ending(cache, ".batch.json"));
  const fs::path rejected = cache / (fs::path(first.assemblies[0].ptx_file).stem().string() + ".rejected");
  ASSERT_EQ(read_sealed(rejected).state, SealedRead::State::Good) << rejected;
  write_sealed(rejected, "obtained: ptxas exit 255 with a message\nptxas \xff\xfe line 1; error   : bad byte");
  Catalog again;
  ASSERT_NO_THROW(again = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1));
  EXPECT_EQ(again.assemblies[0].message, "ptxas \xEF\xBF\xBD\xEF\xBF\xBD line 1; error   : bad byte");
  Catalog back;
  ASSERT_NO_THROW(back = load_catalog(ptxas.dir / "catalog"));
  EXPECT_EQ(back.assemblies[0].message, again.assemblies[0].message);
  EXPECT_EQ(ptxas.cached(".batch.json"), 1);  // the record was written again
}

TEST(CacheTrust, APtxasMessageThatIsNotUtf8IsKeptAsValidText) {
  // Before: nlohmann's dump() threw in save_record, and every later build aborted on the record.
  const Suite suite = small_suite();
  FakePtxas ptxas("printf 'ptxas \\377\\376 line 1; error   : bad byte\\n'; exit 255\n");
  Catalog first = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1);
  ASSERT_FALSE(first.assemblies.empty());
  EXPECT_FALSE(first.assemblies[0].accepted);
  EXPECT_NE(first.assemblies[0].message.find("\xEF\xBF\xBD\xEF\xBF\xBD"), std::string::npos)
      << first.assemblies[0].message;
  CatalogStats stats;
  Catalog again = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1, &stats);
  EXPECT_EQ(again.assemblies[0].message, first.assemblies[0].message);
  EXPECT_EQ(stats.ptxas_runs, 0);
}

TEST(CacheTrust, TwoProcessesBuildOneCatalogAtOnce) {
  // Before: "cannot rename ... .cubin.tmp" ended one of them with SIGABRT.
  const Suite suite = small_suite();
  FakePtxas ptxas("sleep 0.2\n" + kAccepts);
  pid_t kids[2];
  for (pid_t& kid : kids) {
    kid = ::fork();
    ASSERT_GE(kid, 0);
    if (kid == 0) {
      int rc = 1;
      try {
        Catalog c = build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 2);
        rc = c.errors().empty() && c.assemblies.size() == 2 && c.assemblies[0].accepted ? 0 : 3;
      } catch (...) { rc = 2; }
      std::_Exit(rc);
    }
  }
  for (pid_t kid : kids) {
    int status = 0;
    ::waitpid(kid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  Catalog back = load_catalog(ptxas.dir / "catalog");
  EXPECT_EQ(back.assemblies.size(), 2u);
  for (auto const& e : fs::directory_iterator(ptxas.dir / "catalog" / "cache"))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(CacheTrust, ARunDoesNotLaunchACubinDamagedAfterTheCatalogWasBuilt) {
  // A catalog copied with --no-assemble is read, not rebuilt: its cubins are checked against the
  // manifest's seals before anything is launched.
  const Suite suite = small_suite();
  FakePtxas ptxas(kAccepts);
  build_catalog(suite, ptxas.tc, read_skeletons(), ptxas.dir / "catalog", 1);
  Catalog cat = load_catalog(ptxas.dir / "catalog");
  ASSERT_TRUE(cat.assemblies[0].accepted);
  ASSERT_FALSE(cat.assemblies[0].cubin_seal.empty());
  const fs::path cubin = ptxas.dir / "catalog" / cat.assemblies[0].cubin;
  flip_last_bit(cubin);
  RunOptions opt;
  opt.runner = PTXCTS_FAKE_RUNNER;
  opt.catalog_dir = ptxas.dir / "catalog";
  DeviceRun run = run_on_device(suite, cat, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
  ASSERT_FALSE(run.results.empty());
  for (auto const& r : run.results) {
    EXPECT_EQ(r.status, Status::Error) << r.kernel << " / " << r.case_name;
    EXPECT_EQ(r.reason.find("the catalog's cubin " + cat.assemblies[0].cubin + " is damaged (64 bytes, not the 64 "),
              0u)
        << r.reason;
  }
}

// The report writers and the JSON reader: round trip, error positions, and what each view shows.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>
#include <string>
#include <tuple>

#include "report/run/report_files.hpp"
#include "report/run/report_html.hpp"
#include "report/run/report_junit.hpp"
#include "report/run/report_markdown.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"
#include "util/file_text.hpp"

namespace ptxcts {
namespace {

// Every field, by structured binding: adding a field to a struct stops this compiling, so no new
// field can slip past the round-trip test.
auto fields(const RunInfo& x) {
  auto const& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u] = x;
  return std::tie(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u);
}
auto fields(const CaseResult& x) {
  auto const& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q] = x;
  return std::tie(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q);
}
auto fields(const ClaimVerdict& x) {
  auto const& [a, b, c, d, e, f, g, h, i, j] = x;
  return std::tie(a, b, c, d, e, f, g, h, i, j);
}
auto fields(const Withdrawal& x) {
  auto const& [a, b] = x;
  return std::tie(a, b);
}

// Every status and every verdict, two families, and text that needs escaping in every format.
RunReport sample_report() {
  RunReport r;
  r.info = {.gpu_name = "NVIDIA H100 80GB HBM3",
            .compute_capability = "9.0",
            .sm = "sm_90",
            .driver_version = "580.159.04",
            .driver_cuda = "13.0",
            .cuda_release = "13.0",
            .ptxas_version = "13.0.88",
            .ptx_isa = "9.0",
            .toolchain = "precompiled cubin (ptxas)",
            .host = "node-7",
            .date = "2025-06-01T12:00:00Z",
            .suite_version = "0.1.0",
            .suite_commit = "0123abcd",
            .gpu_index = "1",
            .gpu_uuid = "GPU-8f0c1d2e-0000-1111-2222-333344445555",
            .gpu_pci_bus_id = "0000:1a:00.0",
            .gpus_at_once = "2",
            .fault_cases = "shared by GPUs 0, 1",
            .specs = "5d41402abc4b2a76b9719d911017c592",
            .slurm_job = "4242",
            .slurm_task = "3"};
  // distinct values, so that a field read into another's place shows
  r.timing = {.wall = 2.5,
              .first_launch = 0.25,
              .plan = 0.125,
              .runner_init = 0.5,
              .module_loads = 0.0625,
              .launches = 0.0312,
              .faults = 1.75,
              .compare = 0.375,
              .reports = 0.0156,
              .launch_count = 4072,
              .batch_count = 17,
              .runner_starts = 61,
              .peak_rss_mib = 97};
  r.results.push_back({.kernel = "ldmatrix_x1",
                       .family = "ldmatrix",
                       .instruction = "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
                       .case_name = "identity",
                       .target = "sm_90",
                       .ptx_isa = "8.7",
                       .status = Status::Pass,
                       .reason = "",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "lane 0: r0.lo=(0,0) r0.hi=(0,1)\nlane 1: r0.lo=(0,2) r0.hi=(0,3)\n",
                       .roundtrip_identity = true});
  r.results.push_back({.kernel = "ldmatrix_x4_trans",
                       .family = "ldmatrix",
                       .instruction = "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
                       .case_name = "random",
                       .target = "sm_90",
                       .ptx_isa = "8.7",
                       .status = Status::Fail,
                       .reason = "2 of 128 elements differ | first at lane 3",
                       .diff = {"lane 3 r0: expected 0x0001 got 0x0100", "lane 7 r1: expected `x` got \"y\" \\ <z>"},
                       .mismatches = 2,
                       .fault_case = false,
                       .observed_layout = "",
                       .ran_on = "GPU 0 (GPU-aaaa, PCI 0000:18:00.0)",
                       .roundtrip_identity = false});
  r.results.push_back({.kernel = "ldmatrix_b8",
                       .family = "ldmatrix",
                       .instruction = "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8",
                       .case_name = "identity",
                       .target = "",
                       .ptx_isa = "8.7",
                       .status = Status::Skip,
                       .reason = "sm_100a is not supported by this GPU",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_x2",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m8n8.x2.shared.b16",
                       .case_name = "identity",
                       .target = "sm_90",
                       .ptx_isa = "8.7",
                       .status = Status::Error,
                       .reason = "cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_x4",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m8n8.x4.shared.b16\nbar.sync 0;",
                       .case_name = "µ-case",
                       .target = "sm_90",
                       .ptx_isa = "8.7",
                       .status = Status::Crash,
                       .reason = "CUDA_ERROR_ILLEGAL_ADDRESS\nsecond line",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_x4",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m8n8.x4.shared.b16",
                       .case_name = "hang",
                       .target = "sm_90",
                       .ptx_isa = "7.8",
                       .status = Status::Timeout,
                       .reason = "no result within 30 s; the device runner was killed",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_x4",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m8n8.x4.shared.b16",
                       .case_name = "fault-misaligned-rows",
                       .target = "sm_90",
                       .ptx_isa = "7.8",
                       .status = Status::Crash,
                       .reason = "kernel: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = true,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  // A case the documents leave undefined on its target: it faulted, an observation (schema 10).
  r.results.push_back({.kernel = "ldmatrix_x1",
                       .family = "ldmatrix",
                       .instruction = "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
                       .case_name = "unique-poisoned-unused",
                       .target = "sm_75",
                       .ptx_isa = "8.7",
                       .status = Status::Crash,
                       .reason = "kernel: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .undefined = "\"For .target sm_75 or below, all threads must contain valid addresses. "
                                    "Otherwise, the behavior is undefined.\" (PTX ISA 9.0, 9.7.14.5.15; this code's "
                                    "target is sm_75)",
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_b8",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8",
                       .case_name = "identity",
                       .target = "",
                       .ptx_isa = "",
                       .status = Status::NotSupported,
                       .reason = "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 requires sm_100a; device is sm_90",
                       .diff = {},
                       .mismatches = 0,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt});
  r.results.push_back({.kernel = "stmatrix_x4",
                       .family = "stmatrix",
                       .instruction = "stmatrix.sync.aligned.m8n8.x4.shared.b16",
                       .case_name = "known-to-differ",
                       .target = "sm_90",
                       .ptx_isa = "7.8",
                       .status = Status::Fail,
                       .reason = "1 element(s) differ from the reference model",
                       .diff = {"lane 0 r0: expected 0x1 got 0x2"},
                       .mismatches = 1,
                       .fault_case = false,
                       .observed_layout = "",
                       .roundtrip_identity = std::nullopt,
                       .known = "a driver bug (https://example.org/bug/1)"});
  r.claims.push_back({.id = "ldmatrix-x1-layout",
                      .family = "ldmatrix",
                      .text = "Thread i holds row i/4",
                      .source = "PTX ISA 9.0 §9.7.14.5.15",
                      .note = "",
                      .verdict = Verdict::Confirmed,
                      .evidence = "ldmatrix_x1/identity passed",
                      .checked = {"ldmatrix_x1/identity"}});
  r.claims.push_back({.id = "ldmatrix-trans",
                      .family = "ldmatrix",
                      .text = "With .trans the matrix is | transposed",
                      .source = "PTX ISA 9.0, figure 110",
                      .note = "figure only",
                      .verdict = Verdict::Contradicted,
                      .evidence = "ldmatrix_x4_trans/random failed",
                      .checked = {"ldmatrix_x4_trans/random", "ldmatrix_x1/identity"}});
  r.claims.push_back({.id = "stmatrix-b8",
                      .family = "stmatrix",
                      .text = "b8 needs sm_100a",
                      .source = "PTX ISA 9.0 §9.7.14.5.16",
                      .note = "",
                      .verdict = Verdict::NotCheckable,
                      .evidence = "no sm_100a GPU in this run",
                      .checked = {}});
  r.claims.push_back({.id = "stmatrix-generic-outside-shared",
                      .family = "stmatrix",
                      .text = "the behaviour is undefined",
                      .source = "PTX ISA 9.0 §9.7.14.5.16",
                      .note = "",
                      .verdict = Verdict::Observed,
                      .evidence = "undefined behaviour, observed: 1 of 1 selected cases ran",
                      .checked = {"stmatrix_x4/fault-misaligned-rows"}});
  r.withdrawn.push_back({.what = "ldmatrix_x2 / identity", .reason = "the x2 form | is covered by x4"});
  r.withdrawn.push_back({.what = "claim ldmatrix-old", .reason = "merged into ldmatrix-x1-layout"});
  return r;
}

TEST(ReportJson, RoundTripPreservesEveryField) {
  RunReport original = sample_report();
  RunReport back = parse_report_json(report_json(original), "r.json");
  EXPECT_EQ(fields(back.info), fields(original.info));
  ASSERT_EQ(back.results.size(), original.results.size());
  for (std::size_t i = 0; i < original.results.size(); ++i)
    EXPECT_EQ(fields(back.results[i]), fields(original.results[i])) << "results[" << i << "]";
  ASSERT_EQ(back.claims.size(), original.claims.size());
  for (std::size_t i = 0; i < original.claims.size(); ++i)
    EXPECT_EQ(fields(back.claims[i]), fields(original.claims[i])) << "claims[" << i << "]";
  ASSERT_EQ(back.withdrawn.size(), original.withdrawn.size());
  for (std::size_t i = 0; i < original.withdrawn.size(); ++i)
    EXPECT_EQ(fields(back.withdrawn[i]), fields(original.withdrawn[i])) << "withdrawn[" << i << "]";
  EXPECT_TRUE(back.timing == original.timing);
  EXPECT_EQ(back.timing.faults, 1.75);
  EXPECT_EQ(back.timing.runner_starts, 61);
}

TEST(ReportJson, ATimingThatIsNotADurationIsPlaced) {
  std::string text = report_json(sample_report());
  const std::string from = "\"faults_s\": 1.75", to = "\"faults_s\": -1";
  ASSERT_NE(text.find(from), std::string::npos) << text;
  text.replace(text.find(from), from.size(), to);
  try {
    parse_report_json(text, "r.json");
    FAIL() << "a negative duration was read";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("timing.faults_s: expected a duration of 0 s or more, got -1"),
              std::string::npos)
        << e.what();
  }
}

TEST(ReportJson, WritesSchemaVersionTotalsAndStrings) {
  std::string text = report_json(sample_report());
  EXPECT_EQ(text.rfind("{\n \"schema_version\": 10,\n \"kind\": \"run\",\n \"run\": {\n  \"gpu_name\": ", 0), 0u)
      << text;
  // Every outcome over every case (fault cases among them, as faulted / no-fault; the case undefined on
  // its target as undefined, whatever it did): 10 cases.
  EXPECT_NE(text.find("\"totals\": {\n  \"pass\": 1,\n  \"fail\": 2,\n  \"not-supported\": 1,\n  \"skipped\": 1,\n"
                      "  \"error\": 1,\n  \"crash\": 1,\n  \"timeout\": 1,\n  \"faulted\": 1,\n  \"no-fault\": 0,\n"
                      "  \"faulted-where-allowed\": 0,\n  \"undefined\": 1\n }"),
            std::string::npos)
      << text;
  // The summary: the verdict line, the exit status, and the counts (the known failure needs no action).
  EXPECT_NE(text.find("\"summary\": {\n  \"verdict\": \"Does not conform: 4 of 10 cases need action (1 failed, 1 "
                      "error, 1 crashed, 1 timed out); 1 as documented, 1 not supported on sm_90, 1 skipped; 1 fault "
                      "case faulted as the rule says; 1 undefined on sm_75, observed; 1 documentation finding; 1 known "
                      "difference (expectations).\",\n"
                      "  \"exit_status\": 1,\n  \"cases\": 10,\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"status\": \"crash\",\n   \"outcome\": \"faulted\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"status\": \"crash\",\n   \"outcome\": \"undefined\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"status\": \"not-supported\""), std::string::npos);
  EXPECT_NE(text.find("\"status\": \"crash\""), std::string::npos);
  EXPECT_NE(text.find("\"verdict\": \"not-checkable\""), std::string::npos);
  EXPECT_NE(text.find("\"verdict\": \"observed\""), std::string::npos);
  EXPECT_NE(text.find("\"case\": \"identity\""), std::string::npos);
  EXPECT_NE(text.find("\"withdrawn\": [\n  {\n   \"what\": \"ldmatrix_x2 / identity\",\n   \"reason\": \"the x2 form | "
                      "is covered by x4\"\n  },"),
            std::string::npos)
      << text;
}

// A complete, valid report whose line and column numbers can be read off the text.
const std::string kMinimal = R"json({
 "schema_version": 2,
 "run": {
  "gpu_name": "NVIDIA H100 80GB HBM3",
  "compute_capability": "9.0",
  "sm": "sm_90",
  "driver_version": "580.159.04",
  "driver_cuda": "13.0",
  "cuda_release": "13.0",
  "ptxas_version": "13.0.88",
  "ptx_isa": "9.0",
  "toolchain": "precompiled cubin (ptxas)",
  "host": "node-7",
  "date": "2025-06-01T12:00:00Z",
  "suite_version": "0.1.0",
  "suite_commit": "0123abcd"
 },
 "totals": {"pass": 1, "fail": 0, "skip": 0, "error": 0, "crash": 0, "timeout": 0},
 "results": [
  {"kernel": "ldmatrix_x1", "family": "ldmatrix", "instruction": "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
   "case": "identity", "status": "pass", "target": "sm_90", "ptx_isa": "8.7", "reason": "",
   "mismatches": 0, "diff": [], "fault_case": false}
 ],
 "claims": [
  {"id": "c1", "family": "ldmatrix", "text": "t", "source": "s", "note": "",
   "verdict": "confirmed", "evidence": "e", "checked": ["ldmatrix_x1/identity"]}
 ]
}
)json";

// kMinimal with `from` (which must occur exactly once) replaced by `to`.
std::string variant(const std::string& from, const std::string& to) {
  auto at = kMinimal.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(kMinimal.find(from, at + 1), std::string::npos) << from;
  std::string s = kMinimal;
  return s.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    parse_report_json(text, "r.json");
  } catch (const ReportError& e) { return e.what(); }
  return "(no error)";
}

TEST(ReportJson, MinimalReportParses) {
  RunReport r = parse_report_json(kMinimal, "r.json");
  EXPECT_EQ(r.info.suite_commit, "0123abcd");
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].status, Status::Pass);
  ASSERT_EQ(r.claims.size(), 1u);
  EXPECT_EQ(r.claims[0].verdict, Verdict::Confirmed);
}

TEST(ReportJson, InvalidJsonNamesThePosition) {
  EXPECT_EQ(error_of(variant(R"({"pass": 1,)", R"({"pass": 1;)")),
            "r.json:18:22: invalid JSON: syntax error while parsing object - invalid literal; last read: '1;'; "
            "expected '}'");
  EXPECT_EQ(error_of("{\n \"schema_version\": 2,"),
            "r.json:2:22: invalid JSON: syntax error while parsing object key - unexpected end of input; "
            "expected string literal");
}

TEST(ReportJson, MissingResults) {
  auto results =
      kMinimal.substr(kMinimal.find(" \"results\""), kMinimal.find(" \"claims\"") - kMinimal.find(" \"results\""));
  EXPECT_EQ(error_of(variant(results, "")), "r.json:1:1: top level: missing key \"results\"");
}

TEST(ReportJson, UnknownStatus) {
  EXPECT_EQ(
      error_of(variant(R"("status": "pass")", R"("status": "passed")")),
      "r.json:21:34: results[0].status: unknown status 'passed'; expected pass, fail, not-supported, skipped, error, "
      "crash or timeout");
}

TEST(ReportJson, WrongSchemaVersion) {
  EXPECT_EQ(error_of(variant(R"("schema_version": 2,)", R"("schema_version": 1,)")),
            "r.json:2:20: schema_version: expected 2 to 10 (the schema versions this build reads), got 1");
  EXPECT_EQ(error_of(variant(R"("schema_version": 2,)", R"("schema_version": 11,)")),
            "r.json:2:20: schema_version: expected 2 to 10 (the schema versions this build reads), got 11");
}

// kMinimal as schema 4: with its `withdrawn` list, `withdrawn` (which must name what the report lacks).
std::string schema4(const std::string& withdrawn) {
  std::string s = variant(R"("schema_version": 2,)", R"("schema_version": 4,)");
  std::string end = " ]\n}\n";
  EXPECT_EQ(s.substr(s.size() - end.size()), end);
  return s.substr(0, s.size() - 3) + ",\n \"withdrawn\": [" + withdrawn + "]\n}\n";
}

// Schemas 2 and 3 have no `withdrawn`; 4 must have it. Each version reads with exactly its keys.
TEST(ReportJson, ReadsSchemas2To4) {
  EXPECT_EQ(error_of(variant(R"("schema_version": 2,)", R"("schema_version": 3,)")), "(no error)");
  RunReport r = parse_report_json(schema4(R"(
  {"what": "ldmatrix_x2 / identity", "reason": "renamed"},
  {"what": "claim c0", "reason": "merged into c1"},
  {"what": "layout ldmatrix_x1 / identity", "reason": "not a wmma form"})"),
                                  "r.json");
  ASSERT_EQ(r.withdrawn.size(), 3u);
  EXPECT_EQ(r.withdrawn[1].what, "claim c0");
  EXPECT_EQ(r.withdrawn[1].reason, "merged into c1");
  EXPECT_EQ(error_of(variant(R"("schema_version": 2,)", R"("schema_version": 4,)")),
            "r.json:1:1: top level: missing key \"withdrawn\"");
  std::string v2 = schema4("");
  v2.replace(v2.find("4,"), 1, "2");
  EXPECT_EQ(error_of(v2),
            "r.json:28:15: withdrawn: unknown key \"withdrawn\"; expected one of schema_version, run, totals, results, "
            "claims");
}

// 5 is 4 with the verdict observed; before 5 an observation was written not-checkable, so an older
// report that says observed was not written by ptxcts.
TEST(ReportJson, TheVerdictObservedIsFromSchema5On) {
  std::string v5 = schema4("");
  v5.replace(v5.find("4,"), 1, "5");
  const std::string confirmed = R"("verdict": "confirmed")", observed = R"("verdict": "observed")";
  v5.replace(v5.find(confirmed), confirmed.size(), observed);
  RunReport r = parse_report_json(v5, "r.json");
  ASSERT_EQ(r.claims.size(), 1u);
  EXPECT_EQ(r.claims[0].verdict, Verdict::Observed);
  std::string v4 = v5;
  v4.replace(v4.find("5,"), 1, "4");
  EXPECT_EQ(error_of(v4),
            "r.json:26:15: claims[0].verdict: verdict 'observed' is from schema_version 5 on; this report is "
            "schema_version 4");
  EXPECT_EQ(error_of(variant(R"("verdict": "confirmed")", R"("verdict": "observed")")),
            "r.json:26:15: claims[0].verdict: verdict 'observed' is from schema_version 5 on; this report is "
            "schema_version 2");
}

// The run reports committed in reports/ (the H100 one is schema 4; not the audits nor the toolkit matrix) still read:
// `ptxcts diff` compares a new run with them.
TEST(ReportJson, CommittedRunReportsStillRead) {
  int read = 0;
  for (auto const& e : std::filesystem::directory_iterator(PTXCTS_SOURCE_DIR "/reports")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".json.gz") || name.starts_with("audit-") || name.starts_with("sass-") ||
        name.starts_with("toolkits."))
      continue;
    RunReport r;
    EXPECT_NO_THROW(r = parse_report_json(read_file_text(e.path()), name)) << name;
    EXPECT_FALSE(r.results.empty()) << name;
    EXPECT_FALSE(r.claims.empty()) << name;
    ++read;
  }
  EXPECT_GE(read, 6);
  // An excerpt of the H100 report written at 2f83cb8 (schema 4: every claim, a few results), kept
  // as test data because the committed report is replaced by every run.
  std::ifstream in(PTXCTS_TEST_DATA "/reports/h100-schema4-excerpt.json");
  std::stringstream text;
  text << in.rdbuf();
  RunReport h100 = parse_report_json(text.str(), "h100-schema4-excerpt.json");
  int not_checkable = 0;
  for (auto const& c : h100.claims) not_checkable += c.verdict == Verdict::NotCheckable;
  EXPECT_EQ(not_checkable, 4);  // schema 4: its three observations among them, never "observed"
}

TEST(ReportJson, WithdrawnErrors) {
  EXPECT_EQ(
      error_of(schema4(R"({"what": "ldmatrix_x2", "reason": "r"})")),
      "r.json:28:25: withdrawn[0].what: expected \"KERNEL / CASE\", \"claim ID\" or \"layout KERNEL / CASE\", got "
      "\"ldmatrix_x2\"");
  EXPECT_EQ(error_of(schema4(R"({"what": "claim ", "reason": "r"})")),
            "r.json:28:25: withdrawn[0].what: expected \"KERNEL / CASE\", \"claim ID\" or \"layout KERNEL / CASE\", "
            "got \"claim \"");
  EXPECT_EQ(error_of(schema4(R"({"what": "claim c0", "reason": ""})")),
            "r.json:28:47: withdrawn[0].reason: expected why it was withdrawn, got an empty string");
  EXPECT_EQ(error_of(schema4(R"({"what": "claim c0", "why": "r"})")),
            "r.json:28:44: withdrawn[0].why: unknown key \"why\"; expected one of what, reason");
  EXPECT_EQ(error_of(schema4(R"({"what": "claim c0", "reason": "a"},
  {"what": "claim c0", "reason": "b"})")),
            "r.json:29:3: withdrawn[1]: duplicate withdrawal of claim c0 (first at r.json:28:16, withdrawn[0])");
  // What a report withdraws, it must lack.
  EXPECT_EQ(error_of(schema4(R"({"what": "ldmatrix_x1 / identity", "reason": "r"})")),
            "r.json:28:25: withdrawn[0].what: \"ldmatrix_x1 / identity\" is withdrawn but present (results[0] at "
            "r.json:20:3); "
            "expected only what this report lacks");
  EXPECT_EQ(error_of(schema4(R"({"what": "claim c1", "reason": "r"})")),
            "r.json:28:25: withdrawn[0].what: \"claim c1\" is withdrawn but present (claims[0] at r.json:25:3); "
            "expected only what this report lacks");
  std::string with_layout = schema4(R"({"what": "layout ldmatrix_x1 / identity", "reason": "r"})");
  with_layout.replace(with_layout.find(R"("fault_case": false)"), 19,
                      R"("fault_case": false, "observed_layout": "lane 0: r0=(0,0)\n")");
  EXPECT_EQ(error_of(with_layout),
            "r.json:28:25: withdrawn[0].what: \"layout ldmatrix_x1 / identity\" is withdrawn but present (results[0] "
            "at r.json:20:3); "
            "expected only what this report lacks");
}

// Two results for one (kernel, case), or two verdicts for one claim: which one the run meant is
// unknowable, so the second is an error that names the first.
TEST(ReportJson, DuplicateResultOrClaim) {
  const std::string result = kMinimal.substr(kMinimal.find("  {\"kernel\""),
                                             kMinimal.find(" ],\n \"claims\"") - kMinimal.find("  {\"kernel\""));
  std::string twice = variant(result, result.substr(0, result.size() - 1) + ",\n" + result);
  twice.replace(twice.find(R"("pass": 1,)"), 10, R"("pass": 2,)");
  EXPECT_EQ(error_of(twice),
            "r.json:23:3: results[1]: duplicate result for ldmatrix_x1 / identity (first at r.json:20:3, results[0])");
  // The same kernel with another case is no duplicate.
  std::string other = twice;
  other.replace(other.rfind(R"("case": "identity")"), 18, R"("case": "random")");
  EXPECT_EQ(error_of(other), "(no error)");

  const std::string claim =
      kMinimal.substr(kMinimal.find("  {\"id\""), kMinimal.find(" ]\n}") - kMinimal.find("  {\"id\""));
  EXPECT_EQ(error_of(variant(claim, claim.substr(0, claim.size() - 1) + ",\n" + claim)),
            "r.json:27:3: claims[1]: duplicate claim c1 (first at r.json:25:3, claims[0])");
}

TEST(ReportJson, StructuralErrorsPointAtTheValue) {
  EXPECT_EQ(error_of(variant(R"("verdict": "confirmed")", R"("verdict": "refuted")")),
            "r.json:26:15: claims[0].verdict: unknown verdict 'refuted'; expected confirmed, contradicted, "
            "not-checkable, observed or undecided");
  EXPECT_EQ(error_of(variant(R"("mismatches": 0)", R"("mismatches": "0")")),
            "r.json:22:18: results[0].mismatches: expected an integer, got string \"0\"");
  EXPECT_EQ(error_of(variant(R"("mismatches": 0)", R"("mismatches": -1)")),
            "r.json:22:18: results[0].mismatches: expected an integer from 0 to 2147483647, got -1");
  // A missing key points at the object that lacks it.
  EXPECT_EQ(error_of(variant(R"("case": "identity", )", "")), "r.json:20:3: results[0]: missing key \"case\"");
  EXPECT_EQ(error_of(variant(R"("host": "node-7",)", R"("hostname": "node-7",)")),
            "r.json:13:15: run.hostname: unknown key \"hostname\"; expected one of gpu_name, compute_capability, sm, "
            "driver_version, driver_cuda, cuda_release, ptxas_version, ptx_isa, toolchain, host, date, "
            "suite_version, suite_commit");
  EXPECT_EQ(error_of(variant(R"("pass": 1,)", R"("pass": 2,)")),
            "r.json:18:21: totals.pass: expected 1 (the number of results with status pass), got 2");
  // Scalars inside arrays have no recorded position: the array's is the nearest.
  EXPECT_EQ(error_of(variant(R"(["ldmatrix_x1/identity"])", "[7]")),
            "r.json:26:56: claims[0].checked[0]: expected a string, got number 7");
  EXPECT_EQ(error_of(variant(R"("text": "t",)", R"("text": "t", "text": "u",)")),
            "r.json:25:59: claims[0].text: duplicate key \"text\"");
  EXPECT_EQ(error_of("[1]"), "r.json:1:1: top level: expected an object, got array");
}

TEST(ReportJson, ColumnsCountCharactersNotBytes) {
  EXPECT_EQ(error_of(variant(R"("host": "node-7",)", R"("host": "nœud", "x": 1,)")),
            "r.json:13:24: run.x: unknown key \"x\"; expected one of gpu_name, compute_capability, sm, "
            "driver_version, driver_cuda, cuda_release, ptxas_version, ptx_isa, toolchain, host, date, "
            "suite_version, suite_commit");
}

TEST(ReportMarkdown, ClaimsBeforeResultsContradictedFirst) {
  std::string md = report_markdown(sample_report());
  EXPECT_EQ(md.rfind("# ptxcts report: NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0\n", 0), 0u);
  auto claims = md.find("## Claims");
  auto results = md.find("## Results");
  ASSERT_NE(claims, std::string::npos);
  ASSERT_NE(results, std::string::npos);
  EXPECT_LT(claims, results);
  auto contradicted = md.find("| ldmatrix-trans |");
  auto confirmed = md.find("| ldmatrix-x1-layout |");
  ASSERT_NE(contradicted, std::string::npos);
  ASSERT_NE(confirmed, std::string::npos);
  EXPECT_LT(contradicted, confirmed);
  EXPECT_LT(confirmed, results);
  EXPECT_NE(md.find("**Cases:** 10 (6 kernels, each with its cases): 1 passed, 2 failed, 1 not supported, 1 skipped, 1 "
                    "error, 1 crashed, 1 timed out, 1 faulted as the rule says, 1 undefined on its target, observed\n"),
            std::string::npos)
      << md;
  // The verdict comes first, before the run's table.
  EXPECT_LT(md.find("**Does not conform: 4 of 10 cases need action"), md.find("| Run | |"));
  EXPECT_NE(md.find("| suite_commit | 0123abcd |"), std::string::npos);
  EXPECT_LT(md.find("### ldmatrix"), md.find("### stmatrix"));
}

TEST(ReportMarkdown, EscapesPipesAndKeepsRowsWhole) {
  std::string md = report_markdown(sample_report());
  EXPECT_NE(md.find("2 of 128 elements differ \\| first at lane 3"), std::string::npos);
  EXPECT_NE(md.find("With .trans the matrix is \\| transposed"), std::string::npos);
  EXPECT_NE(md.find("CUDA_ERROR_ILLEGAL_ADDRESS<br>second line"), std::string::npos);
  // Every table row has as many unescaped '|' as its table has columns + 1.
  std::istringstream in(md);
  int rows = 0, pipes_per_row = 3;  // the run table: field, value
  for (std::string line; std::getline(in, line);) {
    if (line == "## Claims") pipes_per_row = 6;
    if (line == "## Withdrawn") pipes_per_row = 3;
    if (line == "## Results") pipes_per_row = 7;
    if (line.rfind("| ", 0) != 0) continue;
    int pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    EXPECT_EQ(pipes, pipes_per_row) << line;
    ++rows;
  }
  EXPECT_EQ(rows, (1 + 22) + (1 + 4) + (1 + 2) +
                      (2 + 10));  // header + rows: run (21 fields + schema), claims, withdrawn, results
  EXPECT_NE(
      md.find(
          "## Withdrawn\n\n| What | Why |\n|---|---|\n| ldmatrix_x2 / identity | the x2 form \\| is covered by x4 |\n"
          "| claim ldmatrix-old | merged into ldmatrix-x1-layout |\n"),
      std::string::npos)
      << md;
}

// A case another GPU ran for this report (shared fault cases) says which, beside its reason.
TEST(ReportMarkdown, ACaseAnotherGpuRanNamesIt) {
  std::string md = report_markdown(sample_report());
  EXPECT_NE(md.find("| 2 of 128 elements differ \\| first at lane 3 (ran on GPU 0 (GPU-aaaa, PCI 0000:18:00.0)) |"),
            std::string::npos)
      << md;
}

TEST(ReportMarkdown, FailureDiffInCodeBlock) {
  std::string md = report_markdown(sample_report());
  EXPECT_NE(md.find("```text\nlane 3 r0: expected 0x0001 got 0x0100\nlane 7 r1: expected `x` got \"y\" \\ <z>\n```"),
            std::string::npos)
      << md;
}

int count_children(pugi::xml_node suite, const char* child) {
  int n = 0;
  for (auto tc : suite.children("testcase")) n += !tc.child(child).empty();
  return n;
}

TEST(ReportJunit, ParsesBackWithCountsPerSuite) {
  std::string xml = report_junit(sample_report());
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  auto suites = doc.child("testsuites");
  ASSERT_FALSE(suites.empty());
  // One testcase per case, per claim and for the run's verdict, the root's totals the sums of its
  // suites; a <failure> or <error> only where `ptxcts run` exits 1 (the known failure, the fault case's
  // crash and the undefined case's are not; the verdict's failure says the run exits 1).
  EXPECT_EQ(suites.attribute("tests").as_int(), 10 + 4 + 1);
  EXPECT_EQ(suites.attribute("failures").as_int(), 1 + 1);
  EXPECT_EQ(suites.attribute("errors").as_int(), 3);  // error, crash, timeout
  EXPECT_TRUE(suites.attribute("skipped").empty()) << "Jenkins' JUnit schema has no skipped on the root";

  struct Expected {
    const char* name;
    int tests, failures, errors, skipped;
  };
  // Each family's cases and claims (a claim not checkable: skipped), then the run's verdict.
  Expected expected[] = {{"ptxcts.ldmatrix", 4 + 2, 1, 0, 1}, {"ptxcts.stmatrix", 6 + 2, 0, 3, 1 + 1}, {"ptxcts.run", 1, 1, 0, 0}};
  auto suite = suites.child("testsuite");
  for (auto const& e : expected) {
    ASSERT_FALSE(suite.empty()) << e.name;
    EXPECT_STREQ(suite.attribute("name").as_string(), e.name);
    EXPECT_EQ(suite.attribute("tests").as_int(), e.tests) << e.name;
    EXPECT_EQ(suite.attribute("failures").as_int(), e.failures) << e.name;
    EXPECT_EQ(suite.attribute("errors").as_int(), e.errors) << e.name;
    EXPECT_EQ(suite.attribute("skipped").as_int(), e.skipped) << e.name;
    // The counts agree with the testcases themselves.
    EXPECT_EQ(std::distance(suite.children("testcase").begin(), suite.children("testcase").end()), e.tests);
    EXPECT_EQ(count_children(suite, "failure"), e.failures) << e.name;
    EXPECT_EQ(count_children(suite, "error"), e.errors) << e.name;
    EXPECT_EQ(count_children(suite, "skipped"), e.skipped) << e.name;
    suite = suite.next_sibling("testsuite");
  }
  EXPECT_TRUE(suite.empty());

  // Issue 41: classname family then form, no dot inside a level; the name as `--cases` takes it.
  auto failed = suites.find_node([](pugi::xml_node n) {
    return n.child("failure") && n.attribute("name").as_string() == std::string("ldmatrix_x4_trans/random");
  });
  ASSERT_FALSE(failed.empty());
  EXPECT_STREQ(failed.attribute("classname").as_string(), "ptxcts.ldmatrix.ldmatrix-sync-aligned-m8n8-x4-trans-shared-b16");
  EXPECT_STREQ(failed.child("failure").attribute("message").as_string(), "2 of 128 elements differ | first at lane 3");
  EXPECT_NE(std::string(failed.child("failure").text().as_string()).find("lane 7 r1: expected `x` got \"y\" \\ <z>"),
            std::string::npos);
  auto crashed = suites.find_node([](pugi::xml_node n) {
    return n.attribute("classname").as_string() == std::string("ptxcts.stmatrix.stmatrix-sync-aligned-m8n8-x4-shared-b16_bar-sync_0;");
  });
  EXPECT_STREQ(crashed.child("error").attribute("type").as_string(), "crash");
  EXPECT_STREQ(crashed.attribute("name").as_string(), "stmatrix_x4/µ-case");
  auto by_name = [&](const char* name) {
    return suites.find_node([&](pugi::xml_node n) { return n.attribute("name").as_string() == std::string(name); });
  };
  // The fault case faulted as its rule says: an observation, in the suite's words, never an error.
  auto faulted = by_name("stmatrix_x4/fault-misaligned-rows");
  ASSERT_FALSE(faulted.empty());
  EXPECT_TRUE(faulted.child("error").empty() && faulted.child("failure").empty());
  EXPECT_EQ(std::string(faulted.child("system-out").text().as_string()).rfind("outcome: faulted as the rule says", 0), 0u);
  auto known = by_name("stmatrix_x4/known-to-differ");
  EXPECT_TRUE(known.child("failure").empty());
  EXPECT_NE(std::string(known.child("system-out").text().as_string()).find("known difference: a driver bug"),
            std::string::npos);
  // The verdict a property of every suite; the run's verdict and each claim a testcase (issue 41).
  auto first = suites.child("testsuite");
  auto property = [&](const std::string& name) {
    return first.child("properties").find_child_by_attribute("property", "name", name.c_str()).attribute("value");
  };
  // Every testcase timed.
  EXPECT_EQ(suites.select_nodes("//testcase[not(@time)]").size(), 0u);
  // The case undefined on its target faulted: an observation too, with the documents' words.
  auto undefined = by_name("ldmatrix_x1/unique-poisoned-unused");
  ASSERT_FALSE(undefined.empty());
  EXPECT_TRUE(undefined.child("error").empty() && undefined.child("failure").empty());
  const std::string said = undefined.child("system-out").text().as_string();
  EXPECT_EQ(said.rfind("outcome: undefined on its target, observed", 0), 0u) << said;
  EXPECT_NE(said.find("the GPU faulted (kernel: CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << said;
  EXPECT_NE(said.find("For .target sm_75 or below"), std::string::npos) << said;
  EXPECT_EQ(std::string(property("verdict").as_string()).rfind("Does not conform: 4 of 10 cases need action", 0), 0u);
  auto contradicted = suites.select_node("//testcase[@classname='ptxcts.ldmatrix.claims'][@name='ldmatrix-trans']").node();
  ASSERT_FALSE(contradicted.empty());
  EXPECT_TRUE(contradicted.child("failure").empty() && contradicted.child("error").empty()) << "a finding, no failure";
  EXPECT_EQ(std::string(contradicted.child("system-out").text().as_string())
                .rfind("documentation finding: claim ldmatrix-trans: contradicted", 0),
            0u);
  EXPECT_FALSE(suites.select_node("//testcase[@name='stmatrix-b8']/skipped").node().empty()) << "not checkable";
  auto verdict = suites.select_node("//testcase[@classname='ptxcts.run'][@name='verdict']").node();
  EXPECT_EQ(std::string(verdict.child("failure").attribute("message").as_string()).rfind("Does not conform: 4 of 10", 0), 0u);
}

TEST(ReportJunit, DropsControlCharactersXmlCannotHold) {
  RunReport r = sample_report();
  r.results[3].reason = std::string("bad\x01 byte");
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(report_junit(r).c_str()));
  auto errored = doc.find_node([](pugi::xml_node n) { return n.name() == std::string("error"); });
  EXPECT_STREQ(errored.attribute("message").as_string(), "bad byte");
}

TEST(ReportFiles, Basename) {
  RunInfo info;
  info.gpu_name = "NVIDIA H100 80GB HBM3";
  info.sm = "sm_90";
  info.driver_version = "580.159.04";
  info.cuda_release = "13.0";
  EXPECT_EQ(report_basename(info), "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0");
}

// The JIT column's reports lie beside the cubin run's, never over them.
TEST(ReportFiles, AJitRunsNameEndsInJit) {
  RunInfo info;
  info.gpu_name = "NVIDIA H100 80GB HBM3";
  info.sm = "sm_90";
  info.driver_version = "580.159.04";
  info.cuda_release = "13.0";
  info.toolchain = cubin_toolchain("13.0.88");
  EXPECT_EQ(info.toolchain, "precompiled cubin (ptxas 13.0.88)");
  EXPECT_FALSE(ran_driver_jit(info));
  EXPECT_EQ(report_basename(info), "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0");
  info.toolchain = jit_toolchain("580.159.04", "13.0");
  EXPECT_EQ(info.toolchain, "driver JIT (cuModuleLoadDataEx), driver 580.159.04 (CUDA 13.0)");
  EXPECT_TRUE(ran_driver_jit(info));
  EXPECT_EQ(report_basename(info), "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0-jit");
}

TEST(ReportFiles, BasenameCannotNameAnotherDirectory) {
  RunInfo info;
  info.gpu_name = "../../etc/NVIDIA  H100/";
  info.sm = "sm_90/..";
  info.driver_version = "..\\..";
  info.cuda_release = "";
  std::string base = report_basename(info);
  EXPECT_EQ(base, "etc-nvidia-h100-sm_90-..-driver..-..-cudaunknown");
  EXPECT_EQ(base.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-"), std::string::npos) << base;
  EXPECT_EQ((std::filesystem::path("reports") / (base + ".json")).parent_path(), "reports");
}

TEST(ReportFiles, WritesAllFourFormats) {
  auto dir = std::filesystem::temp_directory_path() / ("ptxcts_test_reports_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  RunReport report = sample_report();
  write_reports(report, dir / "sub");
  std::string base = (dir / "sub" / "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0").string();
  for (const char* ext : {".json", ".md", ".xml", ".html"})
    EXPECT_TRUE(std::filesystem::is_regular_file(base + ext)) << ext;
  std::ifstream in(base + ".json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(parse_report_json(text.str(), base + ".json").results.size(), report.results.size());
  // And the pages' style sheet beside the page, which links it: five files.
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "sub" / "ptxcts.css"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "sub"), std::filesystem::directory_iterator()), 5);
  std::filesystem::remove_all(dir);
}

// An edge case the manual allows (isolated like a fault case) that faulted is not "as the rule says":
// its own outcome, counted apart in the verdict; an older schema-9 report without the field reads as
// before, its totals without the new key.
TEST(ReportJson, AnEdgeCaseThatFaultedIsNotFaultedAsTheRuleSays) {
  RunReport r = sample_report();
  CaseResult edge = r.results[6];  // the fault case that crashed
  ASSERT_TRUE(edge.fault_case);
  ASSERT_EQ(edge.status, Status::Crash);
  edge.case_name = "wmma-minimal-alignment-address";
  edge.fault_expected = false;
  r.results.push_back(edge);
  EXPECT_EQ(outcome_of(r.results.back()), Outcome::FaultedWhereAllowed);
  EXPECT_FALSE(needs_action(r.results.back()));
  EXPECT_NE(verdict_line(r).find("; 1 fault case faulted as the rule says, 1 faulted where the manual allows it;"),
            std::string::npos)
      << verdict_line(r);
  const std::string text = report_json(r);
  EXPECT_NE(text.find("\"faulted-where-allowed\": 1"), std::string::npos);
  EXPECT_EQ(parse_report_json(text, "r.json").results.back().fault_expected, false);
}

}  // namespace
}  // namespace ptxcts

using namespace ptxcts;  // the tests below, outside the namespace (a non-unity build sees no other file's)

namespace {
// Two cases, one failing; a contradicted claim (a finding) and an undecided one (its cases need action).
RunReport undecided_report() {
  RunReport r = sample_report();
  r.results.resize(2);
  r.results[0].status = Status::Pass;
  r.results[1].status = Status::Fail;
  r.results[1].fault_case = false;
  r.results[1].known = "";
  r.claims = {sample_report().claims[0], sample_report().claims[1], sample_report().claims[0]};
  r.claims[0].verdict = Verdict::Confirmed;
  r.claims[2].id = "ldmatrix-undecided";
  r.claims[2].verdict = Verdict::Undecided;
  r.claims[2].evidence = "undecided: every case that contradicts the claim needs action on this run";
  r.withdrawn.clear();
  return r;
}
}  // namespace

// Issue 38: a claim only cases needing action contradict is undecided, never a documentation finding:
// the verdict line counts it apart, and every file says it in the same word.
TEST(ReportClaims, AnUndecidedClaimIsCountedApartEverywhere) {
  const RunReport r = undecided_report();
  EXPECT_EQ(verdict_line(r),
            "Does not conform: 1 of 2 cases need action (1 failed); 1 as documented; 1 documentation finding, 1 claim "
            "undecided (its cases need action).");
  RunReport two = r;
  two.claims[1].verdict = Verdict::Undecided;
  EXPECT_NE(verdict_line(two).find("; no documentation findings, 2 claims undecided (their cases need action)."),
            std::string::npos)
      << verdict_line(two);

  const std::string json = report_json(r);
  EXPECT_NE(json.find("\"findings\": 1,\n  \"undecided\": 1\n }"), std::string::npos) << json;
  EXPECT_NE(json.find("\"verdict\": \"undecided\""), std::string::npos);
  EXPECT_EQ(parse_report_json(json, "r.json").claims[2].verdict, Verdict::Undecided);

  const std::string md = report_markdown(r);
  EXPECT_NE(md.find("1 claim is undecided: every case that would contradict it needs action on this run"),
            std::string::npos)
      << md;
  // contradicted first, then undecided, then the rest
  EXPECT_LT(md.find("| ldmatrix-trans | **contradicted** |"), md.find("| ldmatrix-undecided | *undecided* |"));
  EXPECT_LT(md.find("| ldmatrix-undecided | *undecided* |"), md.find("| ldmatrix-x1-layout | confirmed |"));

  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(report_junit(r).c_str()));
  EXPECT_NE(std::string(doc.select_node("//testcase[@name='ldmatrix-undecided']/system-out").node().text().as_string())
                .find("claim ldmatrix-undecided: undecided"),
            std::string::npos);
}

// Issue 42: a hypothesis of the suite's (its reading of figures) that a run contradicts is no
// documentation finding: the verdict line, the JSON summary, the page, the Markdown and the JUnit file
// count and name it apart, and its cases marked known are not counted as the expectations' known
// differences; the reader keeps the mark.
TEST(ReportClaims, ARefutedHypothesisIsNoDocumentationFinding) {
  RunReport r = undecided_report();
  r.claims[2].verdict = Verdict::Contradicted;
  r.claims[2].id = "ldmatrix-reading";
  r.claims[2].hypothesis = true;
  r.claims[2].checked = {r.results[1].kernel + "/" + r.results[1].case_name};
  r.results[1].known = "contradicts the suite's hypothesis ldmatrix-reading";
  r.claims[1].verdict = Verdict::Confirmed;  // no documentation finding left
  EXPECT_EQ(verdict_line(r),
            "Conforms: 1 case as documented; no documentation findings; 1 of the suite's hypotheses refuted (its "
            "readings of figures, not findings about the documents; their 1 case marked known).");
  const std::string json = report_json(r);
  EXPECT_NE(json.find("\"findings\": 0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"hypothesis\": true"), std::string::npos);
  EXPECT_TRUE(parse_report_json(json, "r.json").claims[2].hypothesis);
  EXPECT_FALSE(parse_report_json(json, "r.json").claims[1].hypothesis);
  const std::string html = report_html(r);
  EXPECT_NE(html.find("No documentation findings: no claim of the documents contradicted"), std::string::npos);
  EXPECT_NE(html.find("1 of the suite's hypotheses refuted: its readings of what the documents give only as figures"),
            std::string::npos);
  EXPECT_NE(report_markdown(r).find("| ldmatrix-reading | **contradicted** (the suite's hypothesis: not a "
                                    "documentation finding) |"),
            std::string::npos);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(report_junit(r).c_str()));
  const std::string out =
      doc.select_node("//testcase[@name='ldmatrix-reading']/system-out").node().text().as_string();
  EXPECT_EQ(out.rfind("the suite's hypothesis refuted (its reading of figures): claim ldmatrix-reading", 0), 0u) << out;
}

// Issue 42: the page's tally says a known difference is known on its outcome's badge, so that the
// 480 cases of refuted hypotheses (or an expectation's) never read as failures needing action.
TEST(ReportHtml, AKnownDifferenceIsSaidSoOnItsOutcomesBadge) {
  RunReport r = sample_report();
  EXPECT_NE(report_html(r).find(">2 failed (1 known)<"), std::string::npos);
  for (auto& x : r.results)
    if (x.status == Status::Fail && x.known.empty()) x.known = "a driver bug";
  EXPECT_NE(report_html(r).find(">2 failed (known)<"), std::string::npos);
}

// An undecided verdict is from schema 10 on: an older report that says it was not written by ptxcts;
// 10's summary counts the undecided claims, and the reader checks the count.
TEST(ReportJson, TheVerdictUndecidedIsFromSchema10On) {
  std::string json = report_json(undecided_report());
  ASSERT_EQ(json.rfind("{\n \"schema_version\": 10,", 0), 0u) << json.substr(0, 40);
  std::string wrong_count = json;
  wrong_count.replace(wrong_count.find("\"undecided\": 1\n"), 15, "\"undecided\": 0\n");
  try {
    parse_report_json(wrong_count, "r.json");
    FAIL() << "a wrong count of undecided claims was read";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("summary.undecided: expected 1 (derived from the results and claims), got 0"),
              std::string::npos)
        << e.what();
  }
  std::string v9 = json;
  v9.replace(v9.find("10,"), 2, "9");
  try {
    parse_report_json(v9, "r.json");
    FAIL() << "a schema 9 report with an undecided claim was read";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("claims[2].verdict: verdict 'undecided' is from schema_version 10 on; this "
                                         "report is schema_version 9"),
              std::string::npos)
        << e.what();
  }
}

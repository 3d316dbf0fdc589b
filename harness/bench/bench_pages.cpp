// The pages people read: the HTML of the full committed H100 run report (4,598 results, the spec's
// layout figures, the CUDA 13.0 audit's targets in the matrix) and of the audit. Targets (issue 15):
// <= 1 s and <= 5 MB for the H100 page. And the toolkit matrix's page (six toolkits). Counters: bytes
// written.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/report_reader.hpp"
#include "report/run/report_files.hpp"
#include "report/run/report_html.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "report/run/report_json.hpp"
#include "spec/spec_loader.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;

namespace {
const std::string kReports = PTXCTS_SOURCE_DIR "/reports";
const std::string kH100 = kReports + "/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz";
const std::string kAudit = kReports + "/audit-cuda13.0.json.gz";
const std::string kToolkits = kReports + "/toolkits.json.gz";
}  // namespace

// The page alone, from the report, the spec's figures and the audit in memory.
static void BM_H100RunPage_Write(benchmark::State& state) {
  RunReport report = parse_report_json(*try_read_file_text(kH100), kH100);
  SpecLayouts layouts = spec_layouts(load_spec_dir(PTXCTS_SOURCE_DIR "/specs"));
  AuditSummary audit = read_audit_report_file(kAudit);
  std::size_t bytes = 0;
  for (auto _ : state) bytes = report_html(report, {.layouts = &layouts, .audit = &audit}).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_H100RunPage_Write)->Unit(benchmark::kMillisecond)->UseRealTime();

// What `ptxcts html REPORT.json` does: read and check the report, load the specs, read the audit
// beside it, evaluate the layouts, write the page.
static void BM_H100RunPage_FromFiles(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    RunReport report = parse_report_json(*try_read_file_text(kH100), kH100);
    SpecSet specs = load_spec_dir(PTXCTS_SOURCE_DIR "/specs");
    bytes = run_page(report, kReports, &specs).size();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_H100RunPage_FromFiles)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_AuditPage_FromJson(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) bytes = audit_html(parse_audit_report(*try_read_file_text(kAudit), kAudit)).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_AuditPage_FromJson)->Unit(benchmark::kMillisecond)->UseRealTime();

// What `ptxcts html reports/toolkits.json` does: read and check the matrix, write its page.
static void BM_ToolkitsPage_FromFile(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) bytes = toolkit_matrix_html(parse_matrix_file(*try_read_file_text(kToolkits), kToolkits)).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ToolkitsPage_FromFile)->Unit(benchmark::kMillisecond)->UseRealTime();

// The page alone, from the matrix as read.
static void BM_ToolkitsPage_Write(benchmark::State& state) {
  MatrixFile m = parse_matrix_file(*try_read_file_text(kToolkits), kToolkits);
  std::size_t bytes = 0;
  for (auto _ : state) bytes = toolkit_matrix_html(m).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ToolkitsPage_Write)->Unit(benchmark::kMillisecond)->UseRealTime();

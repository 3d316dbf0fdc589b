// Every report read one way (report/report_reader, results/report_kind): each kind the suite writes
// says "kind" second, right after its schema version, and reads back through the one entry as that
// kind; a report of one kind where another is wanted is one error naming the file, where, and both
// kinds; a report written before "kind" still reads, as the legacy rule or the caller says.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "report/audit/audit_report.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/page_commands.hpp"
#include "report/report_reader.hpp"
#include "report/run/report_files.hpp"
#include "report/run/report_merge.hpp"
#include "report/toolkits/toolkit_matrix_report.hpp"
#include "support/temp_dir.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;

namespace {

const std::string kData = PTXCTS_TEST_DATA;

std::filesystem::path write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p;
}

RunReport run_report() {
  RunReport r;
  r.info.gpu_name = "Fake GPU";
  r.info.sm = "sm_90";
  r.info.cuda_release = "13.0";
  CaseResult c;
  c.kernel = "ldmatrix_x1";
  c.family = "ldmatrix";
  c.instruction = "ldmatrix.sync.aligned.m8n8.x1.b16";
  c.case_name = "identity";
  c.target = "sm_90";
  c.status = Status::Pass;
  r.results.push_back(c);
  return r;
}

std::string audit_report() {
  Audit a;
  a.cuda_release = "12.4";
  a.ptxas_version = "12.4.131";
  a.toolkit_ptx = {8, 4};
  a.targets = {"sm_75", "sm_90"};
  a.ptxas_targets = {"sm_75", "sm_90"};
  return audit_json(a, AuditPlan{}, {}, {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
}

std::string matrix_report() {
  AuditSummary a = parse_audit_report(read_file_text(kData + "/audits/cuda13.0.json"), "audit-cuda13.0.json");
  AuditSummary b = parse_audit_report(read_file_text(kData + "/audits/cuda13.5.json"), "audit-cuda13.5.json");
  return matrix_json(build_matrix({a, b}), {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
}

std::string sass_report() {
  SassReport s;
  s.cuda_release = "13.0";
  s.ptxas_version = "13.0.88";
  s.targets = {"sm_90"};
  return sass_report_json(s, {.host = "h", .date = "d", .suite_version = "v", .suite_commit = "c"});
}

// The line after the schema version's (the second key's): a report's kind.
std::string kind_line(const std::string& text) {
  const auto version = text.find("schema_version\": "), start = text.find('\n', version) + 1;
  return text.substr(start, text.find('\n', start) - start);
}

template <class F>
std::string reader_error_of(F&& read) {
  try {
    read();
  } catch (const ReportError& e) { return e.what(); }
  return "(no error)";
}

}  // namespace

TEST(ReportReader, EveryKindWrittenSaysSoAndReadsBackThroughTheOneEntry) {
  test::TempDir tmp("report-reader");
  const auto run = write(tmp.dir / "run.json", report_json(run_report()));
  const auto audit = write(tmp.dir / "audit.json", audit_report());
  const auto matrix = write(tmp.dir / "toolkits.json", matrix_report());
  const auto sass = write(tmp.dir / "sass.json", sass_report());
  const auto fleet = write(tmp.dir / "fleet.json", fleet_json(merge_reports({run_report()})));
  EXPECT_EQ(kind_line(read_file_text(run)), " \"kind\": \"run\",");
  EXPECT_EQ(kind_line(read_file_text(audit)), " \"kind\": \"audit\",");
  EXPECT_EQ(kind_line(read_file_text(matrix)), " \"kind\": \"toolkit-matrix\",");
  EXPECT_EQ(kind_line(read_file_text(sass)), " \"kind\": \"sass\",");
  EXPECT_EQ(kind_line(read_file_text(fleet)), " \"kind\": \"fleet\",");

  EXPECT_EQ(std::get<RunReport>(read_report(run)).results.size(), 1u);
  EXPECT_EQ(std::get<AuditSummary>(read_report(audit)).cuda_release, "12.4");
  EXPECT_EQ(std::get<MatrixFile>(read_report(matrix)).toolkits.size(), 2u);
  EXPECT_EQ(std::get<SassReport>(read_report(sass)).cuda_release, "13.0");
  EXPECT_EQ(reader_error_of([&] { read_report(fleet); }),
            fleet.string() +
                ":1:1: top level: a fleet report: written by `ptxcts merge` for people and scripts, "
                "never read back by ptxcts");

  EXPECT_EQ(report_file_kind(run), ReportKind::Run);
  EXPECT_EQ(report_file_kind(audit), ReportKind::Audit);
  EXPECT_EQ(report_file_kind(matrix), ReportKind::ToolkitMatrix);
  EXPECT_EQ(report_file_kind(sass), ReportKind::Sass);
  EXPECT_EQ(report_file_kind(fleet), ReportKind::Fleet);
  EXPECT_EQ(report_file_kind(tmp.dir / "none.json"), std::nullopt);
}

TEST(ReportReader, AReportOfAnotherKindIsOneErrorNamingTheFileAndWhatWasExpected) {
  test::TempDir tmp("report-reader");
  const auto audit = write(tmp.dir / "audit.json", audit_report());
  const auto run = write(tmp.dir / "run.json", report_json(run_report()));
  EXPECT_EQ(reader_error_of([&] { read_run_report_file(audit); }),
            audit.string() + ":3:10: kind: expected \"run\" (a run report), got \"audit\" (an audit report)");
  EXPECT_EQ(reader_error_of([&] { read_audit_report_file(run); }),
            run.string() + ":3:10: kind: expected \"audit\" (an audit report), got \"run\" (a run report)");
  EXPECT_EQ(reader_error_of([&] { read_matrix_report_file(run); }),
            run.string() + ":3:10: kind: expected \"toolkit-matrix\" (a toolkit matrix), got \"run\" (a run report)");
  EXPECT_EQ(reader_error_of([&] { read_sass_report_file(audit); }),
            audit.string() + ":3:10: kind: expected \"sass\" (a SASS report), got \"audit\" (an audit report)");
  // `ptxcts html` of a report that has no page there says what it is.
  const auto sass = write(tmp.dir / "sass.json", sass_report());
  EXPECT_EQ(reader_error_of([&] { write_page_for(sass, tmp.dir / "sass.html", nullptr); }),
            sass.string() +
                ":3:10: kind: a SASS report has no page written by `ptxcts html` (it writes those of run and audit "
                "reports and of the toolkit matrix)");
  EXPECT_EQ(reader_error_of([&] { read_report(tmp.dir / "none.json"); }),
            (tmp.dir / "none.json").string() + ": cannot read this report");
}

TEST(ReportReader, AKindThisBuildDoesNotKnowIsPlaced) {
  test::TempDir tmp("report-reader");
  std::string text = report_json(run_report());
  text.replace(text.find("\"run\","), 6, "\"rerun\",");
  const auto p = write(tmp.dir / "r.json", text);
  EXPECT_EQ(reader_error_of([&] { read_report(p); }),
            p.string() + ":3:10: kind: expected one of run, audit, toolkit-matrix, sass, fleet, got \"rerun\"");
  EXPECT_EQ(reader_error_of([&] { read_run_report_file(p); }),
            p.string() + ":3:10: kind: expected one of run, audit, toolkit-matrix, sass, fleet, got \"rerun\"");
  const auto q = write(tmp.dir / "q.json", "{\"schema_version\": 12}");
  EXPECT_EQ(reader_error_of([&] { read_report(q); }),
            q.string() +
                ":1:20: schema_version: a report without \"kind\" is one written before it: expected a "
                "schema_version of 1 (a toolkit matrix), 2 or 3 (an audit report) or 4 to 9 (a run report), got 12");
  const auto e = write(tmp.dir / "e.json", "{}");
  EXPECT_EQ(reader_error_of([&] { read_report(e); }),
            e.string() +
                ":1:1: top level: missing key \"kind\" (run, audit, toolkit-matrix, sass or fleet): not a "
                "report of ptxcts");
}

// The reports written before "kind": the committed ones (reports/*.json.gz) and the tests' own.
TEST(ReportReader, AReportWrittenBeforeKindStillReads) {
  // Told apart by the legacy rule alone: audits (schema 2 and 3), run reports (4 to 9), the toolkit
  // matrix (1).
  for (const char* name : {"audit-cuda13.0.json.gz", "toolkits.json.gz",
                           "nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz", "sass-cuda13.0.json.gz"}) {
    const std::filesystem::path p = std::filesystem::path(PTXCTS_SOURCE_DIR) / "reports" / name;
    EXPECT_NO_THROW(read_report(p)) << name;
  }
  EXPECT_EQ(report_file_kind(kData + "/audits/cuda13.0.json"), ReportKind::Audit);
  EXPECT_EQ(report_file_kind(kData + "/reports/audit-excerpt.json"), ReportKind::Audit);  // schema 2
  EXPECT_EQ(report_file_kind(kData + "/reports/h100-schema4-excerpt.json"), ReportKind::Run);
  EXPECT_EQ(report_file_kind(kData + "/toolkits/toolkits.json"), ReportKind::ToolkitMatrix);
  EXPECT_TRUE(std::holds_alternative<MatrixFile>(read_report(kData + "/toolkits/toolkits.json")));
  // A run report of schema 3 (the suite's first) is an audit by the rule, but reads as the run
  // report it is wherever a run report is asked for.
  EXPECT_EQ(report_file_kind(kData + "/reports/old.json"), ReportKind::Audit);
  EXPECT_EQ(read_run_report_file(kData + "/reports/old.json").results.size(), 2u);
  // Asked for as another kind, a report without "kind" is read as that kind, by its rules.
  EXPECT_NE(reader_error_of([&] { read_run_report_file(kData + "/audits/cuda13.0.json"); })
                .find("/audits/cuda13.0.json:23:13: summary: unknown key \"summary\"; expected one of schema_version, "
                      "run, totals, results, claims"),
            std::string::npos);
}

// The run's page finds the audit of its toolkit beside it through the same reader; one that does
// not read as an audit leaves the matrix to the run's own target, and the page is written all the same.
TEST(ReportReader, TheRunsPageReadsTheAuditBesideItOrGoesWithout) {
  test::TempDir tmp("report-reader");
  const RunReport r = run_report();
  write(tmp.dir / "audit-cuda13.0.json", audit_report());  // asked about sm_75 and sm_90
  const std::string with = run_page(r, tmp.dir, nullptr);
  EXPECT_NE(with.find("<th>sm_75</th>"), std::string::npos);
  write(tmp.dir / "audit-cuda13.0.json", report_json(r));  // a run report where the audit should be
  const std::string without = run_page(r, tmp.dir, nullptr);
  EXPECT_EQ(without.find("<th>sm_75</th>"), std::string::npos);
  EXPECT_NE(without.find("<th>sm_90</th>"), std::string::npos);
}

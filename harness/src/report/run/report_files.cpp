#include "report/run/report_files.hpp"

#include <chrono>
#include <optional>
#include <string_view>

#include "report/audit/audit_report_reader.hpp"
#include "report/pages/page_file.hpp"
#include "report/report_reader.hpp"
#include "report/run/report_html.hpp"
#include "report/run/report_junit.hpp"
#include "report/run/report_markdown.hpp"
#include "report/run/report_json.hpp"
#include "util/atomic_file.hpp"

namespace ptxcts {

namespace {

// Lowercases `s` and turns every run of characters outside [a-z0-9] and `keep` into one '-',
// trimmed at both ends. The fields come from the driver and the toolkit: they must never be able
// to name another directory.
std::string slug(std::string_view s, std::string_view keep) {
  std::string out;
  bool pending_dash = false;
  for (char c : s) {
    char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || keep.find(l) != std::string_view::npos;
    if (!ok) {
      pending_dash = true;
      continue;
    }
    if (pending_dash && !out.empty()) out += '-';
    pending_dash = false;
    out += l;
  }
  return out.empty() ? "unknown" : out;
}

}  // namespace

std::string report_basename(const RunInfo& info) {
  return slug(info.gpu_name, "") + "-" + slug(info.sm, "._") + "-driver" + slug(info.driver_version, "._") + "-cuda" +
         slug(info.cuda_release, "._") + (ran_driver_jit(info) ? "-jit" : "");  // beside the cubin run's, not over it
}

std::string run_page(const RunReport& report, const std::filesystem::path& dir, const SpecSet* specs) {
  RunPageInputs in;
  SpecLayouts layouts;
  if (specs) in.layouts = &(layouts = spec_layouts(*specs));
  std::optional<AuditSummary> audit;
  try {
    if (auto doc = try_open_report(dir / ("audit-cuda" + report.info.cuda_release + ".json")))
      audit = read_audit_report(*doc);
  } catch (const JsonInputError&) {}  // an audit this build cannot read only leaves the matrix to this run's target
  if (audit) in.audit = &*audit;
  return report_html(report, in);
}

RunTiming write_reports(const RunReport& report, const std::filesystem::path& dir, const SpecSet* specs) {
  std::string base = report_basename(report.info);
  // The JSON last, with the time the others took (the page shows the time up to them): the record cannot hold the time
  // of its own writing.
  const auto t0 = std::chrono::steady_clock::now();
  write_file_atomically(dir / (base + ".md"), report_markdown(report));
  write_file_atomically(dir / (base + ".xml"), report_junit(report));
  write_html_page(dir / (base + ".html"), run_page(report, dir, specs));
  RunReport with_time = report;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  with_time.timing.reports += secs;
  with_time.timing.wall += secs;
  write_file_atomically(dir / (base + ".json"), report_json(with_time));
  return with_time.timing;
}

}  // namespace ptxcts

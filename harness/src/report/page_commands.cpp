#include "report/page_commands.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/pages/page_file.hpp"
#include "report/report_reader.hpp"
#include "report/run/report_diff_html.hpp"
#include "report/run/report_files.hpp"
#include "report/run/report_merge.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "util/atomic_file.hpp"

namespace ptxcts {

std::filesystem::path write_page_for(const std::filesystem::path& json, std::filesystem::path out,
                                     const SpecSet* specs) {
  const JsonDocument doc = open_report(json);
  if (out.empty()) {  // beside it: X.json -> X.html, and a compressed X.json.gz -> X.html too
    std::filesystem::path p(json);
    if (p.extension() == ".gz") p.replace_extension();
    out = p.replace_extension(".html");
  }
  switch (const ReportKind kind = read_report_kind(doc)) {
    case ReportKind::Run:
      write_html_page(out, run_page(read_run_report(doc), json.parent_path(), specs));
      return out;
    case ReportKind::ToolkitMatrix: write_html_page(out, toolkit_matrix_html(read_matrix_file(doc))); return out;
    case ReportKind::Audit:
      write_html_page(out, audit_html(read_audit_report(doc)));  // read as strictly as the others, errors placed
      return out;
    case ReportKind::Sass:
    case ReportKind::Fleet:
      doc.fail("kind", fmt::format("{} has no page written by `ptxcts html` (it writes those of run and audit "
                                   "reports and of the toolkit matrix)",
                                   report_kind_noun(kind)));
  }
  return out;
}

void write_diff_page(const RunReport& before, const RunReport& after, const ReportDiff& d,
                     const std::filesystem::path& out) {
  write_html_page(out, diff_html(before, after, d));
}

Fleet write_fleet(const std::vector<RunReport>& runs, std::vector<MissingRun> missing,
                  const std::filesystem::path& prefix, std::vector<UnreadInput> unread) {
  Fleet fleet = merge_reports(runs, std::move(missing));
  fleet.unread = std::move(unread);
  write_file_atomically(prefix.string() + ".json", fleet_json(fleet));
  write_html_page(prefix.string() + ".html", fleet_html(fleet));
  return fleet;
}

}  // namespace ptxcts

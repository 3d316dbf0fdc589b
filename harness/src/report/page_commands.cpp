#include "report/page_commands.hpp"

#include <nlohmann/json.hpp>

#include "report/audit_html.hpp"
#include "report/report_diff_html.hpp"
#include "report/report_files.hpp"
#include "report/report_merge.hpp"
#include "report/toolkit_matrix_html.hpp"
#include "report/toolkit_matrix_reader.hpp"
#include "results/report_json.hpp"
#include "util/atomic_file.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

RunReport load_run_report(const std::filesystem::path& path) {
  auto text = try_read_file_text(path);
  if (!text) throw ReportError(path.string() + ": cannot read this report");
  return parse_report_json(*text, path.string());
}

std::filesystem::path write_page_for(const std::filesystem::path& json, std::filesystem::path out,
                                     const SpecSet* specs) {
  auto text = try_read_file_text(json);
  if (!text) throw ReportError(json.string() + ": cannot read this report");
  if (out.empty()) {  // beside it: X.json -> X.html, and a compressed X.json.gz -> X.html too
    std::filesystem::path p(json);
    if (p.extension() == ".gz") p.replace_extension();
    out = p.replace_extension(".html");
  }
  // The toolkit matrix has "toolkits" and "changes" (its reader places errors); an audit report
  // "findings" and "grammar"; a run report "results" (the run reader places errors).
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_object() && j.contains("toolkits") && j.contains("changes")) {
    try {
      write_file_atomically(out, toolkit_matrix_html(parse_matrix_file(*text, json.string())));
    } catch (const JsonInputError& e) { throw ReportError(e.what()); }
    return out;
  }
  if (j.is_object() && j.contains("grammar") && j.contains("findings")) {
    try {
      write_file_atomically(out, audit_html(j));
    } catch (const nlohmann::json::exception& e) {
      throw ReportError(json.string() + ": not an audit report this build reads: " + e.what());
    }
    return out;
  }
  RunReport report = parse_report_json(*text, json.string());
  write_file_atomically(out, run_page(report, json.parent_path(), specs));
  return out;
}

void write_diff_page(const RunReport& before, const RunReport& after, const ReportDiff& d,
                     const std::filesystem::path& out) {
  write_file_atomically(out, diff_html(before, after, d));
}

Fleet write_fleet(const std::vector<RunReport>& runs, std::vector<MissingRun> missing,
                  const std::filesystem::path& prefix) {
  Fleet fleet = merge_reports(runs, std::move(missing));
  write_file_atomically(prefix.string() + ".json", fleet_json(fleet));
  write_file_atomically(prefix.string() + ".html", fleet_html(fleet));
  return fleet;
}

}  // namespace ptxcts

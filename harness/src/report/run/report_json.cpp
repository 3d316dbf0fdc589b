#include "report/run/report_json.hpp"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <vector>

#include "results/outcome.hpp"
#include "results/report_kind.hpp"

namespace ptxcts {

using Json = nlohmann::ordered_json;  // ordered: the file lists keys in the order written here

namespace {

constexpr RunInfoField kRunInfoFields[] = {
    {.key = "gpu_name", .member = &RunInfo::gpu_name},
    {.key = "compute_capability", .member = &RunInfo::compute_capability},
    {.key = "sm", .member = &RunInfo::sm},
    {.key = "driver_version", .member = &RunInfo::driver_version},
    {.key = "driver_cuda", .member = &RunInfo::driver_cuda},
    {.key = "cuda_release", .member = &RunInfo::cuda_release},
    {.key = "ptxas_version", .member = &RunInfo::ptxas_version},
    {.key = "ptx_isa", .member = &RunInfo::ptx_isa},
    {.key = "toolchain", .member = &RunInfo::toolchain},
    {.key = "host", .member = &RunInfo::host},
    {.key = "date", .member = &RunInfo::date},
    {.key = "suite_version", .member = &RunInfo::suite_version},
    {.key = "suite_commit", .member = &RunInfo::suite_commit},
    // schema 8 on (kRunInfoFieldsBefore8 above this line)
    {.key = "gpu_index", .member = &RunInfo::gpu_index},
    {.key = "gpu_uuid", .member = &RunInfo::gpu_uuid},
    {.key = "gpu_pci_bus_id", .member = &RunInfo::gpu_pci_bus_id},
    {.key = "gpus_at_once", .member = &RunInfo::gpus_at_once},
    {.key = "fault_cases", .member = &RunInfo::fault_cases},
    {.key = "specs", .member = &RunInfo::specs},
    {.key = "slurm_job", .member = &RunInfo::slurm_job},
    {.key = "slurm_task", .member = &RunInfo::slurm_task},
};
constexpr std::size_t kRunInfoFieldsBefore8 = 13;

Json to_json(const RunInfo& info) {
  Json j = Json::object();
  for (auto const& f : kRunInfoFields) j[f.key] = info.*f.member;
  return j;
}

Json to_json(const Withdrawal& w) { return {{"what", w.what}, {"reason", w.reason}}; }

// What a reader (or a CI script with jq) wants first: the verdict line, what `ptxcts run` exited
// with for this GPU, and the counts every page uses (cases: one per kernel and case).
Json summary_json(const RunReport& report) {
  const Tally t = tally(report.results);
  std::set<std::string> kernels;
  for (auto const& r : report.results) kernels.insert(r.kernel);
  int findings = 0, undecided = 0;
  for (auto const& c : report.claims) {
    findings += documentation_finding(c);  // not the suite's refuted hypotheses (readings of figures)
    undecided += c.verdict == Verdict::Undecided;
  }
  return {{"verdict", verdict_line(report)},
          {"exit_status", t.needing_action ? 1 : 0},
          {"cases", t.cases()},
          {"kernels", static_cast<int>(kernels.size())},
          {"needing_action", t.needing_action},
          {"findings", findings},
          {"undecided", undecided}};
}

// ---- Reading (util/json_document: every error FILE:LINE:COLUMN: PATH: what was expected) -------

// A duration: a number of seconds, never negative.
double seconds(const JsonNode& n) {
  if (!n.json().is_number()) n.fail("expected a number of seconds, got " + n.describe());
  const double v = n.json().get<double>();
  if (!(v >= 0)) n.fail(fmt::format("expected a duration of 0 s or more, got {}", n.json().dump()));
  return v;
}

// "KERNEL / CASE", "claim ID" or "layout KERNEL / CASE": the names `ptxcts diff` gives what it compares.
bool names_something(std::string_view what) {
  if (what.starts_with("claim ")) return what.size() > 6;
  if (what.starts_with("layout ")) what.remove_prefix(7);
  auto sep = what.find(" / ");
  return sep != std::string_view::npos && sep > 0 && sep + 3 < what.size();
}

Withdrawal read_withdrawal(const JsonNode& n) {
  n.object({"what", "reason"});
  Withdrawal w{.what = n.at("what").str(), .reason = n.at("reason").str()};
  if (!names_something(w.what))
    n.at("what").fail(
        fmt::format("expected \"KERNEL / CASE\", \"claim ID\" or \"layout KERNEL / CASE\", got \"{}\"", w.what));
  if (w.reason.empty()) n.at("reason").fail("expected why it was withdrawn, got an empty string");
  return w;
}

// Each of `nodes` named by `name`: a second one with the name of an earlier one is an error at the
// second, naming the first (which of two results for one case the run meant is unknowable).
template <class T, class Name>
void refuse_duplicates(const JsonDocument& doc, const std::vector<JsonNode>& nodes, const std::vector<T>& values,
                       const char* noun, Name&& name) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (auto [it, fresh] = first.emplace(name(values[i]), i); !fresh)
      nodes[i].fail(fmt::format("duplicate {} {} (first at {}, {})", noun, it->first,
                                doc.where(nodes[it->second].path()), nodes[it->second].path()));
}

// The totals are derived data; a file whose totals disagree with its results was edited or broken.
// Schema 9 on: every outcome, over every case; before: six statuses, over the cases that are not
// fault cases.
void check_count(const JsonNode& v, int count, const std::string& what) {
  if (v.integer(0, INT32_MAX) != count)
    v.fail(fmt::format("expected {} ({}), got {}", count, what, v.integer(0, INT32_MAX)));
}

void check_totals(const JsonNode& n, const std::vector<CaseResult>& results, std::int64_t schema) {
  if (schema >= 9) {
    // faulted-where-allowed came later in schema 9, undefined in 10: a report without them has none.
    std::vector<const char*> keys;
    for (Outcome o : kOutcomes)
      if (o != Outcome::FaultedWhereAllowed && o != Outcome::Undefined) keys.push_back(token(o));
    n.object(keys, {token(Outcome::FaultedWhereAllowed), token(Outcome::Undefined)});
    const Tally t = tally(results);
    for (Outcome o : kOutcomes)
      if (n.has(token(o)) || t[o])
        check_count(n.at(token(o)), t[o], fmt::format("the number of results with outcome {}", token(o)));
    return;
  }
  n.object({"pass", "fail", "skip", "error", "crash", "timeout"});
  for (auto [key, st] : {std::pair{"pass", Status::Pass},
                         {"fail", Status::Fail},
                         {"skip", Status::Skip},
                         {"error", Status::Error},
                         {"crash", Status::Crash},
                         {"timeout", Status::Timeout}}) {
    int count = 0;
    for (auto const& r : results)
      count += !r.fault_case && (r.status == st || (st == Status::Skip && r.status == Status::NotSupported));
    check_count(n.at(key), count, fmt::format("the number of results with status {}", key));
  }
}

// The summary (schema 9 on) is derived too: the verdict line and the counts must be this report's.
// "undecided" (the claims whose cases need action) is from schema 10 on.
void check_summary(const JsonNode& n, const RunReport& report, std::int64_t schema) {
  if (schema >= 10) n.object({"verdict", "exit_status", "cases", "kernels", "needing_action", "findings", "undecided"});
  else n.object({"verdict", "exit_status", "cases", "kernels", "needing_action", "findings"});
  Json want = summary_json(report);
  if (schema < 10) want.erase("undecided");
  for (auto const& [key, value] : want.items()) {
    JsonNode v = n.at(key.c_str());
    if (value.is_string()) {  // the verdict: its words may change between builds, its kind may not
      const std::string w = value.get<std::string>(), got = v.str();
      const std::string kind = w.substr(0, w.find(':') + 1);
      if (!got.starts_with(kind))
        v.fail(fmt::format("expected a verdict starting \"{}\" (derived from the results), got \"{}\"", kind, got));
    } else if (v.integer(0, INT32_MAX) != value.get<int>()) {
      v.fail(fmt::format("expected {} (derived from the results and claims), got {}", value.dump(),
                         v.integer(0, INT32_MAX)));
    }
  }
}

}  // namespace

std::span<const RunInfoField> run_info_fields() { return kRunInfoFields; }

struct TimingSeconds {
  const char* key;
  double RunTiming::*member;
};
constexpr TimingSeconds kTimingSeconds[] = {{.key = "wall_s", .member = &RunTiming::wall},
                                            {.key = "first_launch_s", .member = &RunTiming::first_launch},
                                            {.key = "plan_s", .member = &RunTiming::plan},
                                            {.key = "runner_init_s", .member = &RunTiming::runner_init},
                                            {.key = "module_loads_s", .member = &RunTiming::module_loads},
                                            {.key = "launches_s", .member = &RunTiming::launches},
                                            {.key = "faults_s", .member = &RunTiming::faults},
                                            {.key = "compare_s", .member = &RunTiming::compare},
                                            {.key = "reports_s", .member = &RunTiming::reports}};
struct TimingCount {
  const char* key;
  int RunTiming::*member;
};
constexpr TimingCount kTimingCounts[] = {{.key = "launches", .member = &RunTiming::launch_count},
                                         {.key = "batches", .member = &RunTiming::batch_count},
                                         {.key = "runner_starts", .member = &RunTiming::runner_starts},
                                         {.key = "peak_rss_mib", .member = &RunTiming::peak_rss_mib}};

RunTiming read_timing(const JsonNode& n) {
  std::vector<const char*> keys;
  for (auto const& f : kTimingSeconds) keys.push_back(f.key);
  for (auto const& f : kTimingCounts) keys.push_back(f.key);
  n.object(keys);
  RunTiming t;
  for (auto const& f : kTimingSeconds) t.*f.member = seconds(n.at(f.key));
  for (auto const& f : kTimingCounts) t.*f.member = static_cast<int>(n.at(f.key).integer(0, INT32_MAX));
  return t;
}

std::string report_json(const RunReport& report) {
  const Tally t = tally(report.results);
  Json j;
  j["schema_version"] = RunReport::kSchemaVersion;
  j["kind"] = std::string(report_kind_name(ReportKind::Run));
  j["run"] = to_json(report.info);
  j["summary"] = summary_json(report);
  j["totals"] = Json::object();
  for (Outcome o : kOutcomes) j["totals"][token(o)] = t[o];
  j["results"] = Json::array();
  for (auto const& r : report.results) j["results"].push_back(case_result_json(r));
  j["claims"] = Json::array();
  for (auto const& c : report.claims) j["claims"].push_back(claim_json(c));
  j["withdrawn"] = Json::array();
  for (auto const& w : report.withdrawn) j["withdrawn"].push_back(to_json(w));
  j["timing"] = Json::object();
  for (auto const& f : kTimingSeconds) j["timing"][f.key] = std::round(report.timing.*f.member * 1e4) / 1e4;
  for (auto const& f : kTimingCounts) j["timing"][f.key] = report.timing.*f.member;
  j["sass"] = run_sass_json(report.sass);
  j["expectations"] = {{"applied", report.expectations_applied}, {"unmatched", report.expectations_unmatched}};
  if (!report.sentences.empty()) j["sentences"] = sentence_counts_json(report.sentences);
  // A toolkit message with stray bytes must not cost the report: invalid UTF-8 becomes U+FFFD.
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

namespace {

// The top-level keys of schema `v`: 2 lacks observed_layout, 3 lacks withdrawn and roundtrip_identity,
// 4 lacks the verdict observed, 5 the timing, 6 the sass, 7 the GPU's identity and the rest of schema
// 8's run, 8 the outcomes and the summary, 9 the verdict undecided and the summary's count of it;
// nothing else differs. "kind" came later in 9 (report_kind): 9 may lack it, 10 has it; "sentences" came later
// in 10 (results/sentence_counts): 10 may lack it.
void check_root_keys(const JsonNode& root, std::int64_t v) {
  if (v >= 10)
    root.object({"schema_version", "kind", "run", "summary", "totals", "results", "claims", "withdrawn", "timing",
                 "sass", "expectations"},
                {"sentences"});
  else if (v >= 9)
    root.object({"schema_version", "run", "summary", "totals", "results", "claims", "withdrawn", "timing", "sass",
                 "expectations"},
                {"kind"});
  else if (v >= 7) root.object({"schema_version", "run", "totals", "results", "claims", "withdrawn", "timing", "sass"});
  else if (v >= 6) root.object({"schema_version", "run", "totals", "results", "claims", "withdrawn", "timing"});
  else if (v >= 4) root.object({"schema_version", "run", "totals", "results", "claims", "withdrawn"});
  else root.object({"schema_version", "run", "totals", "results", "claims"});
}

// What a report withdraws it must lack: withdrawing what it has would hide nothing, and says the
// writer was confused about what the run did. `results`, `claims`: the nodes `report`'s were read from.
void read_withdrawn(const JsonDocument& doc, const JsonNode& list, const std::vector<JsonNode>& results,
                    const std::vector<JsonNode>& claims, RunReport& report) {
  auto withdrawn = list.items();
  for (auto const& n : withdrawn) report.withdrawn.push_back(read_withdrawal(n));
  refuse_duplicates(doc, withdrawn, report.withdrawn, "withdrawal of", [](const Withdrawal& w) { return w.what; });
  for (std::size_t i = 0; i < withdrawn.size(); ++i) {
    const std::string& what = report.withdrawn[i].what;
    std::string present;
    for (std::size_t k = 0; k < report.results.size() && present.empty(); ++k) {
      auto const& r = report.results[k];
      std::string name = r.kernel + " / " + r.case_name;
      if (what == name || (what == "layout " + name && !r.observed_layout.empty())) present = results[k].path();
    }
    for (std::size_t k = 0; k < report.claims.size() && present.empty(); ++k)
      if (what == "claim " + report.claims[k].id) present = claims[k].path();
    if (!present.empty())
      withdrawn[i].at("what").fail(
          fmt::format("\"{}\" is withdrawn but present ({} at {}); expected only what this report lacks", what, present,
                      doc.where(present)));
  }
}

}  // namespace

RunReport read_run_report(const JsonDocument& doc) {
  expect_report_kind(doc, ReportKind::Run);
  const JsonNode root = doc.root();
  const JsonNode version = root.at("schema_version");
  constexpr int kOldest = 2;  // check_root_keys: what each schema from it on has
  const auto v = version.integer(INT32_MIN, INT32_MAX);
  if (v < kOldest || v > RunReport::kSchemaVersion)
    version.fail(fmt::format("expected {} to {} (the schema versions this build reads), got {}", kOldest,
                             RunReport::kSchemaVersion, v));
  check_root_keys(root, v);

  RunReport report;
  std::vector<const char*> run_keys;
  const std::size_t known = v >= 8 ? std::size(kRunInfoFields) : kRunInfoFieldsBefore8;
  for (std::size_t k = 0; k < known; ++k) run_keys.push_back(kRunInfoFields[k].key);
  const JsonNode run = root.at("run");
  run.object(run_keys);
  for (std::size_t k = 0; k < known; ++k) report.info.*kRunInfoFields[k].member = run.at(kRunInfoFields[k].key).str();

  auto results = root.at("results").items();
  for (auto const& n : results) report.results.push_back(read_case_result(n));
  refuse_duplicates(doc, results, report.results, "result for",
                    [](const CaseResult& r) { return r.kernel + " / " + r.case_name; });
  auto claims = root.at("claims").items();
  for (auto const& n : claims) report.claims.push_back(read_claim(n, v));
  refuse_duplicates(doc, claims, report.claims, "claim", [](const ClaimVerdict& c) { return c.id; });
  if (v < 9)
    for (std::size_t k = 0; k < results.size(); ++k)
      if (results[k].has("outcome")) results[k].at("outcome").fail("key \"outcome\" is from schema_version 9 on");
  check_totals(root.at("totals"), report.results, v);
  if (v >= 9) check_summary(root.at("summary"), report, v);
  if (v >= 6) report.timing = read_timing(root.at("timing"));
  if (v >= 7) report.sass = read_run_sass(root.at("sass"));
  if (v >= 9) {
    const JsonNode e = root.at("expectations");
    e.object({"applied", "unmatched"});
    report.expectations_applied = e.at("applied").strings();
    report.expectations_unmatched = e.at("unmatched").strings();
  }
  if (root.has("sentences")) report.sentences = read_sentence_counts(root.at("sentences"));
  if (v < 4) return report;

  read_withdrawn(doc, root.at("withdrawn"), results, claims, report);
  return report;
}

RunReport parse_report_json(const std::string& text, const std::string& file) {
  return read_run_report(JsonDocument(text, file));
}

}  // namespace ptxcts

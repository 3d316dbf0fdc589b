#include "results/report_parts.hpp"

#include <fmt/format.h>

#include <climits>
#include <nlohmann/json.hpp>

#include "results/outcome.hpp"

namespace ptxcts {

using Json = nlohmann::ordered_json;  // ordered: the file lists keys in the order written here

namespace {

// Schema 8 and before said "skip" for every case not run. The reasons the runner gave a form the GPU,
// its targets or the toolkit's PTX ISA lack are its own words (run/cubin_selection), so such a skip
// reads as not-supported, and an old report compares with a new one case for case.
bool legacy_not_supported(const std::string& reason) {
  return reason.find(" requires ") != std::string::npos ||
         reason.starts_with("no single target covers every step of this kernel") ||
         (reason.starts_with("needs PTX ISA ") && reason.find("; this toolkit speaks ") != std::string::npos);
}

// `read` of the one value of a line of JSON, its errors "file:line:column: ..." (as the journal's).
template <typename Read>
auto parse_part_line(const std::string& line, const std::string& file, int line_number, const char* name, Read read) {
  const std::string here = fmt::format("{}:{}", file, line_number);
  auto on_one_line = [&here](std::string what) {
    if (what.rfind(here + ":1:", 0) == 0) what.replace(0, here.size() + 3, here + ":");
    return what;
  };
  try {
    const JsonDocument doc(line, here);
    return read(JsonNode(doc, doc.root().json(), name));
  } catch (const ReportError& e) { throw ReportError(on_one_line(e.what())); }
}

}  // namespace

Json case_result_json(const CaseResult& r) {
  Json j = {{"kernel", r.kernel},
            {"family", r.family},
            {"instruction", r.instruction},
            {"case", r.case_name},
            {"target", r.target},
            {"ptx_isa", r.ptx_isa},
            {"status", to_string(r.status)},
            {"outcome", token(outcome_of(r))},
            {"reason", r.reason},
            {"mismatches", r.mismatches},
            {"diff", r.diff},
            {"fault_case", r.fault_case},
            {"fault_expected", r.fault_expected},
            {"undefined", r.undefined},
            {"observed_layout", r.observed_layout},
            {"roundtrip_identity", r.roundtrip_identity ? Json(*r.roundtrip_identity) : Json(nullptr)},
            {"ran_on", r.ran_on},
            {"known", r.known}};
  if (!r.observed.empty()) j["observed"] = r.observed;
  return j;
}

CaseResult read_case_result(const JsonNode& n) {
  n.object({"kernel", "family", "instruction", "case", "target", "ptx_isa", "status", "reason", "mismatches", "diff",
            "fault_case"},
           {"observed_layout", "roundtrip_identity", "ran_on", "outcome", "known", "fault_expected", "undefined",
            "observed"});
  CaseResult r;
  r.kernel = n.at("kernel").str();
  r.family = n.at("family").str();
  r.instruction = n.at("instruction").str();
  r.case_name = n.at("case").str();
  r.target = n.at("target").str();
  r.ptx_isa = n.at("ptx_isa").str();
  r.status = n.at("status").convert(status_from_string);
  r.reason = n.at("reason").str();
  if (n.at("status").str() == "skip" && legacy_not_supported(r.reason)) r.status = Status::NotSupported;
  r.mismatches = static_cast<int>(n.at("mismatches").integer(0, INT32_MAX));
  r.diff = n.at("diff").strings();
  r.fault_case = n.at("fault_case").boolean();
  if (n.has("observed_layout")) r.observed_layout = n.at("observed_layout").str();  // from schema 3 on
  if (n.has("roundtrip_identity") && !n.at("roundtrip_identity").is_null())         // from schema 4 on
    r.roundtrip_identity = n.at("roundtrip_identity").boolean();
  if (n.has("ran_on")) r.ran_on = n.at("ran_on").str();  // from schema 8 on
  if (n.has("known")) r.known = n.at("known").str();  // from schema 9 on
  if (n.has("fault_expected")) r.fault_expected = n.at("fault_expected").boolean();  // schema 9, later reports
  if (n.has("undefined")) r.undefined = n.at("undefined").str();                     // from schema 10 on
  if (n.has("observed")) r.observed = n.at("observed").str();  // schema 10, later reports
  if (n.has("outcome")) {  // from schema 9 on: derived from the status, so it must agree with it
    JsonNode o = n.at("outcome");
    if (o.convert(outcome_from_token) != outcome_of(r))
      o.fail(fmt::format("expected \"{}\" (what status \"{}\"{} means), got \"{}\"", token(outcome_of(r)),
                         to_string(r.status), r.fault_case ? " of a fault case" : "", o.str()));
  }
  return r;
}

Json claim_json(const ClaimVerdict& c) {
  Json j = {{"id", c.id},
            {"family", c.family},
            {"text", c.text},
            {"source", c.source},
            {"note", c.note},
            {"verdict", to_string(c.verdict)},
            {"evidence", c.evidence},
            {"checked", c.checked},
            {"known", c.known}};
  if (c.hypothesis) j["hypothesis"] = true;
  return j;
}

ClaimVerdict read_claim(const JsonNode& n, std::int64_t schema) {
  n.object({"id", "family", "text", "source", "note", "verdict", "evidence", "checked"}, {"known", "hypothesis"});
  ClaimVerdict c;
  c.id = n.at("id").str();
  c.family = n.at("family").str();
  c.text = n.at("text").str();
  c.source = n.at("source").str();
  c.note = n.at("note").str();
  c.verdict = n.at("verdict").convert(verdict_from_string);
  // Before 5, an observation was written not-checkable: an old report that says observed was not written by ptxcts.
  if (schema < 5 && c.verdict == Verdict::Observed)
    n.at("verdict").fail(
        fmt::format("verdict 'observed' is from schema_version 5 on; this report is schema_version {}", schema));
  if (schema < 10 && c.verdict == Verdict::Undecided)
    n.at("verdict").fail(
        fmt::format("verdict 'undecided' is from schema_version 10 on; this report is schema_version {}", schema));
  c.evidence = n.at("evidence").str();
  c.checked = n.at("checked").strings();
  if (n.has("known")) c.known = n.at("known").str();  // from schema 9 on
  if (n.has("hypothesis")) c.hypothesis = n.at("hypothesis").boolean();
  return c;
}

Json run_sass_json(const RunSass& s) {
  Json kernels = Json::array();
  for (auto const& k : s.kernels)
    kernels.push_back({{"kernel", k.kernel},
                       {"target", k.target},
                       {"opcodes", k.opcodes},
                       {"expected", k.expected},
                       {"matched", k.matched},
                       {"unavailable", k.unavailable}});
  return {{"disassembler", s.disassembler}, {"unavailable", s.unavailable}, {"kernels", kernels}};
}

RunSass read_run_sass(const JsonNode& n) {
  n.object({"disassembler", "unavailable", "kernels"});
  RunSass s{.disassembler = n.at("disassembler").str(), .unavailable = n.at("unavailable").str(), .kernels = {}};
  for (auto const& k : n.at("kernels").items()) {
    k.object({"kernel", "target", "opcodes", "expected", "matched", "unavailable"});
    s.kernels.push_back({.kernel = k.at("kernel").str(),
                         .target = k.at("target").str(),
                         .opcodes = k.at("opcodes").strings(),
                         .expected = k.at("expected").strings(),
                         .matched = k.at("matched").strings(),
                         .unavailable = k.at("unavailable").str()});
  }
  return s;
}

std::string case_result_json_line(const CaseResult& r) {
  return case_result_json(r).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string claim_json_line(const ClaimVerdict& c) {
  return claim_json(c).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string sass_json_line(const RunSass& s) {
  return run_sass_json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

CaseResult parse_case_result_line(const std::string& line, const std::string& file, int line_number) {
  // Named "result" as a whole line, placed at its start: a line is short.
  return parse_part_line(line, file, line_number, "result", [](const JsonNode& n) { return read_case_result(n); });
}

ClaimVerdict parse_claim_line(const std::string& line, const std::string& file, int line_number) {
  return parse_part_line(line, file, line_number, "claim",
                         [](const JsonNode& n) { return read_claim(n, RunReport::kSchemaVersion); });
}

RunSass parse_sass_line(const std::string& line, const std::string& file, int line_number) {
  return parse_part_line(line, file, line_number, "sass", [](const JsonNode& n) { return read_run_sass(n); });
}

}  // namespace ptxcts

#include "report/report_junit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <pugixml.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "results/report_json.hpp"

namespace ptxcts {

namespace {

// XML 1.0 forbids control characters other than tab, newline and return, even escaped; a
// toolkit message carrying one must not make the whole file unreadable.
std::string xml_text(std::string_view s) {
  std::string out;
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') out += c;
  return out;
}

void set(pugi::xml_node node, const char* name, std::string_view value) {
  node.append_attribute(name).set_value(xml_text(value).c_str());
}

void set(pugi::xml_node node, const char* name, int value) { node.append_attribute(name).set_value(value); }

void set_counts(pugi::xml_node suite, int tests, int failures, int errors, int skipped) {
  set(suite, "tests", tests);
  set(suite, "failures", failures);
  set(suite, "errors", errors);
  set(suite, "skipped", skipped);
}

// Every suite carries the run's identity, so a CI dashboard can tell runs on different GPUs apart.
void add_properties(pugi::xml_node suite, const RunInfo& info) {
  auto props = suite.append_child("properties");
  for (auto const& f : run_info_fields()) {
    auto p = props.append_child("property");
    set(p, "name", f.key);
    set(p, "value", info.*f.member);
  }
}

void add_result(pugi::xml_node suite, const CaseResult& r) {
  auto tc = suite.append_child("testcase");
  set(tc, "classname", fmt::format("ptxcts.{}.{}", r.family, r.kernel));
  set(tc, "name", r.case_name);
  if (r.fault_case) {  // what the GPU did with a broken rule is an observation, not a failure
    tc.append_child("system-out")
        .text()
        .set(xml_text(fmt::format("fault case: {}: {}", to_string(r.status), r.reason)).c_str());
    return;
  }
  switch (r.status) {
    case Status::Pass: break;
    case Status::Fail: {
      auto f = tc.append_child("failure");
      set(f, "message", r.reason);
      set(f, "type", "mismatch");
      f.text().set(xml_text(fmt::format("{} mismatches\n{}", r.mismatches, fmt::join(r.diff, "\n"))).c_str());
      break;
    }
    case Status::Error:
    case Status::Timeout:
    case Status::Crash: {
      auto e = tc.append_child("error");
      set(e, "message", r.reason);
      set(e, "type", to_string(r.status));
      break;
    }
    case Status::Skip: set(tc.append_child("skipped"), "message", r.reason); break;
  }
}

void add_claim(pugi::xml_node suite, const ClaimVerdict& c) {
  auto tc = suite.append_child("testcase");
  set(tc, "classname", fmt::format("ptxcts.claims.{}", c.family));
  set(tc, "name", c.id);
  std::string detail = fmt::format("{}\nsource: {}\nchecked: {}", c.text, c.source, fmt::join(c.checked, ", "));
  if (!c.note.empty()) detail += "\nnote: " + c.note;
  switch (c.verdict) {
    case Verdict::Confirmed: break;
    case Verdict::Contradicted: {
      auto f = tc.append_child("failure");
      set(f, "message", c.evidence);
      set(f, "type", "contradicted");
      f.text().set(xml_text(detail).c_str());
      break;
    }
    case Verdict::NotCheckable: set(tc.append_child("skipped"), "message", c.evidence); break;
    // Undefined behaviour recorded: neither a failure nor a skip (it did run); the record is in system-out.
    case Verdict::Observed:
      detail = "observed (undefined or unenforced behaviour, recorded, not judged)\n" + detail;
      break;
  }
  tc.append_child("system-out").text().set(xml_text(detail + "\nevidence: " + c.evidence).c_str());
}

}  // namespace

std::string report_junit(const RunReport& report) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";

  auto suites = doc.append_child("testsuites");
  set(suites, "name", "ptxcts");
  Totals t = report.totals();
  set_counts(suites, static_cast<int>(report.results.size()), t.fail, t.error + t.crash + t.timeout, t.skip);

  // Families in the order they first appear, so the file follows the catalog.
  std::vector<std::string> families;
  for (auto const& r : report.results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  for (auto const& family : families) {
    auto suite = suites.append_child("testsuite");
    set(suite, "name", family);
    RunReport part;  // the family's results alone, to count them the way the whole run is counted
    for (auto const& r : report.results)
      if (r.family == family) part.results.push_back(r);
    Totals ft = part.totals();
    set_counts(suite, static_cast<int>(part.results.size()), ft.fail, ft.error + ft.crash + ft.timeout, ft.skip);
    add_properties(suite, report.info);
    for (auto const& r : part.results) add_result(suite, r);
  }

  auto claims = suites.append_child("testsuite");
  set(claims, "name", "claims");
  int contradicted = 0, not_checkable = 0;
  for (auto const& c : report.claims) {
    contradicted += c.verdict == Verdict::Contradicted;
    not_checkable += c.verdict == Verdict::NotCheckable;
  }
  set_counts(claims, static_cast<int>(report.claims.size()), contradicted, 0, not_checkable);
  add_properties(claims, report.info);
  for (auto const& c : report.claims) add_claim(claims, c);

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace ptxcts

#include "report/report_junit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <pugixml.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "results/outcome.hpp"
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

// Every suite carries the run's identity, so a CI dashboard can tell runs on different GPUs apart.
void add_properties(pugi::xml_node suite, const RunInfo& info) {
  auto props = suite.append_child("properties");
  for (auto const& f : run_info_fields()) {
    auto p = props.append_child("property");
    set(p, "name", f.key);
    set(p, "value", info.*f.member);
  }
}

// One rule, the one `ptxcts run` exits by: a <failure> (a case that failed) or an <error> (one that
// errored, crashed or timed out) only where it exits 1 (results/outcome's needs_action). Everything
// else passes or is skipped, with its outcome in the suite's own words beside it.
void add_result(pugi::xml_node suite, const CaseResult& r) {
  auto tc = suite.append_child("testcase");
  set(tc, "classname", fmt::format("ptxcts.{}.{}", r.family, r.kernel));
  set(tc, "name", r.case_name);
  const Outcome o = outcome_of(r);
  std::string said = fmt::format("outcome: {}{}", label(o), r.reason.empty() ? "" : ": " + r.reason);
  if (!r.known.empty()) said += "\nknown difference: " + r.known;
  if (o == Outcome::Undefined) said += "\nthe GPU " + undefined_observation(r) + "; undefined here: " + r.undefined;
  if (!r.ran_on.empty()) said += "\nran on " + r.ran_on;
  if (needs_action(r)) {
    auto f = tc.append_child(o == Outcome::Fail ? "failure" : "error");
    set(f, "message", r.reason);
    set(f, "type", token(o));
    f.text().set(xml_text(o == Outcome::Fail
                              ? fmt::format("{} mismatches\n{}", r.mismatches, fmt::join(r.diff, "\n"))
                              : r.reason)
                     .c_str());
    return;
  }
  if (o == Outcome::NotSupported || o == Outcome::Skipped)
    set(tc.append_child("skipped"), "message", fmt::format("{}: {}", label(o), r.reason));
  // Passed, a fault case's or an undefined case's observation, or a known difference: the words go
  // to system-out.
  if (o != Outcome::Pass || !r.known.empty()) tc.append_child("system-out").text().set(xml_text(said).c_str());
}

// The documentation findings: the claims' verdicts, as properties of the root's first suite and in full
// in its system-out. They are findings about documents, never failures of the GPU's conformance.
void add_findings(pugi::xml_node suite, const RunReport& report) {
  auto props = suite.child("properties");
  auto verdict = props.append_child("property");
  set(verdict, "name", "verdict");
  set(verdict, "value", verdict_line(report));
  std::string text = verdict_line(report) + "\n";
  for (auto const& c : report.claims) {
    auto p = props.append_child("property");
    set(p, "name", "claim." + c.id);
    set(p, "value", std::string(to_string(c.verdict)) + (c.known.empty() ? "" : " (known)"));
    text += fmt::format("claim {}: {}{}\n  \u201c{}\u201d ({})\n  evidence: {}\n", c.id, to_string(c.verdict),
                        c.known.empty() ? "" : " (known: " + c.known + ")", c.text, c.source, c.evidence);
  }
  suite.append_child("system-out").text().set(xml_text(text).c_str());
}

struct SuiteCounts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

SuiteCounts counts_of(const std::vector<const CaseResult*>& results) {
  SuiteCounts c;
  for (auto const* r : results) {
    ++c.tests;
    const Outcome o = outcome_of(*r);
    if (needs_action(*r)) ++(o == Outcome::Fail ? c.failures : c.errors);
    else c.skipped += o == Outcome::NotSupported || o == Outcome::Skipped;
  }
  return c;
}

// Jenkins' JUnit schema allows "skipped" on a suite but not on the root <testsuites>.
void set_counts(pugi::xml_node suite, const SuiteCounts& c, bool root = false) {
  set(suite, "tests", c.tests);
  set(suite, "failures", c.failures);
  set(suite, "errors", c.errors);
  if (!root) set(suite, "skipped", c.skipped);
}

}  // namespace

std::string report_junit(const RunReport& report) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";

  auto suites = doc.append_child("testsuites");
  set(suites, "name", "ptxcts");
  std::vector<const CaseResult*> all;
  for (auto const& r : report.results) all.push_back(&r);
  set_counts(suites, counts_of(all), true);  // the sum of the suites below: each case is in exactly one

  // Families in the order they first appear, so the file follows the catalog.
  std::vector<std::string> families;
  for (auto const& r : report.results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  for (auto const& family : families) {
    auto suite = suites.append_child("testsuite");
    set(suite, "name", family);
    std::vector<const CaseResult*> part;
    for (auto const& r : report.results)
      if (r.family == family) part.push_back(&r);
    set_counts(suite, counts_of(part));
    add_properties(suite, report.info);
    for (auto const* r : part) add_result(suite, *r);
    if (family == families.front()) add_findings(suite, report);  // after the cases: the schema's order
  }

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace ptxcts

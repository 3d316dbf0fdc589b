#include "report/run/report_junit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <pugixml.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "results/outcome.hpp"
#include "report/run/report_json.hpp"

namespace ptxcts {

std::string junit_form(const std::string& instruction) {
  std::string out;
  for (std::size_t k = 0; k < instruction.size(); ++k) {
    if (instruction.compare(k, 3, " ; ") == 0) {  // a kernel of several instructions: "first+second"
      out += '+';
      k += 2;
    } else {
      const char c = instruction[k];
      out += c == '.' ? '-' : c == ' ' || c == '\n' || c == '\t' || c == '\r' ? '_' : c;
    }
  }
  return out;
}

std::string junit_classname(const std::string& family, const std::string& instruction) {
  return fmt::format("ptxcts.{}.{}", junit_form(family), junit_form(instruction));
}

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

// Jenkins' schema takes at most three decimals on a suite's time (SUREFIRE_TIME); a testcase's any.
std::string suite_seconds(double s) { return fmt::format("{:.3f}", s); }
std::string case_seconds(double s) { return fmt::format("{:.6f}", s); }

void add_text(pugi::xml_node node, const char* element, const std::string& text) {
  node.append_child(element).text().set(xml_text(text).c_str());
}

// Every suite carries the run's identity, so a CI dashboard can tell runs on different GPUs apart.
void add_properties(pugi::xml_node suite, const RunReport& report) {
  auto props = suite.append_child("properties");
  for (auto const& f : run_info_fields()) {
    auto p = props.append_child("property");
    set(p, "name", f.key);
    set(p, "value", report.info.*f.member);
  }
  auto verdict = props.append_child("property");
  set(verdict, "name", "verdict");
  set(verdict, "value", verdict_line(report));
}

// What a case took, from what the run measured (results.hpp's RunTiming): a case of the main line ran
// in a batch, and the runners time batches, not launches, so its time is the GPU time per launch
// (launches / launch count); an isolated case (fault or undefined: the fault line, one launch a
// runner) shares the fault line's wall time; a case that did not run took none.
struct CaseTimes {
  double batched = 0, isolated = 0;
  explicit CaseTimes(const RunReport& report) {
    const RunTiming& t = report.timing;
    int isolated_ran = 0;
    for (auto const& r : report.results) isolated_ran += ran(r) && isolated_case(r);
    if (t.launch_count > 0) batched = t.launches / t.launch_count;
    if (isolated_ran > 0) isolated = t.faults / isolated_ran;
  }
  static bool ran(const CaseResult& r) {
    const Outcome o = outcome_of(r);
    return o != Outcome::NotSupported && o != Outcome::Skipped;
  }
  static bool isolated_case(const CaseResult& r) { return r.fault_case || !r.undefined.empty(); }
  double of(const CaseResult& r) const { return !ran(r) ? 0 : isolated_case(r) ? isolated : batched; }
};

// One rule, the one `ptxcts run` exits by: a <failure> (a case that failed) or an <error> (one that
// errored, crashed or timed out) only where it exits 1 (results/outcome's needs_action). Everything
// else passes or is skipped, with its outcome in the suite's own words beside it.
void add_result(pugi::xml_node suite, const CaseResult& r, double seconds) {
  auto tc = suite.append_child("testcase");
  set(tc, "name", case_id(r));
  set(tc, "classname", junit_classname(r.family, r.instruction));
  set(tc, "time", case_seconds(seconds));
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
  if (o != Outcome::Pass || !r.known.empty()) add_text(tc, "system-out", said);
}

// A documentation claim: a testcase of its family's class "claims", named by its id. Its verdict is a
// finding about a document, never a failure of the GPU: it passes (its verdict and evidence in
// system-out, "documentation finding" first where the run contradicts it), or is skipped where the
// run could not check it.
void add_claim(pugi::xml_node suite, const ClaimVerdict& c) {
  auto tc = suite.append_child("testcase");
  set(tc, "name", c.id);
  set(tc, "classname", fmt::format("ptxcts.{}.claims", junit_form(c.family)));
  set(tc, "time", case_seconds(0));
  const std::string text =
      fmt::format("{}claim {}: {}{}\n\u201c{}\u201d ({})\nevidence: {}",
                  documentation_finding(c) ? "documentation finding: "
                  : refuted_hypothesis(c)  ? "the suite's hypothesis refuted (its reading of figures): "
                                           : "",
                  c.id, to_string(c.verdict),
                  c.known.empty() ? "" : " (known: " + c.known + ")", c.text, c.source, c.evidence);
  if (c.verdict == Verdict::NotCheckable)
    set(tc.append_child("skipped"), "message", fmt::format("not checkable: {}", c.evidence));
  add_text(tc, "system-out", text);
}

// The run's verdict as a testcase of its own ("ptxcts.run" / "verdict"), so that both Jenkins and
// GitLab show it: a <failure> whose message is the verdict line where the run exits 1 (a case needs
// action), else a pass; its system-out has the verdict and every documentation finding. Its time is
// the rest of the run's wall time (planning, assembling, comparing, the reports; none where the
// cases' times, of the main and the fault line that run side by side, add up to more), so that the
// file's total is at least the run's wall time.
void add_verdict(pugi::xml_node suite, const RunReport& report, double cases_seconds) {
  auto tc = suite.append_child("testcase");
  set(tc, "name", "verdict");
  set(tc, "classname", "ptxcts.run");
  set(tc, "time", case_seconds(std::max(0.0, report.timing.wall - cases_seconds)));
  const std::string line = verdict_line(report);
  std::string text = line + "\n";
  for (auto const& c : report.claims)
    if (c.verdict == Verdict::Contradicted)
      text += fmt::format("{}: claim {} contradicted{}\n",
                          c.hypothesis ? "the suite's hypothesis refuted" : "documentation finding", c.id,
                          c.known.empty() ? "" : " (known)");
  if (verdict_tone(report) == VerdictTone::DoesNotConform) {
    auto f = tc.append_child("failure");
    set(f, "message", line);
    set(f, "type", "does-not-conform");
  }
  add_text(tc, "system-out", text);
}

struct SuiteCounts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
};

void count_testcases(SuiteCounts& c, pugi::xml_node suite) {
  for (auto tc : suite.children("testcase")) {
    ++c.tests;
    c.failures += !tc.child("failure").empty();
    c.errors += !tc.child("error").empty();
    c.skipped += !tc.child("skipped").empty();
    c.seconds += tc.attribute("time").as_double();
  }
}

// Jenkins' JUnit schema allows "skipped" on a suite but not on the root <testsuites>. The counts
// and times are what the testcases below add up to (each testcase is in exactly one suite).
void set_counts(pugi::xml_node node, const SuiteCounts& c, bool root) {
  set(node, "tests", c.tests);
  set(node, "failures", c.failures);
  set(node, "errors", c.errors);
  if (!root) set(node, "skipped", c.skipped);
  set(node, "time", suite_seconds(c.seconds));
}

}  // namespace

std::string report_junit(const RunReport& report) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = doc.append_child("testsuites");
  set(root, "name", "ptxcts");

  // A suite per family, in the order the results first name it (so the file follows the catalog),
  // then the run's own suite: its verdict.
  std::vector<std::string> families;
  for (auto const& r : report.results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  for (auto const& c : report.claims)
    if (std::find(families.begin(), families.end(), c.family) == families.end()) families.push_back(c.family);
  const CaseTimes times(report);
  double cases_seconds = 0;
  for (auto const& r : report.results) cases_seconds += times.of(r);
  std::vector<pugi::xml_node> suites;
  for (auto const& family : families) {
    auto suite = root.append_child("testsuite");
    set(suite, "name", fmt::format("ptxcts.{}", junit_form(family)));
    add_properties(suite, report);
    for (auto const& r : report.results)
      if (r.family == family) add_result(suite, r, times.of(r));
    for (auto const& c : report.claims)
      if (c.family == family) add_claim(suite, c);
    suites.push_back(suite);
  }
  auto run = root.append_child("testsuite");
  set(run, "name", "ptxcts.run");
  add_properties(run, report);
  add_verdict(run, report, cases_seconds);
  suites.push_back(run);

  SuiteCounts all;
  for (auto suite : suites) {
    SuiteCounts c;
    count_testcases(c, suite);
    set_counts(suite, c, false);
    set(suite, "timestamp", report.info.date);
    if (!report.info.host.empty()) set(suite, "hostname", report.info.host);
    count_testcases(all, suite);
  }
  set_counts(root, all, true);
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace ptxcts

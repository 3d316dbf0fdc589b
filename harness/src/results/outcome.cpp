#include "results/outcome.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <stdexcept>

namespace ptxcts {

Outcome outcome_of(const CaseResult& r) {
  // Whatever the GPU did where the documents leave it undefined is an observation; what the harness
  // could not do (not supported, skipped, an error of its own) stays what it is.
  const bool ran = r.status == Status::Pass || r.status == Status::Fail || r.status == Status::Crash ||
                   r.status == Status::Timeout;
  if (!r.undefined.empty() && ran) return Outcome::Undefined;
  switch (r.status) {
    case Status::Pass: return r.fault_case ? Outcome::RanWithoutFault : Outcome::Pass;
    // A fault case that ran clean may still give what the model cannot judge: it did not fault.
    case Status::Fail: return r.fault_case ? Outcome::RanWithoutFault : Outcome::Fail;
    case Status::NotSupported: return Outcome::NotSupported;
    case Status::Skip: return Outcome::Skipped;
    case Status::Error: return Outcome::Error;
    case Status::Crash:
      return !r.fault_case ? Outcome::Crash : r.fault_expected ? Outcome::Faulted : Outcome::FaultedWhereAllowed;
    case Status::Timeout: return Outcome::Timeout;
  }
  return Outcome::Error;
}

const char* token(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "fail";
    case Outcome::NotSupported: return "not-supported";
    case Outcome::Skipped: return "skipped";
    case Outcome::Error: return "error";
    case Outcome::Crash: return "crash";
    case Outcome::Timeout: return "timeout";
    case Outcome::Faulted: return "faulted";
    case Outcome::RanWithoutFault: return "no-fault";
    case Outcome::FaultedWhereAllowed: return "faulted-where-allowed";
    case Outcome::Undefined: return "undefined";
  }
  return "error";
}

const char* label(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "passed";
    case Outcome::Fail: return "failed";
    case Outcome::NotSupported: return "not supported";
    case Outcome::Skipped: return "skipped";
    case Outcome::Error: return "error";
    case Outcome::Crash: return "crashed";
    case Outcome::Timeout: return "timed out";
    case Outcome::Faulted: return "faulted as the rule says";
    case Outcome::RanWithoutFault: return "ran without a fault";
    case Outcome::FaultedWhereAllowed: return "faulted where the manual allows it";
    case Outcome::Undefined: return "undefined on its target, observed";
  }
  return "error";
}

Outcome outcome_from_token(const std::string& s) {
  for (Outcome o : kOutcomes)
    if (s == token(o)) return o;
  throw std::invalid_argument(
      "unknown outcome '" + s +
      "'; expected pass, fail, not-supported, skipped, error, crash, timeout, faulted, no-fault, "
      "faulted-where-allowed or undefined");
}

std::string undefined_observation(const CaseResult& r) {
  switch (r.status) {
    case Status::Pass: return "gave the values the suite's model computes for it (as where it is defined)";
    case Status::Fail:
      return fmt::format("gave other values ({} element{} differ{})", count_text(r.mismatches),
                         r.mismatches == 1 ? "" : "s", r.mismatches == 1 ? "s" : "");
    case Status::Crash: return "faulted (" + r.reason + ")";
    case Status::Timeout: return "gave no result in time (" + r.reason + ")";
    default: return r.reason;
  }
}

bool needs_action(const CaseResult& r) {
  const Outcome o = outcome_of(r);  // undefined: an observation, as a fault case's
  return !r.fault_case && r.known.empty() && (o == Outcome::Fail || o == Outcome::Error || o == Outcome::Crash || o == Outcome::Timeout);
}

int Tally::cases() const {
  int sum = 0;
  for (int k : n) sum += k;
  return sum;
}

Tally tally(const std::vector<CaseResult>& results) {
  Tally t;
  for (auto const& r : results) {
    const auto o = static_cast<std::size_t>(outcome_of(r));
    ++t.n[o];
    if (needs_action(r)) {
      ++t.acting[o];
      ++t.needing_action;
    }
  }
  return t;
}

std::string count_text(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return (n < 0 ? "-" : "") + out;
}

namespace {

std::string counted(long long n, const char* one, const char* many) {
  return count_text(n) + " " + (n == 1 ? one : many);
}

int claims_with(const RunReport& report, Verdict v) {
  int n = 0;
  for (auto const& c : report.claims) n += c.verdict == v;
  return n;
}

// "; 24 fault cases faulted as the rules say, 36 faulted where the manual allows it, 148 ran without a
// fault" (nothing when there are none).
std::string fault_part(const Tally& t) {
  const int faulted = t[Outcome::Faulted], clean = t[Outcome::RanWithoutFault],
            allowed = t[Outcome::FaultedWhereAllowed];
  if (faulted + clean + allowed == 0) return "";
  std::string s = "; " + counted(faulted, "fault case faulted as the rule says", "fault cases faulted as the rules say");
  if (allowed) s += fmt::format(", {} faulted where the manual allows it", count_text(allowed));
  if (clean) s += fmt::format(", {} ran without a fault", count_text(clean));
  return s;
}

// "; 2 undefined on sm_75, observed": the targets of the code that ran (nothing when there are none).
std::string undefined_part(const RunReport& report, const Tally& t) {
  if (!t[Outcome::Undefined]) return "";
  std::set<std::string> targets;
  for (auto const& r : report.results)
    if (outcome_of(r) == Outcome::Undefined) targets.insert(r.target.empty() ? report.info.sm : r.target);
  return fmt::format("; {} undefined on {}, observed", count_text(t[Outcome::Undefined]), fmt::join(targets, ", "));
}

// "; 2 documentation findings, 35 claims undecided (their cases need action)": the claims the GPU's
// own failures would contradict are no findings, and are counted apart; so are the suite's own
// hypotheses the run refutes (readings of figures: no finding about the documents), with their cases.
std::string findings_part(const RunReport& report) {
  int n = 0, refuted = 0;
  std::set<std::string> refuted_cases;  // kernel/case of a refuted hypothesis
  for (auto const& c : report.claims) {
    n += documentation_finding(c);
    if (!refuted_hypothesis(c)) continue;
    ++refuted;
    refuted_cases.insert(c.checked.begin(), c.checked.end());
  }
  const int undecided = claims_with(report, Verdict::Undecided);
  int known = 0, known_refuting = 0;  // differences an expectation names (judge/expectations), or a refuted hypothesis
  for (auto const& r : report.results)
    if (!r.known.empty()) ++(refuted_cases.count(r.kernel + "/" + r.case_name) ? known_refuting : known);
  for (auto const& c : report.claims) known += !c.known.empty();
  return (n ? "; " + counted(n, "documentation finding", "documentation findings") : "; no documentation findings") +
         (undecided ? ", " + counted(undecided, "claim undecided (its cases need action)",
                                     "claims undecided (their cases need action)")
                    : "") +
         (refuted ? fmt::format("; {} of the suite's hypotheses refuted (its readings of figures, not findings about "
                                "the documents; their {} marked known)",
                                count_text(refuted), counted(known_refuting, "case", "cases"))
                  : "") +
         (known ? "; " + counted(known, "known difference", "known differences") + " (expectations)" : "");
}

// ", 540 not supported on sm_90, 12 skipped"
std::string not_run_part(const RunReport& report, const Tally& t) {
  std::string s;
  if (t[Outcome::NotSupported])
    s += fmt::format(", {} not supported{}", count_text(t[Outcome::NotSupported]),
                     report.info.sm.empty() ? "" : " on " + report.info.sm);
  if (t[Outcome::Skipped]) s += fmt::format(", {} skipped", count_text(t[Outcome::Skipped]));
  return s;
}

}  // namespace

VerdictTone verdict_tone(const RunReport& report) {
  const Tally t = tally(report.results);
  if (t.needing_action) return VerdictTone::DoesNotConform;
  return t[Outcome::Pass] ? VerdictTone::Conforms : VerdictTone::NothingChecked;
}

std::string verdict_line(const RunReport& report) {
  const Tally t = tally(report.results);
  switch (verdict_tone(report)) {
    case VerdictTone::DoesNotConform: {
      std::string why;
      for (Outcome o : {Outcome::Fail, Outcome::Error, Outcome::Crash, Outcome::Timeout})
        if (const int k = t.needing_action_of(o))
          why += fmt::format("{}{} {}", why.empty() ? "" : ", ", count_text(k), label(o));
      return fmt::format("Does not conform: {} of {} need action ({}); {} as documented{}{}{}.",
                         count_text(t.needing_action), counted(t.cases(), "case", "cases"), why,
                         count_text(t[Outcome::Pass]), not_run_part(report, t), fault_part(t) + undefined_part(report, t),
                         findings_part(report));
    }
    case VerdictTone::NothingChecked:
      return fmt::format("Nothing checked: none of {} ran and passed{}{}{}.", counted(t.cases(), "case", "cases"),
                         not_run_part(report, t), fault_part(t) + undefined_part(report, t), findings_part(report));
    case VerdictTone::Conforms: break;
  }
  return fmt::format("Conforms: {} as documented{}{}{}.", counted(t[Outcome::Pass], "case", "cases"),
                     not_run_part(report, t), fault_part(t) + undefined_part(report, t), findings_part(report));
}

}  // namespace ptxcts

// The one vocabulary of outcomes. Every line, file and page the suite writes (console, JSON,
// Markdown, JUnit, HTML, the fleet page, diff) names a case's outcome with these words and counts
// them the same way, in the manner of VK-GL-CTS's closed set of results:
//   pass, fail                 the case ran and its result matched (or did not) the spec's rules;
//   not-supported              the GPU, target or PTX ISA version lacks the form (counts as conformant);
//   skipped                    not run for any other reason (said in the case's reason);
//   error, crash, timeout      only what was not planned;
//   faulted / ran without a fault
//                              a fault case (a documented rule broken on purpose): an observation
//                              of what the GPU did, never a failure, shown in neutral colours;
//   undefined                  a case the documents leave undefined on its target (the manual's "for
//                              .target sm_75 or below ... the behavior is undefined"): what the GPU
//                              did is an observation too, whatever it was.
// Documentation claims are findings, apart from this: their verdicts are results.hpp's Verdict (a
// claim that only cases needing action would contradict is `undecided`, never a finding).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "results/results.hpp"

namespace ptxcts {

// FaultedWhereAllowed: an edge case the manual allows (CaseResult::fault_expected false) faulted all
// the same: an observation against the manual's words (its claim says so), never an action for the GPU.
enum class Outcome {
  Pass,
  Fail,
  NotSupported,
  Skipped,
  Error,
  Crash,
  Timeout,
  Faulted,
  RanWithoutFault,
  FaultedWhereAllowed,
  Undefined
};
inline constexpr Outcome kOutcomes[] = {Outcome::Pass,         Outcome::Fail,    Outcome::NotSupported,
                                        Outcome::Skipped,      Outcome::Error,   Outcome::Crash,
                                        Outcome::Timeout,      Outcome::Faulted, Outcome::RanWithoutFault,
                                        Outcome::FaultedWhereAllowed, Outcome::Undefined};

Outcome outcome_of(const CaseResult& r);
const char* token(Outcome o);  // the word in files and CSS classes: "not-supported", "no-fault", ...
const char* label(Outcome o);  // the words a reader sees: "not supported", "faulted as the rule says", ...
Outcome outcome_from_token(const std::string& s);  // throws std::invalid_argument

// What the GPU did in a case of outcome undefined, in words: "faulted (CUDA_ERROR_...)", "gave the
// values the suite's model computes for it (as where it is defined)" (the case's description says
// what its model reads: lane 0's address, the given stride, the metadata as plain mma.sp reads it),
// "gave other values (12 elements differ)" (its diff: where, lane by lane), "gave no result in time".
std::string undefined_observation(const CaseResult& r);

// What `ptxcts run` exits 1 for (and JUnit alone calls a failure or an error): a case that is not a
// fault case, failed, errored, crashed or timed out, and is not a known difference (CaseResult::known).
bool needs_action(const CaseResult& r);

// How many cases had each outcome: one denominator (every case of the report) for every place
// that counts.
struct Tally {
  std::array<int, std::size(kOutcomes)> n{};
  std::array<int, std::size(kOutcomes)> acting{};  // of those, the cases that need action (needs_action)
  int needing_action = 0;                          // the sum of `acting`
  int operator[](Outcome o) const { return n[static_cast<std::size_t>(o)]; }
  int needing_action_of(Outcome o) const { return acting[static_cast<std::size_t>(o)]; }
  int cases() const;
  bool operator==(const Tally&) const = default;
};
Tally tally(const std::vector<CaseResult>& results);

// "4,462": counts as people read them.
std::string count_text(long long n);

// The verdict in one line, first on every page and last on the console, e.g.
// "Conforms: 3,922 cases as documented, 540 not supported on sm_90; 60 fault cases faulted as the
// rules say; 3 documentation findings." (", 35 claims undecided (their cases need action)" after the
// findings where there are any.)
std::string verdict_line(const RunReport& report);
enum class VerdictTone { Conforms, DoesNotConform, NothingChecked };
VerdictTone verdict_tone(const RunReport& report);

}  // namespace ptxcts

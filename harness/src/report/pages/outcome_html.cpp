#include "report/pages/outcome_html.hpp"

#include <fmt/format.h>

namespace ptxcts {

void verdict_banner(pugi::xml_node parent, const RunReport& report) {
  const VerdictTone tone = verdict_tone(report);
  el(parent, "p",
     {{"id", "verdict"},
      {"class", tone == VerdictTone::Conforms         ? "verdict conforms"
                : tone == VerdictTone::DoesNotConform ? "verdict needs-action"
                                                      : "verdict unchecked"}},
     verdict_line(report));
}

void outcome_tally(pugi::xml_node parent, const Tally& t) {
  pugi::xml_node p = el(parent, "p", {{"class", "totals"}});
  text(p, fmt::format("{} cases: ", count_text(t.cases())));
  for (Outcome o : kOutcomes) {
    if ((o == Outcome::Faulted || o == Outcome::RanWithoutFault || o == Outcome::Undefined) && t[o] == 0) continue;
    // A failure that is a known difference is counted among its outcome but needs no action: grey.
    const bool grey = t[o] == 0 || ((o == Outcome::Fail || o == Outcome::Error || o == Outcome::Crash ||
                                     o == Outcome::Timeout) && t.needing_action_of(o) == 0);
    // Said on the badge too, so that no known difference reads as a failure: "480 failed (known)",
    // "2 failed (1 known)".
    const int acting = t.needing_action_of(o), known = (o == Outcome::Fail || o == Outcome::Error ||
                                                         o == Outcome::Crash || o == Outcome::Timeout)
                                                            ? t[o] - acting
                                                            : 0;
    el(p, "span", {{"class", fmt::format("badge {}", grey ? "zero" : token(o))}},
       fmt::format("{} {}{}", count_text(t[o]), label(o),
                   known == 0     ? ""
                   : acting == 0  ? " (known)"
                                  : fmt::format(" ({} known)", count_text(known))));
  }
}

}  // namespace ptxcts

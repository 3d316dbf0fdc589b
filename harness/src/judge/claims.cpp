#include "judge/claims.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "kinds/kinds.hpp"
#include "results/outcome.hpp"

namespace ptxcts {
namespace {

bool step_selected(const ClaimCheck& ck, const Instance& step) {
  if (step.variant().name != ck.variant) return false;
  for (auto const& [axis, texts] : ck.where)
    if (std::find(texts.begin(), texts.end(), step.option(axis).text) == texts.end()) return false;
  return true;
}

// The kernels that check a claim on the variant: its kind says which (kinds/instruction_kind.hpp).
bool selected(const ClaimCheck& ck, const KernelPlan& k) {
  return kind_of(k).checks_claim_on(k, [&](const Instance& step) { return step_selected(ck, step); });
}

// A case whose own result the specs call wrong: the GPU got wrong the very thing a claim resting on it
// is about, so what the case says of the document is undecided on this run. That is a case that
// needs action (results/outcome), or a fault case that ran without a fault and gave wrong values (an
// edge case the manual allows, computed wrong). A fault case that faulted or hung is behaviour the
// claim speaks of, and a known difference (an expectation) is the GPU's known behaviour: neither is.
bool gpu_got_it_wrong(const CaseResult& r) {
  if (!r.known.empty()) return false;
  return r.fault_case ? r.status == Status::Fail : needs_action(r);
}

// A contradiction every contradicting case of which the GPU got wrong is no documentation finding:
// the claim is undecided on this run (its cases need action).
void undecided_if_the_gpu_is_wrong(ClaimVerdict& v, const std::vector<const CaseResult*>& contradicting) {
  if (v.verdict != Verdict::Contradicted || contradicting.empty()) return;
  for (auto const* r : contradicting)
    if (!gpu_got_it_wrong(*r)) return;
  v.verdict = Verdict::Undecided;
  v.evidence = fmt::format(
      "undecided: every case that contradicts the claim needs action on this run (the GPU gets wrong what the claim "
      "is about), so the run cannot say whether the document is right; {}",
      v.evidence);
}

// What the selected cases did; those the documents leave undefined on their target counted apart.
struct CaseTally {
  int pass = 0, fail = 0, fault = 0, undefined = 0;
  const CaseResult* first_bad = nullptr;
  const CaseResult* first_other = nullptr;
  const CaseResult* first_undefined = nullptr;  // the documents leave it undefined on its target: not judged
  std::set<std::string> errors;
  std::vector<const CaseResult*> bad_cases;
  int ran() const { return pass + fail + fault; }
};

// The cases' outcomes; each case judged (not undefined) goes into the verdict's `checked`.
CaseTally tally_cases(ClaimVerdict& v, const std::vector<const CaseResult*>& rs) {
  CaseTally t;
  for (auto const* r : rs) {
    if (outcome_of(*r) == Outcome::Undefined) {
      ++t.undefined;
      if (!t.first_undefined) t.first_undefined = r;
      continue;
    }
    v.checked.push_back(r->kernel + "/" + r->case_name);
    if (r->status == Status::Pass) ++t.pass;
    else if (r->status == Status::Fail) {
      ++t.fail;
      if (!t.first_bad) t.first_bad = r;
      t.bad_cases.push_back(r);
    } else if (r->status == Status::Crash || r->status == Status::Timeout) {
      ++t.fault;
      if (!t.first_bad) t.first_bad = r;
      t.bad_cases.push_back(r);
      t.errors.insert(r->reason.substr(r->reason.find(": ") == std::string::npos ? 0 : r->reason.find(": ") + 2));
    } else if (!t.first_other) t.first_other = r;
  }
  return t;
}

// The tally in words: how many of the selected cases ran, and how.
std::string tally_text(const CaseTally& t, std::size_t selected) {
  std::string tally = fmt::format("{} of {} selected cases ran: {} passed, {} failed, {} faulted or hung", t.ran(),
                                  selected - t.undefined, t.pass, t.fail, t.fault);
  if (t.undefined)
    tally += fmt::format(" ({} more undefined on their target, observed and not judged)", t.undefined);
  if (!t.errors.empty()) tally += fmt::format(" ({})", fmt::join(t.errors, "; "));
  if (t.first_bad && t.fail)
    tally += fmt::format(" (first difference: {}: {})", case_id(*t.first_bad), t.first_bad->reason);
  return tally;
}

// What the GPU returned where the documents allow more than one result (CaseResult::observed), for
// the evidence: each distinct observation once, with how many of the cases gave it and the first.
std::string observations(const std::vector<const CaseResult*>& rs) {
  constexpr std::size_t kShown = 4;
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, const CaseResult*>> seen;
  for (auto const* r : rs)
    if (!r->observed.empty() && seen[r->observed].first++ == 0) {
      seen[r->observed].second = r;
      order.push_back(r->observed);
    }
  if (order.empty()) return "";
  std::string out = "; observed where the documents allow more than one result:";
  for (std::size_t k = 0; k < order.size() && k < kShown; ++k) {
    auto const& [n, first] = seen[order[k]];
    out += fmt::format(" [{} case{}, first {}] {}", n, n == 1 ? "" : "s", case_id(*first), order[k]);
  }
  if (order.size() > kShown)
    out += fmt::format(" (and {} more observations: each case's own in the report)", order.size() - kShown);
  return out;
}

// A claim that records what the documents leave undefined (expect observe), judged on cases undefined
// on their target: what each did is the observation (results/outcome's words, and its first
// difference from what the suite's model computes, lane by lane), never a verdict.
void observe_undefined(ClaimVerdict& v, const std::vector<const CaseResult*>& rs) {
  std::vector<std::string> seen;
  for (auto const* r : rs) {
    if (outcome_of(*r) != Outcome::Undefined) continue;
    v.checked.push_back(r->kernel + "/" + r->case_name);
    seen.push_back(fmt::format("{} on {}: {}{}", case_id(*r), r->target, undefined_observation(*r),
                               r->diff.empty() ? "" : " (first: " + r->diff.front() + ")"));
  }
  v.verdict = Verdict::Observed;
  v.evidence = fmt::format("undefined behaviour, observed ({} case{}, never a failure): {}", seen.size(),
                           seen.size() == 1 ? "" : "s", fmt::join(seen, "; "));
}

void judge_cases(ClaimVerdict& v, const std::vector<const CaseResult*>& rs, Expect expect, const std::string& no_gpu) {
  const CaseTally t = tally_cases(v, rs);
  const int ran = t.ran();
  if (expect == Expect::Observe && t.undefined > 0 && no_gpu.empty()) {
    observe_undefined(v, rs);
    return;
  }
  if (ran == 0) {
    v.verdict = Verdict::NotCheckable;
    v.evidence = !no_gpu.empty() ? no_gpu
                 : t.first_undefined
                     ? fmt::format("this run cannot judge it: the documents leave its {} cases undefined on {}: {}",
                                   t.undefined, t.first_undefined->target, t.first_undefined->undefined)
                 : t.first_other ? fmt::format("no case ran: {}", t.first_other->reason)
                                 : "no case selected";
    return;
  }
  const std::string tally = tally_text(t, rs.size()) + observations(rs);
  if (expect == Expect::Observe) {  // undefined or unspecified: what happened is the record, not a verdict
    v.verdict = Verdict::Observed;
    // cases that say which result the GPU gave (CaseResult::observed) ask what the words leave unspecified
    const bool unspecified = std::any_of(rs.begin(), rs.end(), [](auto const* r) { return !r->observed.empty(); });
    v.evidence = (unspecified ? "left unspecified by the documents, observed: " : "undefined behaviour, observed: ") + tally;
    return;
  }
  if (expect == Expect::Fault) {
    v.verdict = t.fault == ran ? Verdict::Confirmed : Verdict::Observed;
    v.evidence = tally + (t.fault == ran ? "; the GPU enforces the rule"
                                         : "; the GPU does not enforce the rule in every case (the behaviour is "
                                           "undefined, so this is an observation)");
    return;
  }
  const int bad = t.fail + t.fault;
  const bool holds = expect == Expect::Pass ? bad == 0 : bad > 0;
  v.verdict = holds ? Verdict::Confirmed : Verdict::Contradicted;
  v.evidence = tally + (expect == Expect::Pass ? "" : "; the claim holds only if these cases fail");
  if (expect == Expect::Pass) undecided_if_the_gpu_is_wrong(v, t.bad_cases);
}

// The cases a claim of kind `cases` rests on (fault cases, and cases asked only by name, only where
// it names them).
std::vector<const CaseResult*> claim_cases(const Suite& suite, const Claim& c, const std::vector<CaseResult>& results) {
  std::vector<const CaseResult*> rs;
  std::set<std::string_view> named_only;
  for (auto const& cs : suite.specs.cases.cases)
    if (cs.named_only) named_only.insert(cs.name);
  for (auto const& r : results) {
    const KernelPlan* k = suite.find_kernel(r.kernel);
    bool case_ok = c.check.cases.empty() ? !r.fault_case && !named_only.count(r.case_name)
                                         : std::count(c.check.cases.begin(), c.check.cases.end(), r.case_name) > 0;
    if (k && case_ok && selected(c.check, *k)) rs.push_back(&r);
  }
  return rs;
}

// A hypothesis (Claim::hypothesis) whose cases gave wrong values, on a GPU that gets every other case
// of the family right (none outside the hypotheses needs action: what the reading rests on holds):
// the GPU does otherwise than the suite reads the figures, a finding about the reading. Else it
// stays undecided, as any claim whose cases need action (a wrong device has no finding of it).
void hypothesis_verdict(ClaimVerdict& v, const std::vector<const CaseResult*>& own,
                        const std::set<const CaseResult*>& hypotheses, const std::vector<CaseResult>& all) {
  if (v.verdict != Verdict::Undecided) return;
  for (auto const* r : own)
    if (needs_action(*r) && r->status != Status::Fail) return;  // crashed, hung or errored
  for (auto const& r : all)
    if (r.family == v.family && !hypotheses.count(&r) && needs_action(r)) {
      v.evidence += "; not judged as the suite's reading: other cases of the family need action on this run";
      return;
    }
  std::string evidence = v.evidence;  // the tally after undecided_if_the_gpu_is_wrong's words
  if (auto at = evidence.find("; "); evidence.starts_with("undecided: ") && at != std::string::npos)
    evidence = evidence.substr(at + 2);
  v.verdict = Verdict::Contradicted;
  v.evidence = "the suite's reading of what the documents give only as figures (a hypothesis) does not hold on this "
               "GPU: a finding about the reading, whose failing cases say lane by lane what the GPU did; " +
               evidence;
}

// A claim that predicts a failure or a fault is confirmed only if its control cases (on the kernels
// the claim was judged by, with data the claim does not speak of) passed: otherwise the device may fail everything.
void judge_controls(ClaimVerdict& v, const ClaimCheck& ck, const std::vector<const CaseResult*>& judged,
                    const std::vector<CaseResult>& results) {
  std::set<std::string> kernels;
  for (auto const* r : judged) kernels.insert(r->kernel);
  int passed = 0;
  for (auto const& r : results) {
    if (!kernels.count(r.kernel) || std::find(ck.controls.begin(), ck.controls.end(), r.case_name) == ck.controls.end())
      continue;
    v.checked.push_back(r.kernel + "/" + r.case_name + " (control)");
    if (r.status == Status::Pass) {
      ++passed;
      continue;
    }
    v.verdict = Verdict::NotCheckable;
    v.evidence = fmt::format("control case {} did not pass ({}: {}), so the predicted {} says nothing; {}",
                             case_id(r), to_string(r.status), r.reason,
                             ck.expect == Expect::Fail ? "failure" : "fault", v.evidence);
    return;
  }
  if (passed == 0) {
    v.verdict = Verdict::NotCheckable;
    v.evidence = "no control case ran; " + v.evidence;
    return;
  }
  v.evidence += fmt::format("; {} control cases passed", passed);
}

// A requirements claim rests on the audit's verdicts for the variant's documented requirements.
void judge_requirements(ClaimVerdict& v, const Audit& audit, const std::string& variant) {
  int confirmed = 0, contradicted = 0, total = 0;
  std::string evidence;
  for (auto const& r : audit.requirements) {
    if (r.variant != variant) continue;
    ++total;
    confirmed += r.verdict == Verdict::Confirmed;
    contradicted += r.verdict == Verdict::Contradicted;
    v.checked.push_back(fmt::format("{} {}: {}", r.variant, r.requirement, to_string(r.verdict)));
    evidence += fmt::format("{}{} ({}): {}", evidence.empty() ? "" : "; ", r.requirement, r.documented, r.evidence);
  }
  v.verdict = total == 0           ? Verdict::NotCheckable
              : contradicted       ? Verdict::Contradicted
              : confirmed == total ? Verdict::Confirmed
                                   : Verdict::NotCheckable;
  v.evidence = total == 0 ? "the audit judged no requirement of this variant" : evidence;
}

// A round-trip claim: the stored rows must equal the loaded rows, in every round trip planned for it.
void judge_roundtrip(ClaimVerdict& v, const Suite& suite, const std::string& claim,
                     const std::vector<CaseResult>& results, const std::string& no_gpu) {
  int held = 0, broke = 0;
  std::string first;
  const CaseResult* other = nullptr;
  std::vector<const CaseResult*> broken;
  for (auto const& r : results) {
    const KernelPlan* k = suite.find_kernel(r.kernel);
    if (!k || k->claim != claim) continue;
    v.checked.push_back(r.kernel + "/" + r.case_name);
    if (!r.roundtrip_identity) {
      if (r.status == Status::Crash) {
        ++broke;
        broken.push_back(&r);
        if (first.empty()) first = r.kernel + "/" + r.case_name + ": " + r.reason;
      } else if (!other) other = &r;
      continue;
    }
    if (*r.roundtrip_identity) ++held;
    else {
      ++broke;
      broken.push_back(&r);
      if (first.empty()) first = r.kernel + "/" + r.case_name;
    }
  }
  if (held + broke == 0) {
    v.evidence = results.empty() ? no_gpu : other ? "no round trip ran: " + other->reason : "no round-trip kernel";
    return;
  }
  v.verdict = broke ? Verdict::Contradicted : Verdict::Confirmed;
  v.evidence = fmt::format("{} round trips wrote back exactly the rows they loaded, {} did not{}", held, broke,
                           first.empty() ? "" : " (first: " + first + ")");
  undecided_if_the_gpu_is_wrong(v, broken);
}

}  // namespace

std::vector<ClaimVerdict> evaluate_claims(const Suite& suite, const Audit& audit,
                                          const std::vector<CaseResult>& results, const std::string& no_gpu) {
  std::vector<ClaimVerdict> out;
  std::set<const CaseResult*> hypotheses;  // the cases the hypotheses rest on
  for (auto const& c : suite.specs.claims)
    if (c.hypothesis)
      for (auto const* r : claim_cases(suite, c, results)) hypotheses.insert(r);
  for (auto const& c : suite.specs.claims) {
    ClaimVerdict v{.id = c.id,
                   .family = c.family,
                   .text = c.text,
                   .source = c.source,
                   .note = c.note,
                   .verdict = Verdict::NotCheckable,
                   .evidence = "",
                   .checked = {},
                   .known = {},
                   .hypothesis = c.hypothesis};
    if (c.check.kind == ClaimCheckKind::Requirements) {
      judge_requirements(v, audit, c.check.variant);
    } else if (c.check.kind == ClaimCheckKind::Composition) {  // the kernels planned for it, every case
      std::vector<const CaseResult*> rs;
      for (auto const& r : results)
        if (const KernelPlan* k = suite.find_kernel(r.kernel); k && k->claim == c.id && !r.fault_case) rs.push_back(&r);
      judge_cases(v, rs, Expect::Pass, results.empty() ? no_gpu : "");
    } else if (c.check.kind == ClaimCheckKind::Cases) {
      const std::vector<const CaseResult*> rs = claim_cases(suite, c, results);
      judge_cases(v, rs, c.check.expect, results.empty() ? no_gpu : "");
      if (!c.check.controls.empty() && v.verdict == Verdict::Confirmed) judge_controls(v, c.check, rs, results);
      if (c.hypothesis) hypothesis_verdict(v, rs, hypotheses, results);
    } else {  // round trip: the stored rows must equal the loaded rows
      judge_roundtrip(v, suite, c.id, results, no_gpu);
    }
    out.push_back(std::move(v));
  }
  return out;
}

void mark_hypothesis_findings(const Suite& suite, const std::vector<ClaimVerdict>& claims,
                              std::vector<CaseResult>& results) {
  for (auto const& v : claims) {
    const auto c = std::find_if(suite.specs.claims.begin(), suite.specs.claims.end(),
                                [&](const Claim& x) { return x.id == v.id; });
    if (c == suite.specs.claims.end() || !c->hypothesis || v.verdict != Verdict::Contradicted) continue;
    const std::set<std::string> judged(v.checked.begin(), v.checked.end());
    for (auto& r : results)
      if (r.status == Status::Fail && needs_action(r) && judged.count(r.kernel + "/" + r.case_name))
        r.known = fmt::format("contradicts the suite's hypothesis {} (its reading of figures the documents give "
                              "without words): a finding about that reading, see the claim",
                              v.id);
  }
}

}  // namespace ptxcts

#include "report/run/report_diff.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <utility>

#include "results/outcome.hpp"
#include "report/run/report_json.hpp"

namespace ptxcts {

std::string ReportChange::kind() const {
  if (new_finding) return "new finding";
  if (finding_gone) return "finding gone";
  if (worse) return "worse";
  if (lost) return withdrawn.empty() ? "lost" : "withdrawn";
  if (before.empty()) return "new";
  return "other";
}

int ReportDiff::regressions() const {
  int n = 0;
  for (auto const* list : {&cases, &lost_layouts})
    for (auto const& c : *list) n += c.regression();
  return n;
}

int ReportDiff::new_findings() const {
  int n = 0;
  for (auto const& c : claims) n += c.new_finding;
  return n;
}

int ReportDiff::findings_gone() const {
  int n = 0;
  for (auto const& c : claims) n += c.finding_gone;
  return n;
}

int ReportDiff::claims_lost() const {
  int n = 0;
  for (auto const& c : claims) n += c.regression();
  return n;
}

int ReportDiff::newly_undecided() const {
  int n = 0;
  for (auto const& c : claims) n += c.after == to_string(Verdict::Undecided);
  return n;
}

int ReportDiff::findings(bool gate_docs) const {
  if (toolchains) return static_cast<int>(disagreements.size());
  return regressions() + (gate_docs ? new_findings() + claims_lost() : 0);
}

namespace {

// A withdrawal's name as the diff looks it up: reports name a case "KERNEL / CASE" (their JSON's
// spelling), the diff "KERNEL/CASE" (case_id).
std::string withdrawal_key(std::string what) {
  if (auto at = what.find(" / "); at != std::string::npos) what.replace(at, 3, "/");
  return what;
}

// What a run saw of a case beyond its status, for comparing toolchains: "" where nothing was seen.
std::string observation(const CaseResult& r) {
  std::string o;
  if (r.status == Status::Crash) o += "error: " + r.reason + "\n";  // which fault the GPU raised
  if (r.mismatches) o += fmt::format("{} element(s) differ\n", r.mismatches);
  if (r.roundtrip_identity) o += fmt::format("round trip identity: {}\n", *r.roundtrip_identity ? "yes" : "no");
  if (!r.observed_layout.empty()) o += "observed layout:\n" + r.observed_layout;
  return o;
}

// The cubin run against the JIT run, case by case (either may be OLD).
void compare_toolchains(const RunReport& a, const RunReport& b, ReportDiff& d) {
  const std::string name_a = ran_driver_jit(a.info) ? "JIT" : "cubin",
                    name_b = ran_driver_jit(b.info) ? "JIT" : "cubin";
  std::map<std::string, std::pair<const CaseResult*, const CaseResult*>> cases;
  for (auto const& r : a.results) cases[case_id(r)].first = &r;
  for (auto const& r : b.results) cases[case_id(r)].second = &r;
  auto side = [](const std::string& name, const CaseResult* r) {
    return r ? fmt::format("{} {}", name, token(outcome_of(*r))) : fmt::format("{} (absent)", name);
  };
  for (auto const& [what, ab] : cases) {
    const auto [x, y] = ab;
    auto not_run = [](const CaseResult* r) {
      return r->status == Status::Skip || r->status == Status::NotSupported;
    };
    if (x && y && not_run(x) != not_run(y)) {
      const CaseResult& skipped = not_run(x) ? *x : *y;
      d.not_compared.push_back(
          fmt::format("{}: skipped by the {} run: {}", what, &skipped == x ? name_a : name_b, skipped.reason));
      continue;
    }
    if (x && y && x->status == y->status && observation(*x) == observation(*y)) continue;
    ToolchainDisagreement g{
        .what = what, .family = (x ? x : y)->family, .before = side(name_a, x), .after = side(name_b, y)};
    if (x && y && x->status == y->status) {  // the same status, seen differently
      g.before += ": " + observation(*x);
      g.after += ": " + observation(*y);
    } else {
      if (x && !x->reason.empty()) g.before += " (" + x->reason + ")";
      if (y && !y->reason.empty()) g.after += " (" + y->reason + ")";
    }
    d.disagreements.push_back(std::move(g));
  }
}

}  // namespace

namespace {

// A change of one thing compared (a case, a layout, a claim): its family, whether it got worse or went
// missing, and, gone, why `b` says it was withdrawn. Something that was there before and is not now is
// a regression: a report with half its results missing must not read as "0 regressions".
struct ChangeOf {
  std::map<std::string, std::string> family_of;  // KERNEL/CASE or claim id -> family
  std::map<std::string, std::string> withdrawn;  // what -> why

  ChangeOf(const RunReport& a, const RunReport& b) {
    for (auto const& w : b.withdrawn) withdrawn.emplace(withdrawal_key(w.what), w.reason);
    for (auto const* rep : {&a, &b}) {
      for (auto const& r : rep->results) family_of.emplace(case_id(r), r.family);
      for (auto const& c : rep->claims) family_of.emplace(c.id, c.family);
    }
  }
  ReportChange operator()(const std::string& what, const std::string& before, const std::string& after,
                          const char* good, const std::string& withdrawal_name) {
    ReportChange c{.what = what,
                   .family = family_of[what],
                   .before = before,
                   .after = after,
                   .worse = before == good && !after.empty(),
                   .lost = !before.empty() && after.empty(),
                   .withdrawn = ""};
    if (auto it = withdrawn.find(withdrawal_name); c.lost && it != withdrawn.end()) c.withdrawn = it->second;
    return c;
  }
};

// The run's fields that changed, but its date and host.
void diff_run_info(const RunReport& a, const RunReport& b, ReportDiff& d) {
  for (auto const& f : run_info_fields()) {
    if (std::string(f.key) == "date" || std::string(f.key) == "host") continue;
    if (a.info.*f.member != b.info.*f.member)
      d.run_changes.push_back(fmt::format("{}: {} -> {}", f.key, a.info.*f.member, b.info.*f.member));
  }
}

// Compared in the outcome vocabulary: a fault case's "faulted" to "no-fault" is a change, never a
// regression (only "pass" can get worse).
void diff_cases(const RunReport& a, const RunReport& b, ChangeOf& change, ReportDiff& d) {
  std::map<std::string, std::pair<std::string, std::string>> cases;
  for (auto const& r : a.results) cases[case_id(r)].first = token(outcome_of(r));
  for (auto const& r : b.results) cases[case_id(r)].second = token(outcome_of(r));
  for (auto const& [what, s] : cases)
    if (s.first != s.second) d.cases.push_back(change(what, s.first, s.second, "pass", what));
}

// Layouts observed before: lost (unless its case is a regression already, with which it counts) or changed.
void diff_layouts(const RunReport& a, const RunReport& b, ChangeOf& change, ReportDiff& d) {
  std::set<std::string> counted;  // results already a regression: their layout counts with them
  for (auto const& c : d.cases)
    if (c.worse) counted.insert(c.what);
  std::map<std::string, std::string> layout_before;
  for (auto const& r : a.results)
    if (!r.observed_layout.empty()) layout_before[case_id(r)] = r.observed_layout;
  for (auto const& r : b.results) {
    auto it = layout_before.find(case_id(r));
    if (it == layout_before.end()) continue;
    if (r.observed_layout.empty()) {
      if (!counted.count(it->first))
        d.lost_layouts.push_back(change(it->first, "observed", "", "", "layout " + it->first));
    } else if (it->second != r.observed_layout) {
      d.layouts.push_back(it->first);
    }
  }
}

// A verdict that changed is no regression (the cases it rests on count theirs); a claim that went
// missing is. Contradicted now and not before: a new documentation finding, counted apart; but the
// suite's own hypotheses (readings of figures) make no documentation finding, refuted or not.
void diff_claims(const RunReport& a, const RunReport& b, ChangeOf& change, ReportDiff& d) {
  std::map<std::string, std::pair<std::string, std::string>> claims;
  std::set<std::string> hypotheses;
  for (auto const& c : a.claims) {
    claims[c.id].first = to_string(c.verdict);
    if (c.hypothesis) hypotheses.insert(c.id);
  }
  for (auto const& c : b.claims) {
    claims[c.id].second = to_string(c.verdict);
    if (c.hypothesis) hypotheses.insert(c.id);
  }
  const std::string contradicted = to_string(Verdict::Contradicted);
  for (auto const& [id, v] : claims)
    if (v.first != v.second) {
      ReportChange c = change(id, v.first, v.second, "confirmed", "claim " + id);
      c.worse = false;
      const bool documents = !hypotheses.count(id);
      c.new_finding = documents && v.second == contradicted;
      c.finding_gone = documents && v.first == contradicted && !v.second.empty();
      d.claims.push_back(std::move(c));
    }
}

}  // namespace

ReportDiff diff_reports(const RunReport& a, const RunReport& b) {
  ReportDiff d;
  d.toolchains = ran_driver_jit(a.info) != ran_driver_jit(b.info);
  if (d.toolchains) compare_toolchains(a, b, d);
  diff_run_info(a, b, d);
  ChangeOf change(a, b);
  diff_cases(a, b, change, d);
  diff_layouts(a, b, change, d);
  diff_claims(a, b, change, d);
  return d;
}

namespace {

std::string counted(long long n, const char* one, const char* many) {
  return fmt::format("{} {}", count_text(n), n == 1 ? one : many);
}

// How many of `changes` are of each kind, in `kinds`' order: "3 changed: 1 worse, 0 lost, ...".
// Each kind by its name in the count (ReportChange::kind, then the words a reader sees).
std::string kind_counts(const std::vector<ReportChange>& changes,
                        std::initializer_list<std::pair<const char*, const char*>> kinds) {
  std::vector<std::string> parts;
  for (auto const& [kind, words] : kinds) {
    long long n = 0;
    for (auto const& c : changes) n += c.kind() == kind;
    parts.push_back(fmt::format("{} {}", count_text(n), words));
  }
  return fmt::format("{} changed: {}", count_text(static_cast<long long>(changes.size())), fmt::join(parts, ", "));
}

std::string side(const std::string& s) { return s.empty() ? std::string("(absent)") : s; }

// The changes of one kind, grouped by transition ("pass -> fail": regressions first, then new
// documentation findings, then the rest) and, within one, by family, a name a line.
void grouped_lines(std::string& out, const std::vector<ReportChange>& changes, const char* one, const char* many) {
  std::map<std::pair<int, std::string>, std::map<std::string, std::vector<const ReportChange*>>> groups;
  for (auto const& c : changes) {
    const int rank = c.regression() ? 0 : c.new_finding ? 1 : 2;
    groups[{rank, side(c.before) + " -> " + side(c.after)}][c.family].push_back(&c);
  }
  for (auto const& [key, by_family] : groups) {
    long long n = 0;
    for (auto const& [_, v] : by_family) n += static_cast<long long>(v.size());
    const char* label = key.first == 0 ? "REGRESSION " : key.first == 1 ? "FINDING " : "";
    out += fmt::format("\n{}{}: {}\n", label, key.second, counted(n, one, many));
    for (auto const& [family, v] : by_family) {
      out += fmt::format("  {} ({}):\n", family.empty() ? "(no family)" : family, count_text(static_cast<long long>(v.size())));
      for (auto const* c : v)
        out += fmt::format("    {}{}\n", c->what, c->withdrawn.empty() ? "" : " (withdrawn: " + c->withdrawn + ")");
    }
  }
}

std::string format_toolchains(const ReportDiff& d, const DiffFormat& how) {
  std::string out = diff_verdict_line(d, how.gate_docs) + "\n";
  for (auto const& l : diff_summary_lines(d)) out += l + "\n";
  if (how.quiet) return out;
  for (auto const& g : d.disagreements) {
    auto lines = [](std::string s) {  // an observation of several lines, indented under its finding
      while (!s.empty() && s.back() == '\n') s.pop_back();
      for (std::size_t p = 0; (p = s.find('\n', p)) != std::string::npos; p += 2) s.replace(p, 1, "\n    ");
      return s;
    };
    out += fmt::format("FINDING JIT and precompiled cubin disagree: {}\n  {}\n  {}\n", g.what, lines(g.before),
                       lines(g.after));
  }
  for (auto const& n : d.not_compared) out += "not compared " + n + "\n";
  for (auto const& c : d.claims) out += fmt::format("changed claim {}: {} -> {}\n", c.what, side(c.before), side(c.after));
  return out;
}

}  // namespace

std::string diff_verdict_line(const ReportDiff& d, bool gate_docs) {
  if (d.toolchains)
    return d.disagreements.empty()
               ? "JIT and precompiled cubin agree on every case compared."
               : fmt::format("Does not pass: JIT and precompiled cubin disagree on {}.",
                             counted(static_cast<long long>(d.disagreements.size()), "case", "cases"));
  const int worse = static_cast<int>(std::count_if(d.cases.begin(), d.cases.end(), [](auto& c) { return c.worse; }));
  const int lost_layouts = static_cast<int>(
      std::count_if(d.lost_layouts.begin(), d.lost_layouts.end(), [](auto& c) { return c.regression(); }));
  const int docs = d.new_findings() + d.claims_lost();
  const std::string doc_parts = fmt::format(
      "{}: {}, {} lost", counted(docs, "documentation change", "documentation changes"),
      counted(d.new_findings(), "new finding", "new findings"), counted(d.claims_lost(), "claim", "claims"));
  if (d.regressions())
    return fmt::format("Does not pass the upgrade gate: {}: {} worse, {} lost, {} lost{}.",
                       counted(d.regressions(), "case regression", "case regressions"), count_text(worse),
                       count_text(d.regressions() - worse - lost_layouts), counted(lost_layouts, "layout", "layouts"),
                       docs == 0 ? "" : fmt::format("; and {}{}", doc_parts, gate_docs ? "" : " (not gated; --gate-docs gates them)"));
  if (gate_docs && docs) return fmt::format("Does not pass the upgrade gate (--gate-docs): {}.", doc_parts);
  return fmt::format("Passes the upgrade gate: no case regression{}.",
                     docs == 0 ? "" : fmt::format("; {} (not gated; --gate-docs gates them)", doc_parts));
}

std::vector<std::string> diff_summary_lines(const ReportDiff& d) {
  std::vector<std::string> lines;
  if (d.toolchains) {
    lines.push_back(fmt::format(
        "JIT and precompiled cubin: cases that disagree: {}; not compared (skipped by one run): {}; claims changed: {}",
        count_text(static_cast<long long>(d.disagreements.size())),
        count_text(static_cast<long long>(d.not_compared.size())), count_text(static_cast<long long>(d.claims.size()))));
    for (auto const& r : d.run_changes) lines.push_back("Run: " + r);
    return lines;
  }
  lines.push_back("Cases: " + kind_counts(d.cases, {{"worse", "worse"},
                                                    {"lost", "lost"},
                                                    {"withdrawn", "withdrawn"},
                                                    {"new", "new"},
                                                    {"other", "other"}}));
  std::string claims = "Claims: " + kind_counts(d.claims, {{"new finding", "new findings"},
                                                           {"finding gone", "findings gone"},
                                                           {"lost", "lost"},
                                                           {"withdrawn", "withdrawn"},
                                                           {"new", "new"},
                                                           {"other", "other"}});
  if (const int u = d.newly_undecided())
    claims += u == 1 ? std::string(" (1 undecided now: its cases need action)")
                     : fmt::format(" ({} undecided now: their cases need action)", u);
  lines.push_back(claims);
  long long lost = 0, withdrawn = 0;
  for (auto const& c : d.lost_layouts) (c.regression() ? lost : withdrawn)++;
  const long long layouts = lost + withdrawn + static_cast<long long>(d.layouts.size());
  lines.push_back(fmt::format("Layouts: {} changed: {} lost, {} withdrawn, {} differ (observations)", count_text(layouts),
                              count_text(lost), count_text(withdrawn), count_text(static_cast<long long>(d.layouts.size()))));
  for (auto const& r : d.run_changes) lines.push_back("Run: " + r);
  return lines;
}

std::string format_diff(const ReportDiff& d, const DiffFormat& how) {
  if (d.toolchains) return format_toolchains(d, how);  // the cases are findings; neither run is "before"
  std::string out = diff_verdict_line(d, how.gate_docs) + "\n";
  for (auto const& l : diff_summary_lines(d)) out += l + "\n";
  if (how.quiet) return out;
  grouped_lines(out, d.cases, "case", "cases");
  grouped_lines(out, d.claims, "claim", "claims");
  grouped_lines(out, d.lost_layouts, "layout", "layouts");
  if (!d.layouts.empty()) {
    out += fmt::format("\nthe fragment's register layout differs (an observation; see observed_layout): {}\n",
                       counted(static_cast<long long>(d.layouts.size()), "case", "cases"));
    for (auto const& k : d.layouts) out += "    " + k + "\n";
  }
  return out;
}

}  // namespace ptxcts

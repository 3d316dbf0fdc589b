#include "report/report_diff.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "results/outcome.hpp"
#include "results/report_json.hpp"

namespace ptxcts {

int ReportDiff::regressions() const {
  int n = 0;
  for (auto const* list : {&cases, &claims, &lost_layouts})
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

int ReportDiff::newly_undecided() const {
  int n = 0;
  for (auto const& c : claims) n += c.after == to_string(Verdict::Undecided);
  return n;
}

int ReportDiff::findings() const {
  return toolchains ? static_cast<int>(disagreements.size()) : regressions() + new_findings();
}

namespace {

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
  for (auto const& r : a.results) cases[r.kernel + " / " + r.case_name].first = &r;
  for (auto const& r : b.results) cases[r.kernel + " / " + r.case_name].second = &r;
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
    ToolchainDisagreement g{.what = what, .before = side(name_a, x), .after = side(name_b, y)};
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

ReportDiff diff_reports(const RunReport& a, const RunReport& b) {
  ReportDiff d;
  d.toolchains = ran_driver_jit(a.info) != ran_driver_jit(b.info);
  if (d.toolchains) compare_toolchains(a, b, d);
  for (auto const& f : run_info_fields()) {
    if (std::string(f.key) == "date" || std::string(f.key) == "host") continue;
    if (a.info.*f.member != b.info.*f.member)
      d.run_changes.push_back(fmt::format("{}: {} -> {}", f.key, a.info.*f.member, b.info.*f.member));
  }
  std::map<std::string, std::string> withdrawn;  // what -> why
  for (auto const& w : b.withdrawn) withdrawn.emplace(w.what, w.reason);
  auto why = [&](const std::string& what) {
    auto it = withdrawn.find(what);
    return it == withdrawn.end() ? std::string() : it->second;
  };
  // Something that was there before and is not now is a regression: a report with half its
  // results missing must not read as "0 regressions".
  auto change = [&](const std::string& what, const std::string& before, const std::string& after, const char* good,
                    const std::string& withdrawal_name) {
    ReportChange c{.what = what,
                   .before = before,
                   .after = after,
                   .worse = before == good && !after.empty(),
                   .lost = !before.empty() && after.empty(),
                   .withdrawn = ""};
    if (c.lost) c.withdrawn = why(withdrawal_name);
    return c;
  };

  std::map<std::string, std::pair<std::string, std::string>> cases;
  // Compared in the outcome vocabulary: a fault case's "faulted" to "no-fault" is a change, never a
  // regression (only "pass" can get worse).
  for (auto const& r : a.results) cases[r.kernel + " / " + r.case_name].first = token(outcome_of(r));
  for (auto const& r : b.results) cases[r.kernel + " / " + r.case_name].second = token(outcome_of(r));
  for (auto const& [what, s] : cases)
    if (s.first != s.second) d.cases.push_back(change(what, s.first, s.second, "pass", what));

  std::set<std::string> counted;  // results already a regression: their layout counts with them
  for (auto const& c : d.cases)
    if (c.worse) counted.insert(c.what);
  std::map<std::string, std::string> layout_before;
  for (auto const& r : a.results)
    if (!r.observed_layout.empty()) layout_before[r.kernel + " / " + r.case_name] = r.observed_layout;
  for (auto const& r : b.results) {
    auto it = layout_before.find(r.kernel + " / " + r.case_name);
    if (it == layout_before.end()) continue;
    if (r.observed_layout.empty()) {
      if (!counted.count(it->first))
        d.lost_layouts.push_back(change(it->first, "observed", "", "", "layout " + it->first));
    } else if (it->second != r.observed_layout) {
      d.layouts.push_back(it->first);
    }
  }

  std::map<std::string, std::pair<std::string, std::string>> claims;
  for (auto const& c : a.claims) claims[c.id].first = to_string(c.verdict);
  for (auto const& c : b.claims) claims[c.id].second = to_string(c.verdict);
  // A verdict that changed is no regression (the cases it rests on count theirs); a claim that went
  // missing is. Contradicted now and not before: a new documentation finding, counted apart.
  const std::string contradicted = to_string(Verdict::Contradicted);
  for (auto const& [id, v] : claims)
    if (v.first != v.second) {
      ReportChange c = change(id, v.first, v.second, "confirmed", "claim " + id);
      c.worse = false;
      c.new_finding = v.second == contradicted;
      c.finding_gone = v.first == contradicted && !v.second.empty();
      d.claims.push_back(std::move(c));
    }
  return d;
}

std::string format_diff(const ReportDiff& d) {
  std::string out;
  // Findings first: where the driver's JIT and the precompiled cubin disagree.
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
  for (auto const& r : d.run_changes) out += "run     " + r + "\n";
  auto side = [](const std::string& s) { return s.empty() ? std::string("(absent)") : s; };
  auto line = [&](const ReportChange& c, const char* kind) {
    const char* label = c.worse ? "WORSE  " : c.regression() ? "LOST   " : c.new_finding ? "FINDING" : "changed";
    std::string withdrawn = c.withdrawn.empty() ? "" : fmt::format(" (withdrawn: {})", c.withdrawn);
    return fmt::format("{} {}{}: {} -> {}{}\n", label, kind, c.what, side(c.before), side(c.after), withdrawn);
  };
  if (d.toolchains) {  // the cases are above, as findings; neither run is "before"
    for (auto const& c : d.claims)
      out += fmt::format("changed claim {}: {} -> {}\n", c.what, side(c.before), side(c.after));
    out += fmt::format(
        "JIT and precompiled cubin: {} cases disagree, {} not compared (skipped by one run), {} claim "
        "changes\n",
        d.disagreements.size(), d.not_compared.size(), d.claims.size());
    return out;
  }
  for (auto const& c : d.cases) out += line(c, "");
  for (auto const& c : d.claims) out += line(c, "claim ");
  for (auto const& c : d.lost_layouts) out += line(c, "layout ");
  for (auto const& k : d.layouts)
    out += fmt::format("layout  {}: the fragment's register layout differs (see observed_layout)\n", k);
  int lost = 0;
  for (auto const* list : {&d.cases, &d.claims, &d.lost_layouts})
    for (auto const& c : *list) lost += c.lost && c.withdrawn.empty();
  out += fmt::format("{} case changes, {} claim changes, {} regressions ({} lost)", d.cases.size(), d.claims.size(),
                     d.regressions(), lost);
  if (!d.layouts.empty()) out += fmt::format(", {} fragment layouts changed (observations)", d.layouts.size());
  out += fmt::format("; documentation findings: {} new, {} gone", d.new_findings(), d.findings_gone());
  if (const int u = d.newly_undecided())
    out += u == 1 ? std::string("; 1 claim undecided now (its cases need action)")
                  : fmt::format("; {} claims undecided now (their cases need action)", u);
  return out + "\n";
}

}  // namespace ptxcts

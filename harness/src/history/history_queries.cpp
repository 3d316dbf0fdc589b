// history/history_queries: the questions, over the compact form (outcome codes, claim verdict rows):
// no report is read again to answer them.
#include "history/history_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "results/outcome.hpp"

namespace ptxcts {

namespace {

// A series: runs that compare, oldest first (the same kind, GPU model and toolchain).
using SeriesKey = std::tuple<std::string, std::string, std::string>;
std::map<SeriesKey, std::vector<StoredRun>> series_of(const std::vector<StoredRun>& runs) {
  std::map<SeriesKey, std::vector<StoredRun>> out;
  for (auto const& r : runs) out[{r.kind, r.gpu_name, r.toolchain}].push_back(r);
  return out;
}

bool gpu_matches(const std::string& name, const std::string& asked) {
  if (asked.empty()) return true;
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
  return lower(name).find(lower(asked)) != std::string::npos;
}

const std::string& axis_value(const StoredRun& r, const std::string& axis) {
  if (axis == "driver") return r.driver;
  if (axis == "toolkit") return r.cuda_release;
  return r.suite_commit;
}

bool value_matches(const std::string& value, const std::string& asked, const std::string& axis) {
  return axis == "suite" ? value.starts_with(asked) || asked.starts_with(value) : value == asked;
}

void compare_cases(HistoryStore& store, RunPairChanges& p) {
  const auto& names = store.case_names();
  const HistoryStore::Codes a = store.outcome_codes(p.before.id), b = store.outcome_codes(p.after.id);
  std::unordered_map<std::int64_t, std::uint8_t> before;
  for (std::size_t i = 0; i < a.cases.size(); ++i) before[a.cases[i]] = a.codes[i];
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    const auto it = before.find(b.cases[i]);
    const std::uint8_t now = b.codes[i];
    if (it != before.end() && it->second == now) {
      before.erase(it);
      continue;
    }
    const bool acts = now & kNeedsActionBit, acted = it != before.end() && (it->second & kNeedsActionBit);
    const auto& n = names.at(b.cases[i]);
    p.changes.push_back({.item = n.name, .family = n.family,
                         .before = it == before.end() ? "absent" : outcome_token_of_code(it->second),
                         .after = outcome_token_of_code(now), .regression = acts && !acted});
    if (it != before.end()) before.erase(it);
  }
  for (auto const& [id, code] : before) {  // lost: no regression across suite versions (cases are renamed)
    const auto& n = names.at(id);
    p.changes.push_back({.item = n.name, .family = n.family, .before = outcome_token_of_code(code), .after = "absent"});
  }
}

void compare_claims(HistoryStore& store, RunPairChanges& p) {
  std::map<std::string, std::string> before;
  for (auto const& [id, v] : store.claim_verdicts(p.before.id)) before[id] = v;
  for (auto const& [id, v] : store.claim_verdicts(p.after.id)) {
    auto it = before.find(id);
    const std::string was = it == before.end() ? "absent" : it->second;
    if (it != before.end()) before.erase(it);
    if (was == v) continue;
    // A claim newly contradicted is a new documentation finding: counted, never a case regression.
    p.changes.push_back({.item = "claim " + id, .family = "", .before = was, .after = v});
  }
  for (auto const& [id, v] : before) p.changes.push_back({.item = "claim " + id, .family = "", .before = v, .after = "absent"});
}

RunPairChanges compared(HistoryStore& store, const StoredRun& before, const StoredRun& after) {
  RunPairChanges p{.before = before, .after = after, .changes = {}, .regressions = 0};
  compare_cases(store, p);
  compare_claims(store, p);
  std::sort(p.changes.begin(), p.changes.end(), [](auto& x, auto& y) {
    return std::tie(y.regression, x.family, x.item) < std::tie(x.regression, y.family, y.item);
  });
  for (auto const& c : p.changes) p.regressions += c.regression;
  return p;
}

// In one series: the pair the query names (nullopt where the series has no such pair).
std::optional<std::pair<StoredRun, StoredRun>> pair_in(const std::vector<StoredRun>& s, const ChangesQuery& q) {
  if (s.size() < 2) return std::nullopt;
  if (q.axis.empty()) {  // the one before: an earlier run (the GPUs of one run, at one date, are not before each other)
    for (auto it = s.rbegin() + 1; it != s.rend(); ++it)
      if (it->date < s.back().date) return std::pair{*it, s.back()};
    return std::nullopt;
  }
  auto latest_with = [&](const std::string& v) -> const StoredRun* {
    for (auto it = s.rbegin(); it != s.rend(); ++it)
      if (value_matches(axis_value(*it, q.axis), v, q.axis)) return &*it;
    return nullptr;
  };
  const StoredRun* to = q.to.empty() ? &s.back() : latest_with(q.to);
  if (!to) return std::nullopt;
  const StoredRun* from = nullptr;
  if (!q.from.empty()) from = latest_with(q.from);
  else  // the latest run before `to` with another value: "since the last driver"
    for (auto it = s.rbegin(); it != s.rend() && !from; ++it)
      if (it->id != to->id && it->date <= to->date && axis_value(*it, q.axis) != axis_value(*to, q.axis)) from = &*it;
  if (!from || from->id == to->id) return std::nullopt;
  return std::pair{*from, *to};
}

}  // namespace

std::vector<RunPairChanges> history_changes(HistoryStore& store, const ChangesQuery& q) {
  if (!q.axis.empty() && q.axis != "driver" && q.axis != "toolkit" && q.axis != "suite")
    throw HistoryError(fmt::format("--between {}: expected driver, toolkit or suite", q.axis));
  std::vector<RunPairChanges> out;
  for (auto const& [key, runs] : series_of(store.runs())) {
    if (std::get<0>(key) != "run" || !gpu_matches(std::get<1>(key), q.gpu)) continue;
    if (auto p = pair_in(runs, q)) out.push_back(compared(store, p->first, p->second));
  }
  return out;
}

std::vector<RunPairChanges> history_regressions(HistoryStore& store, const std::string& gpu) {
  std::vector<RunPairChanges> out = history_changes(store, {.gpu = gpu, .axis = "", .from = "", .to = ""});
  std::erase_if(out, [](const RunPairChanges& p) { return p.regressions == 0; });
  return out;
}

ItemHistory history_of_item(HistoryStore& store, const std::string& item) {
  ItemHistory h{.item = item, .runs_seen = 0, .failures = {}};
  std::map<std::int64_t, StoredRun> runs;
  for (auto const& r : store.runs()) runs[r.id] = r;
  std::vector<std::pair<std::int64_t, std::string>> failed;  // run, outcome
  const std::string claim = item.starts_with("claim ") ? item.substr(6) : item;
  Database& db = store.db();
  if (auto c = db.query("SELECT id FROM case_names WHERE name = ?1", {item}); !c.empty()) {
    const std::int64_t id = as_int(c[0][0]);
    for (auto const& r : db.query("SELECT run_id, outcome FROM case_problems WHERE case_id = ?1", {id}))
      failed.emplace_back(as_int(r[0]), outcome_token_of_code(static_cast<std::uint8_t>(as_int(r[1]))));
    for (auto const& r : db.query("SELECT case_lists.names, COUNT(*) FROM runs JOIN case_lists ON "
                                  "case_lists.id = runs.case_list GROUP BY case_lists.id, case_lists.names"))
      for (std::size_t i = 0, n = as_blob(r[0]).size() / 4; i < n; ++i) {
        const Blob& b = as_blob(r[0]);
        if ((std::int64_t{b[4 * i]} | std::int64_t{b[4 * i + 1]} << 8 | std::int64_t{b[4 * i + 2]} << 16 |
             std::int64_t{b[4 * i + 3]} << 24) == id) {
          h.runs_seen += static_cast<int>(as_int(r[1]));
          break;
        }
      }
  } else if (auto n = db.query("SELECT COUNT(*) FROM claim_verdicts WHERE claim = ?1", {claim}); as_int(n.at(0).at(0))) {
    h.runs_seen = static_cast<int>(as_int(n[0][0]));
    for (auto const& r : db.query("SELECT run_id, verdict FROM claim_verdicts WHERE claim = ?1 AND verdict = 'contradicted'",
                                  {claim}))
      failed.emplace_back(as_int(r[0]), as_text(r[1]));
  } else {
    throw HistoryError(fmt::format("{}: no case (KERNEL/CASE) or claim of that name in the history ({} runs)", item,
                                   runs.size()));
  }
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, FailureSpan> spans;
  for (auto const& [run_id, outcome] : failed) {
    const StoredRun& r = runs.at(run_id);
    FailureSpan& s = spans[{r.gpu_name, r.driver, r.cuda_release, r.toolchain, outcome}];
    s = {.gpu_name = r.gpu_name, .driver = r.driver, .cuda_release = r.cuda_release, .toolchain = r.toolchain,
         .outcome = outcome, .first_date = s.runs ? std::min(s.first_date, r.date) : r.date,
         .last_date = std::max(s.last_date, r.date), .runs = s.runs + 1};
  }
  for (auto& [_, s] : spans) h.failures.push_back(std::move(s));
  std::sort(h.failures.begin(), h.failures.end(), [](auto& a, auto& b) { return a.first_date < b.first_date; });
  return h;
}

std::vector<StoredRun> history_latest(HistoryStore& store) {
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, StoredRun> latest;
  for (auto const& r : store.runs()) latest[{r.kind, r.gpu_name, r.driver, r.cuda_release, r.toolchain}] = r;  // oldest first
  std::vector<StoredRun> out;
  for (auto& [_, r] : latest) out.push_back(std::move(r));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return std::tie(b.date, b.id) < std::tie(a.date, a.id); });
  return out;
}

}  // namespace ptxcts

// history/history_store: recording a report (one transaction), reading a run back, and where the
// history lives by default.
#include "history/history_store.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <xxhash.h>
#include <zlib.h>

#include <map>
#include <unordered_map>

#include "history/history_schema.hpp"
#include "results/outcome.hpp"
#include "report/run/report_json.hpp"
#include "util/environment.hpp"
#include "util/private_path.hpp"

namespace ptxcts {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRunColumns =
    "id, key, kind, gpu_name, sm, driver, cuda_release, ptxas_version, toolchain, suite_commit, specs, date, host, "
    "gpu_uuid, verdict, cases, needing_action, findings, source";

std::string content_hash(std::string_view text) {
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

// Level 1, not 6: recording is on every run's path (the first run of a suite version compresses some
// 7 MB of new parts: 255 -> 191 ms, bench_history), and the store grows by 2.2 MB instead of 1.9 MB once.
Blob compressed(std::string_view text, const std::string& where) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw HistoryError(fmt::format("{}: zlib cannot start", where));
  Blob out(deflateBound(&z, static_cast<uLong>(text.size())));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw HistoryError(fmt::format("{}: zlib failed to compress a report", where));
  return out;
}

std::string decompressed(const Blob& data, const std::string& where) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw HistoryError(fmt::format("{}: zlib cannot start", where));
  z.next_in = const_cast<Bytef*>(data.data());
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw HistoryError(fmt::format("{}: damaged history: a stored report does not decompress", where));
  return out;
}

Blob packed(const std::vector<std::int64_t>& ids) {
  Blob b;
  b.reserve(ids.size() * 4);
  for (std::int64_t id : ids)
    for (int s = 0; s < 32; s += 8) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(id) >> s));
  return b;
}

std::vector<std::int64_t> unpacked(const Blob& b) {
  std::vector<std::int64_t> ids(b.size() / 4);
  for (std::size_t i = 0; i < ids.size(); ++i)
    ids[i] = std::int64_t{b[4 * i]} | std::int64_t{b[4 * i + 1]} << 8 | std::int64_t{b[4 * i + 2]} << 16 |
             std::int64_t{b[4 * i + 3]} << 24;
  return ids;
}

StoredRun stored_run(const DbRow& r) {
  return {.id = as_int(r[0]), .key = as_text(r[1]), .kind = as_text(r[2]), .gpu_name = as_text(r[3]),
          .sm = as_text(r[4]), .driver = as_text(r[5]), .cuda_release = as_text(r[6]),
          .ptxas_version = as_text(r[7]), .toolchain = as_text(r[8]), .suite_commit = as_text(r[9]),
          .specs = as_text(r[10]), .date = as_text(r[11]), .host = as_text(r[12]), .gpu_uuid = as_text(r[13]),
          .verdict = as_text(r[14]), .cases = as_int(r[15]), .needing_action = as_int(r[16]),
          .findings = as_int(r[17]), .source = as_text(r[18])};
}

std::optional<StoredRun> run_with_key(Database& db, const std::string& key) {
  const auto rows = db.query(fmt::format("SELECT {} FROM runs WHERE key = ?1", kRunColumns), {key});
  if (rows.empty()) return std::nullopt;
  return stored_run(rows[0]);
}

std::int64_t insert_run(Database& db, const StoredRun& r, std::optional<std::int64_t> case_list, Blob outcomes) {
  const auto rows = db.query(
      "INSERT INTO runs (key, kind, gpu_name, sm, driver, cuda_release, ptxas_version, toolchain, suite_commit, "
      "specs, date, host, gpu_uuid, verdict, cases, needing_action, findings, source, case_list, outcomes) VALUES "
      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20) RETURNING id",
      {r.key, r.kind, r.gpu_name, r.sm, r.driver, r.cuda_release, r.ptxas_version, r.toolchain, r.suite_commit,
       r.specs, r.date, r.host, r.gpu_uuid, r.verdict, r.cases, r.needing_action, r.findings, r.source,
       case_list ? DbValue(*case_list) : DbValue(std::monostate{}), std::move(outcomes)});
  return as_int(rows.at(0).at(0));
}

// The ids of a run's case names, in its order: a list seen before (the same cases) is one lookup.
std::int64_t case_list_of(Database& db, const std::vector<CaseResult>& results, std::vector<std::int64_t>& ids) {
  std::string names;
  for (auto const& r : results) names += case_id(r) + '\n';
  const std::string digest = content_hash(names);
  if (auto rows = db.query("SELECT id, names FROM case_lists WHERE digest = ?1", {digest}); !rows.empty()) {
    ids = unpacked(as_blob(rows[0][1]));
    return as_int(rows[0][0]);
  }
  ids.clear();
  for (auto const& r : results) {
    const std::string name = case_id(r);
    db.query("INSERT INTO case_names (name, family) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING", {name, r.family});
    ids.push_back(as_int(db.query("SELECT id FROM case_names WHERE name = ?1", {name}).at(0).at(0)));
  }
  return as_int(
      db.query("INSERT INTO case_lists (digest, names) VALUES (?1, ?2) RETURNING id", {digest, packed(ids)}).at(0).at(0));
}

// Each part stored once: the ids of `parts`, the new ones written as one compressed chunk.
std::vector<std::int64_t> store_parts(Database& db, const std::vector<std::string>& parts) {
  std::vector<std::int64_t> ids(parts.size(), 0);
  std::vector<std::string> hashes(parts.size());
  std::vector<std::size_t> fresh;
  std::unordered_map<std::string, std::size_t> first;  // a part twice in one run is stored once
  for (std::size_t i = 0; i < parts.size(); ++i) {
    hashes[i] = content_hash(parts[i]);
    if (auto rows = db.query("SELECT id FROM report_parts WHERE hash = ?1", {hashes[i]}); !rows.empty())
      ids[i] = as_int(rows[0][0]);
    else if (first.emplace(hashes[i], i).second) fresh.push_back(i);
  }
  if (!fresh.empty()) {
    std::string text;
    for (std::size_t i : fresh) text += parts[i] + '\n';
    const std::int64_t chunk = as_int(
        db.query("INSERT INTO report_chunks (data) VALUES (?1) RETURNING id", {compressed(text, db.where())}).at(0).at(0));
    for (std::size_t k = 0; k < fresh.size(); ++k)
      ids[fresh[k]] = as_int(db.query("INSERT INTO report_parts (hash, chunk, position) VALUES (?1, ?2, ?3) RETURNING id",
                                      {hashes[fresh[k]], chunk, static_cast<std::int64_t>(k)})
                                 .at(0)
                                 .at(0));
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (!ids[i]) ids[i] = ids[first.at(hashes[i])];
  return ids;
}

// A run report as its parts: each result, each claim, the SASS; and the rest (the "body": the report
// without them, as report_json writes it).
struct ReportParts {
  std::string body;
  std::vector<std::string> parts;
  std::int64_t results = 0, claims = 0;
};

ReportParts split_report(const RunReport& report) {
  ReportParts p;
  RunReport rest;
  rest.info = report.info;
  rest.timing = report.timing;
  rest.withdrawn = report.withdrawn;
  rest.expectations_applied = report.expectations_applied;
  rest.expectations_unmatched = report.expectations_unmatched;
  p.body = report_json(rest);
  p.parts.reserve(report.results.size() + report.claims.size() + 1);
  for (auto const& r : report.results) p.parts.push_back(case_result_json_line(r));
  for (auto const& c : report.claims) p.parts.push_back(claim_json_line(c));
  p.parts.push_back(sass_json_line(report.sass));
  p.results = static_cast<std::int64_t>(report.results.size());
  p.claims = static_cast<std::int64_t>(report.claims.size());
  return p;
}

StoredRun identity_of(const RunReport& report, const std::string& key, const std::string& source) {
  const Tally t = tally(report.results);
  std::int64_t findings = 0;
  for (auto const& c : report.claims) findings += c.verdict == Verdict::Contradicted;
  const RunInfo& i = report.info;
  return {.key = key, .kind = "run", .gpu_name = i.gpu_name, .sm = i.sm, .driver = i.driver_version,
          .cuda_release = i.cuda_release, .ptxas_version = i.ptxas_version,
          .toolchain = ran_driver_jit(i) ? "jit" : "cubin", .suite_commit = i.suite_commit, .specs = i.specs,
          .date = i.date, .host = i.host, .gpu_uuid = i.gpu_uuid, .verdict = verdict_line(report),
          .cases = t.cases(), .needing_action = t.needing_action, .findings = findings, .source = source};
}

std::uint8_t outcome_code(const CaseResult& r) {
  const auto o = static_cast<std::uint8_t>(outcome_of(r));
  return static_cast<std::uint8_t>(o | (needs_action(r) ? kNeedsActionBit : 0));
}

}  // namespace

HistoryStore::HistoryStore(const std::string& location) : HistoryStore(open_database(location)) {}

HistoryStore::HistoryStore(std::unique_ptr<Database> db) : db_(std::move(db)) { migrate_history(*db_); }
HistoryStore::~HistoryStore() = default;
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;

RecordResult HistoryStore::record(const RunReport& report, const std::string& source) {
  const ReportParts split = split_report(report);
  std::string keyed = split.body;
  for (auto const& p : split.parts) keyed += content_hash(p);
  const std::string key = content_hash(keyed);
  Database& db = *db_;
  Transaction tx(db);
  if (auto had = run_with_key(db, key)) return {.run = *had, .added = false};
  StoredRun run = identity_of(report, key, source);
  std::vector<std::int64_t> names;
  const std::int64_t list = case_list_of(db, report.results, names);
  Blob outcomes(report.results.size());
  std::vector<std::vector<DbValue>> problems;
  for (std::size_t i = 0; i < report.results.size(); ++i) outcomes[i] = outcome_code(report.results[i]);
  run.id = insert_run(db, run, list, std::move(outcomes));
  for (std::size_t i = 0; i < report.results.size(); ++i)
    if (needs_action(report.results[i]))
      problems.push_back({run.id, names[i], std::int64_t{outcome_code(report.results[i])}});
  db.run_many("INSERT INTO case_problems (run_id, case_id, outcome) VALUES (?1, ?2, ?3)", problems);
  std::vector<std::vector<DbValue>> claims, findings;
  for (auto const& c : report.claims) {
    claims.push_back({run.id, c.id, std::string(to_string(c.verdict))});
    if (c.verdict == Verdict::Contradicted) findings.push_back({run.id, "claim " + c.id, c.family, c.evidence});
  }
  db.run_many("INSERT INTO claim_verdicts (run_id, claim, verdict) VALUES (?1, ?2, ?3)", claims);
  db.run_many("INSERT INTO findings (run_id, id, subject, text) VALUES (?1, ?2, ?3, ?4)", findings);
  std::vector<std::int64_t> parts = {split.results, split.claims};
  for (std::int64_t id : store_parts(db, split.parts)) parts.push_back(id);
  db.query("INSERT INTO reports (run_id, body, parts) VALUES (?1, ?2, ?3)",
           {run.id, compressed(split.body, db.where()), packed(parts)});
  tx.commit();
  names_.clear();
  return {.run = run, .added = true};
}

RecordResult HistoryStore::record(const AuditSummary& audit, const std::string& report_json_text,
                                  const std::string& source) {
  const std::string key = content_hash(report_json_text);
  Database& db = *db_;
  Transaction tx(db);
  if (auto had = run_with_key(db, key)) return {.run = *had, .added = false};
  StoredRun run{.key = key, .kind = "audit", .cuda_release = audit.cuda_release,
                .ptxas_version = audit.ptxas_version, .toolchain = "ptxas", .source = source};
  // Who wrote it and when: the report's "run" (the reader keeps only the toolkit's identity).
  const auto who = nlohmann::json::parse(report_json_text, nullptr, false);
  if (who.is_object() && who.contains("run") && who["run"].is_object())
    for (auto [field, member] : {std::pair{"date", &StoredRun::date}, std::pair{"host", &StoredRun::host},
                                 std::pair{"suite_commit", &StoredRun::suite_commit}})
      if (who["run"].contains(field) && who["run"][field].is_string()) run.*member = who["run"][field].get<std::string>();
  run.findings = static_cast<std::int64_t>(audit.findings.size());
  run.verdict = fmt::format("{} findings, {} contradictions", audit.findings.size(), audit.contradictions);
  run.id = insert_run(db, run, std::nullopt, Blob{});
  std::vector<std::vector<DbValue>> claims, findings;
  for (auto const* rows : {&audit.statements, &audit.requirements})
    for (auto const& v : *rows) claims.push_back({run.id, v.id, v.verdict});
  for (auto const& f : audit.findings) findings.push_back({run.id, f.id, f.subject, f.observed});
  db.run_many("INSERT INTO claim_verdicts (run_id, claim, verdict) VALUES (?1, ?2, ?3)", claims);
  db.run_many("INSERT INTO findings (run_id, id, subject, text) VALUES (?1, ?2, ?3, ?4)", findings);
  db.query("INSERT INTO reports (run_id, body, parts) VALUES (?1, ?2, ?3)",
           {run.id, compressed(report_json_text, db.where()), Blob{}});
  tx.commit();
  return {.run = run, .added = true};
}

std::vector<StoredRun> HistoryStore::runs() {
  std::vector<StoredRun> out;
  for (auto const& r : db_->query(fmt::format("SELECT {} FROM runs ORDER BY date, id", kRunColumns)))
    out.push_back(stored_run(r));
  return out;
}

HistoryStore::Codes HistoryStore::outcome_codes(std::int64_t run_id) {
  const auto rows = db_->query(
      "SELECT case_lists.names, runs.outcomes FROM runs JOIN case_lists ON case_lists.id = runs.case_list "
      "WHERE runs.id = ?1",
      {run_id});
  if (rows.empty()) return {};
  return {.cases = unpacked(as_blob(rows[0][0])), .codes = as_blob(rows[0][1])};
}

const std::unordered_map<std::int64_t, HistoryStore::CaseName>& HistoryStore::case_names() {
  if (names_.empty())
    for (auto const& r : db_->query("SELECT id, name, family FROM case_names"))
      names_[as_int(r[0])] = {.name = as_text(r[1]), .family = as_text(r[2])};
  return names_;
}

std::string outcome_token_of_code(std::uint8_t code) {
  const std::size_t o = code & 0x7f;
  return o < std::size(kOutcomes) ? token(kOutcomes[o]) : "unknown";
}

std::vector<std::pair<std::string, std::string>> HistoryStore::outcomes(std::int64_t run_id) {
  std::vector<std::pair<std::string, std::string>> out;
  const Codes c = outcome_codes(run_id);
  const auto& names = case_names();
  for (std::size_t i = 0; i < c.cases.size() && i < c.codes.size(); ++i)
    out.emplace_back(names.at(c.cases[i]).name, outcome_token_of_code(c.codes[i]));
  return out;
}

std::vector<std::pair<std::string, std::string>> HistoryStore::claim_verdicts(std::int64_t run_id) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto const& r : db_->query("SELECT claim, verdict FROM claim_verdicts WHERE run_id = ?1", {run_id}))
    out.emplace_back(as_text(r[0]), as_text(r[1]));
  return out;
}

std::string HistoryStore::report_text(std::int64_t run_id) {
  const auto rows = db_->query("SELECT body, parts FROM reports WHERE run_id = ?1", {run_id});
  if (rows.empty()) throw HistoryError(fmt::format("{}: no run {} in the history", where(), run_id));
  const std::string body = decompressed(as_blob(rows[0][0]), where());
  const std::vector<std::int64_t> parts = unpacked(as_blob(rows[0][1]));
  if (parts.empty()) return body;  // an audit: kept whole
  RunReport report = parse_report_json(body, where());
  std::map<std::int64_t, std::vector<std::string>> chunks;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const auto at = db_->query("SELECT chunk, position FROM report_parts WHERE id = ?1", {parts[i]}).at(0);
    auto [it, fresh] = chunks.try_emplace(as_int(at[0]));
    if (fresh) {
      const std::string text = decompressed(
          as_blob(db_->query("SELECT data FROM report_chunks WHERE id = ?1", {at[0]}).at(0).at(0)), where());
      for (std::size_t b = 0, e; b < text.size(); b = e + 1) it->second.push_back(text.substr(b, (e = text.find('\n', b)) - b));
    }
    const std::string& line = it->second.at(static_cast<std::size_t>(as_int(at[1])));
    const auto n = static_cast<std::int64_t>(i - 2);
    if (n < parts[0]) report.results.push_back(parse_case_result_line(line, where(), static_cast<int>(i)));
    else if (n < parts[0] + parts[1]) report.claims.push_back(parse_claim_line(line, where(), static_cast<int>(i)));
    else report.sass = parse_sass_line(line, where(), static_cast<int>(i));
  }
  return report_json(report);
}

std::string default_history_location() {
  if (auto h = getenv_or("PTXCTS_HISTORY"); !h.empty()) return h == "off" ? "" : h;
  fs::path dir;
  if (auto x = getenv_or("XDG_DATA_HOME"); !x.empty()) dir = fs::path(x) / "ptxcts";
  // Never a shared place (/tmp) where $HOME is unset: another user could plant a history there.
  else if (auto home = user_home(); !home.empty()) dir = fs::path(home) / ".local" / "share" / "ptxcts";
  else return "";
  return (dir / "history.sqlite").string();
}

void prepare_history_folder(const std::string& location) {
  if (is_postgres_location(location)) return;
  const fs::path dir = fs::absolute(fs::path(location)).parent_path();
  try {
    make_private_folder(dir);
  } catch (const std::exception& e) { throw HistoryError(fmt::format("{}: the history's folder: {}", location, e.what())); }
}

}  // namespace ptxcts

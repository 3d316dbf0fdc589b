#include "report/toolkits/toolkit_matrix_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "report/unique_rows.hpp"
#include "results/report_kind.hpp"

namespace ptxcts {
namespace {


std::size_t count(const JsonNode& n) { return static_cast<std::size_t>(n.integer(0, kMaxReportCount)); }

MatrixFile::Toolkit read_toolkit(const JsonNode& n) {
  n.object({"cuda_release", "ptxas_version", "ptx_isa", "targets", "probes", "findings", "contradictions", "report"});
  MatrixFile::Toolkit t;
  t.toolkit = read_toolkit_identity(n);
  t.probes = count(n.at("probes"));
  t.findings = count(n.at("findings"));
  t.contradictions = count(n.at("contradictions"));
  t.report = n.at("report").str();
  return t;
}

PairChanges read_step(const JsonNode& n, const MatrixFile::Toolkit& from, const MatrixFile::Toolkit& to) {
  n.object({"from", "to", "counts", "changes"});
  PairChanges s;
  s.from = n.at("from").str();
  s.to = n.at("to").str();
  if (s.from != from.toolkit.cuda_release || s.to != to.toolkit.cuda_release)
    n.fail(fmt::format("expected the change from CUDA {} to {} (consecutive toolkits), got {} to {}",
                       from.toolkit.cuda_release, to.toolkit.cuda_release, s.from, s.to));
  for (auto const& c : n.at("changes").items()) {
    c.object({"kind", "what", "before", "after"});
    ToolkitChange x{.kind = c.at("kind").str(),
                    .what = c.at("what").str(),
                    .before = c.at("before").str(),
                    .after = c.at("after").str()};
    if (std::find(kChangeKinds.begin(), kChangeKinds.end(), x.kind) == kChangeKinds.end())
      c.at("kind").fail(
          fmt::format("expected a kind of change ({}), got \"{}\"", fmt::join(kChangeKinds, ", "), x.kind));
    s.changes.push_back(std::move(x));
  }
  // The counts say how many of each kind the list holds (the writer leaves a kind with none out).
  const JsonNode counts = n.at("counts");
  std::vector<const char*> kinds;
  for (auto const& k : kChangeKinds) kinds.push_back(k.c_str());
  counts.object({}, kinds);
  for (auto const& k : kChangeKinds) {
    const std::size_t listed = s.count(k);
    const std::size_t said = counts.has(k.c_str()) ? count(counts.at(k.c_str())) : 0;
    if (said != listed)
      (counts.has(k.c_str()) ? counts.at(k.c_str()) : counts)
          .fail(fmt::format("expected the count of \"{}\" to be {} (the changes listed), got {}", k, listed, said));
  }
  return s;
}

// "per_toolkit": a key per toolkit, each a cell or null (the toolkit lacks the row).
template <class Cell, class Read>
std::vector<std::optional<Cell>> read_per_toolkit(const JsonNode& n, const std::vector<MatrixFile::Toolkit>& toolkits,
                                                  Read read) {
  std::vector<const char*> keys;
  for (auto const& t : toolkits) keys.push_back(t.toolkit.cuda_release.c_str());
  n.object(keys);
  std::vector<std::optional<Cell>> per;
  for (std::size_t c = 0; c < toolkits.size(); ++c) {
    const JsonNode cell = n.at(keys[c]);
    if (cell.json().is_null()) per.emplace_back();
    else per.emplace_back(read(cell, toolkits[c]));
  }
  if (std::none_of(per.begin(), per.end(), [](auto const& p) { return p.has_value(); }))
    n.fail("expected a value for at least one toolkit, got null for every one");
  return per;
}

MatrixFile::FindingCell read_finding_cell(const JsonNode& n, const MatrixFile::Toolkit&) {
  n.object({"class", "forms", "fails_audit", "known", "observed"});
  return {.cls = n.at("class").str(),
          .observed = n.at("observed").str(),
          .forms = count(n.at("forms")),
          .fails = n.at("fails_audit").boolean(),
          .known = n.at("known").boolean()};
}

MatrixFile::VerdictCell read_verdict_cell(const JsonNode& n, const MatrixFile::Toolkit&) {
  n.object({"verdict", "evidence"});
  return {.verdict = n.at("verdict").str(), .evidence = n.at("evidence").str()};
}

MatrixFile::FormCell read_form_cell(const JsonNode& n, const MatrixFile::Toolkit&) {
  n.object({"state", "verdict", "evidence"});
  return {.state = n.at("state").str(), .verdict = n.at("verdict").str(), .evidence = n.at("evidence").str()};
}

std::string read_verdicts(const JsonNode& n, const MatrixFile::Toolkit& t) {
  std::string v = n.str();
  if (v.size() != t.toolkit.targets.size())
    n.fail(fmt::format("expected one verdict per target of CUDA {} ({}), got {}", t.toolkit.cuda_release,
                       t.toolkit.targets.size(), v.size()));
  if (auto bad = v.find_first_not_of("+-!"); bad != std::string::npos)
    n.fail(fmt::format("expected + (accepted), - (rejected) or ! (ptxas failed), got '{}'", v[bad]));
  return v;
}


template <class Cell, class Read>
std::vector<MatrixFile::Row<Cell>> read_rows(const JsonNode& list, const char* id_key, const char* what,
                                             const std::vector<MatrixFile::Toolkit>& toolkits, Read read) {
  std::vector<MatrixFile::Row<Cell>> rows;
  UniqueRows seen;
  for (auto const& n : list.items()) {
    n.object({id_key, "per_toolkit"});
    MatrixFile::Row<Cell> r{n.at(id_key).str(), read_per_toolkit<Cell>(n.at("per_toolkit"), toolkits, read)};
    seen.check(n, r.id, what);
    rows.push_back(std::move(r));
  }
  return rows;
}

// The grammar's forms, a row each: its verdicts per toolkit.
void read_grammar_rows(const JsonNode& rows, MatrixFile& m) {
  UniqueRows grammar;
  for (auto const& n : rows.items()) {
    n.object({"block", "instruction", "verdicts"});
    MatrixFile::GrammarRow g{.block = n.at("block").str(),
                             .instruction = n.at("instruction").str(),
                             .verdicts = read_per_toolkit<std::string>(n.at("verdicts"), m.toolkits, read_verdicts)};
    grammar.check(n, g.block + ": " + g.instruction, "grammar row");
    m.grammar.push_back(std::move(g));
  }
}

// What the code became between releases, each release one of the matrix's toolkits.
void read_sass_steps(const JsonNode& list, const std::set<std::string>& releases, MatrixFile& m) {
  for (auto const& n : list.items()) {
    n.object({"from", "to", "disassemblers", "changes"});
    MatrixFile::SassStep st{
        .from = n.at("from").str(), .to = n.at("to").str(), .disassemblers = n.at("disassemblers").strings()};
    if (!releases.count(st.from) || !releases.count(st.to))
      n.fail(fmt::format("SASS changes from CUDA {} to {}: expected releases among the matrix's toolkits", st.from,
                         st.to));
    for (auto const& c : n.at("changes").items()) {
      c.object({"kernel", "target", "before", "after"});
      st.changes.push_back({.kernel = c.at("kernel").str(),
                            .target = c.at("target").str(),
                            .before = c.at("before").str(),
                            .after = c.at("after").str()});
    }
    m.sass.push_back(std::move(st));
  }
}

}  // namespace

MatrixFile read_matrix_file(const JsonDocument& doc) {
  expect_report_kind(doc, ReportKind::ToolkitMatrix);
  const JsonNode root = doc.root();
  root.object(
      {"schema_version", "run", "toolkits", "changes", "findings", "statements", "requirements", "forms", "grammar"},
      {"kind", "sass_changes"});
  const JsonNode version = root.at("schema_version");
  if (auto v = version.integer(INT32_MIN, INT32_MAX); v != kToolkitMatrixSchema)
    version.fail(
        fmt::format("expected {} (the toolkit matrix schema this build reads), got {}", kToolkitMatrixSchema, v));
  MatrixFile m;
  m.file = doc.file();
  const JsonNode run = root.at("run");
  run.object({"host", "date", "suite_version", "suite_commit"});
  m.run = {.host = run.at("host").str(),
           .date = run.at("date").str(),
           .suite_version = run.at("suite_version").str(),
           .suite_commit = run.at("suite_commit").str()};
  const JsonNode toolkits = root.at("toolkits");
  std::set<std::string> releases;
  for (auto const& n : toolkits.items()) {
    m.toolkits.push_back(read_toolkit(n));
    if (!releases.insert(m.toolkits.back().toolkit.cuda_release).second)
      n.at("cuda_release").fail(fmt::format("duplicate toolkit CUDA {}", m.toolkits.back().toolkit.cuda_release));
  }
  if (m.toolkits.size() < 2)
    toolkits.fail(fmt::format("expected two or more toolkits side by side, got {}", m.toolkits.size()));
  const auto steps = root.at("changes").items();
  if (steps.size() != m.toolkits.size() - 1)
    root.at("changes").fail(fmt::format("expected {} steps (one per pair of consecutive toolkits), got {}",
                                        m.toolkits.size() - 1, steps.size()));
  for (std::size_t i = 0; i < steps.size(); ++i)
    m.steps.push_back(read_step(steps[i], m.toolkits[i], m.toolkits[i + 1]));
  m.findings = read_rows<MatrixFile::FindingCell>(root.at("findings"), "id", "finding", m.toolkits, read_finding_cell);
  m.statements =
      read_rows<MatrixFile::VerdictCell>(root.at("statements"), "id", "statement", m.toolkits, read_verdict_cell);
  m.requirements =
      read_rows<MatrixFile::VerdictCell>(root.at("requirements"), "id", "requirement", m.toolkits, read_verdict_cell);
  m.forms = read_rows<MatrixFile::FormCell>(root.at("forms"), "name", "form", m.toolkits, read_form_cell);
  read_grammar_rows(root.at("grammar"), m);
  if (root.has("sass_changes")) read_sass_steps(root.at("sass_changes"), releases, m);
  return m;
}

MatrixFile parse_matrix_file(const std::string& text, const std::string& file) {
  JsonDocument doc(text, file);
  return read_matrix_file(doc);
}

}  // namespace ptxcts

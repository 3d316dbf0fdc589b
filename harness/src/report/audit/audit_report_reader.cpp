#include "report/audit/audit_report_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "report/unique_rows.hpp"
#include "results/report_kind.hpp"
#include "results/sentence_counts.hpp"

namespace ptxcts {
namespace {


// Schema 5's "question": the id of a kind of question (judge/question_kind).
QuestionKind read_question(const JsonNode& n) {
  const std::string id = n.str();
  if (auto k = question_kind_of_id(id)) return *k;
  std::vector<std::string> ids;
  for (auto const& k : question_kinds()) ids.push_back(k.id);
  n.fail(fmt::format("expected a kind of question ({}), got \"{}\"", fmt::join(ids, ", "), id));
}

AuditSummary::FindingRow read_finding(const JsonNode& n, std::int64_t schema) {
  if (schema >= 6)
    n.object({"id", "class", "question", "undocumented", "subject", "words", "source", "observed", "targets", "forms",
              "example", "form_ranges", "asked", "not_on", "known_discrepancy", "fails_audit"});
  else if (schema >= 5)
    n.object({"id", "class", "question", "undocumented", "subject", "words", "source", "observed", "targets", "forms",
              "example", "known_discrepancy", "fails_audit"});
  else
    n.object({"id", "class", "undocumented", "subject", "words", "source", "observed", "targets", "forms", "example",
              "known_discrepancy", "fails_audit"});
  AuditSummary::FindingRow f;
  if (schema >= 5) f.question = read_question(n.at("question"));
  f.id = n.at("id").str();
  f.cls = n.at("class").str();
  f.undocumented = n.at("undocumented").boolean();
  f.subject = n.at("subject").str();
  f.words = n.at("words").str();
  f.source = n.at("source").str();
  f.observed = n.at("observed").str();
  f.targets = n.at("targets").strings();
  f.forms = static_cast<std::size_t>(n.at("forms").integer(0, kMaxReportCount));
  f.example = n.at("example").str();
  f.known = n.at("known_discrepancy").str();
  f.fails = n.at("fails_audit").boolean();
  if (schema >= 6) {
    f.form_ranges = n.at("form_ranges").strings();
    f.asked = static_cast<std::size_t>(n.at("asked").integer(0, kMaxReportCount));
    f.not_on = n.at("not_on").strings();
  }
  if (f.id.empty()) n.at("id").fail("expected a finding id, got an empty string");
  return f;
}

AuditSummary::VerdictRow read_statement(const JsonNode& n) {
  n.object({"id", "kind", "family", "words", "source", "verdict", "evidence", "forms"});
  AuditSummary::VerdictRow s;
  s.id = n.at("id").str();
  s.kind = n.at("kind").str();
  s.family = n.at("family").str();
  s.words = n.at("words").str();
  s.source = n.at("source").str();
  s.verdict = n.at("verdict").str();
  s.evidence = n.at("evidence").str();
  s.forms = static_cast<std::size_t>(n.at("forms").integer(0, kMaxReportCount));
  return s;
}

AuditSummary::VerdictRow read_requirement(const JsonNode& n) {
  n.object({"variant", "family", "requirement", "documented", "source", "verdict", "evidence", "mismatches",
            "known_discrepancies"});
  AuditSummary::VerdictRow r;
  r.variant = n.at("variant").str();
  r.requirement = n.at("requirement").str();
  r.id = r.variant + " " + r.requirement;
  r.kind = "requirement";
  r.family = n.at("family").str();
  r.documented = n.at("documented").str();
  r.source = n.at("source").str();
  r.verdict = n.at("verdict").str();
  r.evidence = n.at("evidence").str();
  n.at("mismatches").strings();
  n.at("known_discrepancies").strings();
  return r;
}

AuditSummary::FormRow read_form(const JsonNode& n) {
  n.object(
      {"name", "kind", "family", "target", "source", "instruction", "assembled", "accepted", "message", "evidence"},
      {"reason", "diagnostic_expected", "diagnostic_seen", "verdict", "known_discrepancy"});
  AuditSummary::FormRow f;
  f.name = n.at("name").str();
  f.kind = n.at("kind").str();
  if (f.kind != "invalid" && f.kind != "spelling")
    n.at("kind").fail("expected \"invalid\" or \"spelling\", got \"" + f.kind + "\"");
  f.family = n.at("family").str();
  f.target = n.at("target").str();
  n.at("source").str();
  f.instruction = n.at("instruction").str();
  f.assembled = n.at("assembled").boolean();
  f.accepted = n.at("accepted").boolean();
  n.at("message").str();
  f.evidence = n.at("evidence").str();
  f.verdict_given = n.has("verdict");
  f.verdict = f.verdict_given ? n.at("verdict").str() : "observation";
  for (const char* k : {"reason", "diagnostic_expected", "diagnostic_seen", "known_discrepancy"})
    if (n.has(k)) n.at(k).str();
  return f;
}

AuditSummary::GrammarRow read_grammar_row(const JsonNode& n, std::size_t targets) {
  n.object({"block", "instruction", "class", "variant", "rules", "verdicts", "first_rejection"});
  AuditSummary::GrammarRow g;
  g.block = n.at("block").str();
  g.instruction = n.at("instruction").str();
  g.cls = n.at("class").str();
  n.at("variant").str();
  n.at("rules").strings();
  g.verdicts = n.at("verdicts").str();
  if (g.verdicts.size() != targets)
    n.at("verdicts").fail(fmt::format("expected one verdict per target ({}), got {}", targets, g.verdicts.size()));
  if (auto bad = g.verdicts.find_first_not_of("+-!"); bad != std::string::npos)
    n.at("verdicts")
        .fail(fmt::format("expected + (accepted), - (rejected) or ! (ptxas failed), got '{}'", g.verdicts[bad]));
  g.first_rejection = n.at("first_rejection").str();
  return g;
}

// Schema 4's coverage: a row per kind of question, each kind once (from schema 5 with its id).
void read_coverage(const JsonNode& rows, AuditSummary& a, std::int64_t schema) {
  UniqueRows kinds;
  for (auto const& n : rows.items()) {
    if (schema >= 5) n.object({"question", "kind", "questions", "probes", "findings"});
    else n.object({"kind", "questions", "probes", "findings"});
    AuditSummary::QuestionCountRow c;
    if (schema >= 5) c.question = read_question(n.at("question"));
    c.kind = n.at("kind").str();
    c.questions = static_cast<std::size_t>(n.at("questions").integer(0, kMaxReportCount));
    c.probes = static_cast<std::size_t>(n.at("probes").integer(0, kMaxReportCount));
    c.findings = static_cast<std::size_t>(n.at("findings").integer(0, kMaxReportCount));
    kinds.check(n, c.kind, "coverage row");
    a.coverage.push_back(c);
  }
}

// Schema 6's coverage per syntax block and kind of question: each pair once.
void read_block_coverage(const JsonNode& rows, AuditSummary& a) {
  UniqueRows pairs;
  for (auto const& n : rows.items()) {
    n.object({"block", "question", "questions", "forms", "asked", "classes", "by_class", "sampled", "how"});
    AuditSummary::BlockCoverageRow c;
    c.block = n.at("block").str();
    c.question = read_question(n.at("question"));
    auto count = [&](const char* key) { return static_cast<std::size_t>(n.at(key).integer(0, kMaxReportCount)); };
    c.questions = count("questions");
    c.forms = count("forms");
    c.asked = count("asked");
    c.classes = count("classes");
    c.by_class = count("by_class");
    c.sampled = count("sampled");
    c.how = n.at("how").str();
    pairs.check(n, c.block + " " + info(c.question).id, "block coverage row");
    a.block_coverage.push_back(std::move(c));
  }
}

AuditSummary::GrammarCountRow read_grammar_count(const JsonNode& n) {
  n.object({"block", "family", "document", "class", "forms", "accepted_per_target"});
  AuditSummary::GrammarCountRow g;
  g.block = n.at("block").str();
  n.at("family").str();
  g.document = n.at("document").str();
  g.cls = n.at("class").str();
  g.forms = static_cast<std::size_t>(n.at("forms").integer(0, kMaxReportCount));
  const JsonNode per = n.at("accepted_per_target");
  if (!per.json().is_object()) per.fail("expected an object: a count per target, got " + per.describe());
  for (auto const& [target, _] : per.json().items())
    g.accepted_per_target[target] = static_cast<std::size_t>(per.at(target.c_str()).integer(0, kMaxReportCount));
  return g;
}

// The documents the specs cite (specs/documents.yaml), each once: what the findings' document ids name.
void read_documents(const JsonNode& rows, AuditSummary& a) {
  UniqueRows ids;
  for (auto const& n : rows.items()) {
    n.object({"id", "title", "author", "address", "language"}, {"translation_of"});
    AuditSummary::DocumentRow d{.id = n.at("id").str(), .title = n.at("title").str(), .author = n.at("author").str(),
                                .address = n.at("address").str(), .language = n.at("language").str()};
    if (n.has("translation_of")) d.translation_of = n.at("translation_of").str();
    ids.check(n, d.id, "document");
    a.documents.push_back(std::move(d));
  }
}

AuditSummary::MutationCountRow read_mutation_count(const JsonNode& n) {
  n.object({"block", "kind", "documents", "forms", "accepted", "rejected"});
  AuditSummary::MutationCountRow m;
  m.block = n.at("block").str();
  m.kind = n.at("kind").str();
  m.documents = n.at("documents").str();
  m.forms = static_cast<std::size_t>(n.at("forms").integer(0, kMaxReportCount));
  m.accepted = static_cast<std::size_t>(n.at("accepted").integer(0, kMaxReportCount));
  m.rejected = static_cast<std::size_t>(n.at("rejected").integer(0, kMaxReportCount));
  return m;
}

AuditSummary::QualifierOrderRow read_qualifier_orders(const JsonNode& n) {
  n.object({"block", "family", "documented", "forms", "classes", "asked", "accepted", "rejected", "orders",
            "model_accepted", "floating", "fixed", "constrained", "examples", "model_checked", "model_mispredicted",
            "class_compared", "class_differing"});
  AuditSummary::QualifierOrderRow q;
  q.block = n.at("block").str();
  q.family = n.at("family").str();
  q.documented = n.at("documented").str();
  auto count = [&](const char* key) { return static_cast<std::size_t>(n.at(key).integer(0, kMaxReportCount)); };
  q.forms = count("forms");
  q.classes = count("classes");
  q.asked = count("asked");
  q.accepted = count("accepted");
  q.rejected = count("rejected");
  q.orders = count("orders");
  q.model_accepted = count("model_accepted");
  q.floating = n.at("floating").strings();
  q.fixed = n.at("fixed").strings();
  q.constrained = n.at("constrained").strings();
  q.examples = n.at("examples").strings();
  q.model_checked = count("model_checked");
  q.model_mispredicted = count("model_mispredicted");
  q.class_compared = count("class_compared");
  q.class_differing = count("class_differing");
  return q;
}

// The report's "run": the toolkit, the targets ptxas lists (schema 3 on), where and when.
void read_run(const JsonNode& run, std::int64_t schema, AuditSummary& a) {
  if (schema >= 3)
    run.object({"cuda_release", "ptxas_version", "ptx_isa", "targets", "ptxas_targets", "host", "date", "suite_version",
                "suite_commit"});
  else
    run.object(
        {"cuda_release", "ptxas_version", "ptx_isa", "targets", "host", "date", "suite_version", "suite_commit"});
  static_cast<ToolkitIdentity&>(a) = read_toolkit_identity(run);
  a.ptxas_targets = schema >= 3 ? run.at("ptxas_targets").strings() : a.targets;
  a.host = run.at("host").str();
  a.date = run.at("date").str();
  a.suite_version = run.at("suite_version").str();
  a.suite_commit = run.at("suite_commit").str();
}

}  // namespace


AuditSummary read_audit_report(const JsonDocument& doc) {
  expect_report_kind(doc, ReportKind::Audit);
  const JsonNode root = doc.root();
  root.object({"schema_version", "run", "summary", "findings", "statements", "requirements", "forms", "grammar_counts",
               "negative_space_counts", "grammar", "negative_space", "ptxas_failures"},
              {"kind", "coverage", "coverage_blocks", "documents", "sentences", "qualifier_orders"});
  const JsonNode version = root.at("schema_version");
  const auto schema = version.integer(INT32_MIN, INT32_MAX);
  if (schema < 2 || schema > kAuditReportSchema)
    version.fail(fmt::format("expected 2 to {} (the audit report schemas this build reads), got {}", kAuditReportSchema,
                             schema));
  AuditSummary a;
  a.file = doc.file();
  read_run(root.at("run"), schema, a);
  const JsonNode summary = root.at("summary");
  summary.object({"probes", "findings", "findings_per_class", "contradictions", "ptxas_failures"});
  a.probes = static_cast<std::size_t>(summary.at("probes").integer(0, kMaxReportCount));
  a.contradictions = static_cast<int>(summary.at("contradictions").integer(0, INT32_MAX));
  a.ptxas_failures = static_cast<std::size_t>(summary.at("ptxas_failures").integer(0, kMaxReportCount));
  UniqueRows findings, statements, requirements, forms, mutations, grammar;
  for (auto const& n : root.at("findings").items()) {
    a.findings.push_back(read_finding(n, schema));
    findings.check(n, a.findings.back().id, "finding");
  }
  for (auto const& n : root.at("statements").items()) {
    a.statements.push_back(read_statement(n));
    statements.check(n, a.statements.back().kind + " " + a.statements.back().id, "statement");
  }
  for (auto const& n : root.at("requirements").items()) {
    a.requirements.push_back(read_requirement(n));
    requirements.check(n, a.requirements.back().id, "requirement");
  }
  for (auto const& n : root.at("forms").items()) {
    a.forms.push_back(read_form(n));
    forms.check(n, a.forms.back().name, "form");
  }
  a.coverage_given = schema >= 4;
  if (a.coverage_given) read_coverage(root.at("coverage"), a, schema);
  if (schema >= 6) read_block_coverage(root.at("coverage_blocks"), a);
  for (auto const& n : root.at("grammar_counts").items()) a.grammar_counts.push_back(read_grammar_count(n));
  if (root.has("documents")) read_documents(root.at("documents"), a);
  if (root.has("sentences")) a.sentences = read_sentence_counts(root.at("sentences"));
  for (auto const& n : root.at("negative_space_counts").items()) {
    a.negative_space.push_back(read_mutation_count(n));
    auto const& m = a.negative_space.back();
    mutations.check(n, m.block + " " + m.kind + " " + m.documents, "negative space count");
  }
  for (auto const& n : root.at("grammar").items()) {
    a.grammar.push_back(read_grammar_row(n, a.targets.size()));
    grammar.check(n, a.grammar.back().block + ": " + a.grammar.back().instruction, "grammar row");
  }
  if (root.has("qualifier_orders"))
    for (auto const& n : root.at("qualifier_orders").items()) a.qualifier_orders.push_back(read_qualifier_orders(n));
  root.at("negative_space").items();
  root.at("ptxas_failures").strings();
  return a;
}

AuditSummary parse_audit_report(const std::string& text, const std::string& file) {
  JsonDocument doc(text, file);
  return read_audit_report(doc);
}

}  // namespace ptxcts

#include "report/audit/audit_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <nlohmann/json.hpp>

#include "report/audit/audit_html.hpp"
#include "report/audit/audit_report_reader.hpp"
#include "report/markdown_cell.hpp"
#include "report/pages/page_file.hpp"
#include "report/sentence_table.hpp"
#include "results/report_kind.hpp"
#include "results/sentence_counts.hpp"
#include "results/toolkit_identity.hpp"
#include "util/atomic_file.hpp"

namespace ptxcts {
namespace {

// 2: findings, statements, the grammar and its negative space (probes); 3: run.ptxas_targets;
// 4: coverage (the questions asked and the findings, per kind of question); 5: each finding's and
// each coverage row's kind of question by its id ("question": "operand-form", judge/question_kind);
// 6: each finding's extent (its forms collapsed into ranges, the questions asked, the targets it does
// not hold on) and the coverage per block and kind of question ("coverage_blocks")
constexpr int kAuditSchemaVersion = 6;

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

const char* kind_name(AuditForm::Kind k) { return k == AuditForm::Kind::Invalid ? "invalid" : "spelling"; }

// One character per target: + accepted, - rejected, ! ptxas failed.
std::string verdict_row(const std::vector<OnTarget>& on, const std::vector<ProbeVerdict>& v) {
  std::string s;
  for (auto const& o : on) s += !v[o.probe].error.empty() ? '!' : v[o.probe].accepted ? '+' : '-';
  return s;
}

// ptxas's first message among the rejections, if any.
std::string first_rejection(const std::vector<OnTarget>& on, const std::vector<ProbeVerdict>& v) {
  for (auto const& o : on)
    if (!v[o.probe].accepted && v[o.probe].error.empty()) return o.target + ": " + first_line(v[o.probe].message);
  return "";
}

// Where it holds and where it stops: its forms in ranges, of how many questions asked, and the
// targets asked where it does not hold.
std::string extent_markdown(const Finding& f) {
  std::string md;
  if (f.asked) md += fmt::format("  - holds for {} of the {} questions asked that could give it\n", f.forms, f.asked);
  if (!f.not_on.empty()) md += fmt::format("  - does not hold on {} (asked there)\n", fmt::join(f.not_on, ", "));
  if (f.form_ranges.size() > 1 || (f.form_ranges.size() == 1 && f.form_ranges.front() != f.example.substr(0, f.example.find(' '))))
    for (auto const& r : f.form_ranges) md += fmt::format("  - `{}`\n", markdown_cell(r));
  return md;
}

std::string finding_text(const Finding& f) {
  std::string md = fmt::format("- **{}** (`{}`)", f.subject, f.id);
  if (f.known) md += fmt::format(" — known: {}{}", f.known->source, f.known->note.empty() ? "" : " (" + f.known->note + ")");
  md += fmt::format("\n  - The documents: \"{}\" ({})\n", markdown_cell(f.words), f.source);
  md += fmt::format("  - ptxas: {}\n", markdown_cell(f.observed));
  md += fmt::format("  - {} form{}, on {}; e.g. `{}`\n", f.forms, f.forms == 1 ? "" : "s",
                    f.targets.empty() ? std::string("-") : fmt::format("{}", fmt::join(f.targets, ", ")),
                    markdown_cell(f.example));
  md += extent_markdown(f);
  return md;
}

using ojson = nlohmann::ordered_json;

// The toolkit, the targets ptxas lists, and where and when the audit ran.
ojson run_json(const Audit& audit, const AuditRun& run) {
  ojson j = toolkit_identity_json({.cuda_release = audit.cuda_release,
                                   .ptxas_version = audit.ptxas_version,
                                   .ptx_isa = audit.toolkit_ptx.str(),
                                   .targets = audit.targets});
  j.update({{"ptxas_targets", audit.ptxas_targets},
            {"host", run.host},
            {"date", run.date},
            {"suite_version", run.suite_version},
            {"suite_commit", run.suite_commit}});
  return j;
}

ojson summary_json(const Audit& audit) {
  std::map<std::string, int> per_class;
  for (auto const& f : audit.findings) ++per_class[finding_class_id(f.cls)];
  return {{"probes", audit.probes},
          {"findings", audit.findings.size()},
          {"findings_per_class", per_class},
          {"contradictions", audit.contradictions()},
          {"ptxas_failures", audit.errors.size()}};
}

// Per kind of question: how many were asked (and in how many probes), and the findings they gave.
ojson coverage_json(const Audit& audit) {
  ojson cs = ojson::array();
  for (auto const& c : audit.coverage)
    cs.push_back({{"question", info(c.kind).id},
                  {"kind", question_title(c.kind)},
                  {"questions", c.questions},
                  {"probes", c.probes},
                  {"findings", c.findings}});
  return cs;
}

// Per syntax block and kind of question: of how many of its forms, and how the others were covered.
ojson block_coverage_json(const Audit& audit) {
  ojson cs = ojson::array();
  for (auto const& c : audit.block_coverage)
    cs.push_back({{"block", c.block},
                  {"question", info(c.kind).id},
                  {"questions", c.questions},
                  {"forms", c.forms},
                  {"asked", c.asked},
                  {"classes", c.classes},
                  {"by_class", c.by_class},
                  {"sampled", c.sampled},
                  {"how", c.how}});
  return cs;
}

std::string block_coverage_markdown(const Audit& audit) {
  std::string md = "\n### Coverage, by syntax block and kind of question\n\nOf how many of each block's documented "
                   "forms each kind of question was asked, and how the others were covered (a class of forms the "
                   "documents' rules give the same verdicts: its head asked in full, a seeded sample of the others "
                   "checked against it, the statement of kind `equivalence`).\n\n| Block | Kind of question | "
                   "Questions | Forms | Asked | Sampled | How |\n|---|---|---|---|---|---|---|\n";
  for (auto const& c : audit.block_coverage)
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", c.block, question_title(c.kind), c.questions, c.forms,
                      c.asked, c.sampled, markdown_cell(c.how));
  return md;
}

std::string coverage_markdown(const Audit& audit) {
  std::string md = "\n## Coverage, by kind of question\n\nHow many questions of each kind the audit asked ptxas (a "
                   "form on a target is one question of the grammar and of the examples; one of a form's negative "
                   "space, and one again on each other target its sample is asked on), in how many probes, and how "
                   "many findings they gave.\n\n| Kind of question | Questions | Probes | Findings |\n|---|---|---|---|\n";
  for (auto const& c : audit.coverage)
    md += fmt::format("| {} | {} | {} | {} |\n", question_title(c.kind), c.questions, c.probes, c.findings);
  return md + block_coverage_markdown(audit);
}

ojson findings_json(const Audit& audit) {
  ojson fs = ojson::array();
  for (auto const& f : audit.findings)
    fs.push_back({{"id", f.id},
                  {"class", finding_class_id(f.cls)},
                  {"question", info(f.question).id},
                  {"undocumented", f.undocumented},
                  {"subject", f.subject},
                  {"words", f.words},
                  {"source", f.source},
                  {"observed", f.observed},
                  {"targets", f.targets},
                  {"forms", f.forms},
                  {"example", f.example},
                  {"form_ranges", f.form_ranges},
                  {"asked", f.asked},
                  {"not_on", f.not_on},
                  {"known_discrepancy", f.known ? f.known->source : ""},
                  {"fails_audit", f.fails()}});
  return fs;
}

ojson statements_json(const Audit& audit) {
  ojson ss = ojson::array();
  for (auto const& s : audit.statements)
    ss.push_back({{"id", s.id},
                  {"kind", s.kind},
                  {"family", s.family},
                  {"words", s.words},
                  {"source", s.source},
                  {"verdict", to_string(s.verdict)},
                  {"evidence", s.evidence},
                  {"forms", s.forms}});
  return ss;
}

ojson requirements_json(const Audit& audit) {
  ojson reqs = ojson::array();
  for (auto const& r : audit.requirements)
    reqs.push_back({{"variant", r.variant},
                    {"family", r.family},
                    {"requirement", r.requirement},
                    {"documented", r.documented},
                    {"source", r.source},
                    {"verdict", to_string(r.verdict)},
                    {"evidence", r.evidence},
                    {"mismatches", r.mismatches},
                    {"known_discrepancies", r.known}});
  return reqs;
}

// The hand-listed forms; an invalid one also with its reason, diagnostics and verdict.
ojson forms_json(const Audit& audit) {
  ojson forms = ojson::array();
  for (auto const& f : audit.forms) {
    ojson o = {{"name", f.form->name},     {"kind", kind_name(f.form->kind)}, {"family", f.form->family},
               {"target", f.form->target}, {"source", f.form->source},        {"instruction", f.instruction}};
    if (f.form->kind == AuditForm::Kind::Invalid) {
      o["reason"] = f.form->reason;
      o["diagnostic_expected"] = f.form->diagnostic;
      o["diagnostic_seen"] = f.diagnostic_seen;
      o["verdict"] = to_string(f.verdict);
      o["known_discrepancy"] = f.known ? f.known->source : "";
    }
    o["assembled"] = f.assembled;
    o["accepted"] = f.accepted;
    o["message"] = f.message;
    o["evidence"] = f.evidence;
    forms.push_back(o);
  }
  return forms;
}

// The documents the specs cite, by their public identity: what a document id in the findings' words names.
ojson documents_json(const Audit& audit) {
  ojson out = ojson::array();
  for (auto const& d : audit.documents) {
    ojson o = {{"id", d.id}, {"title", d.title}, {"author", d.author}, {"address", d.address}, {"language", d.language}};
    if (!d.translation_of.empty()) o["translation_of"] = d.translation_of;
    out.push_back(std::move(o));
  }
  return out;
}

std::string documents_markdown(const Audit& audit) {
  std::string md = "\n## Documents\n\nThe documents the specs cite (specs/documents.yaml), by the id the findings name:\n\n"
                   "| Id | Title | Author | Address |\n|---|---|---|---|\n";
  for (auto const& d : audit.documents) md += fmt::format("| {} | {} | {} | {} |\n", d.id, d.title, d.author, d.address);
  return md;
}

ojson grammar_counts_json(const Audit& audit) {
  ojson counts = ojson::array();
  for (auto const& c : audit.grammar)
    counts.push_back({{"block", c.block},
                      {"family", c.family},
                      {"document", c.document},
                      {"class", to_string(c.doc)},
                      {"forms", c.forms},
                      {"accepted_per_target", c.accepted}});
  return counts;
}

ojson negative_space_counts_json(const Audit& audit) {
  ojson ns = ojson::array();
  for (auto const& c : audit.negative_space)
    ns.push_back({{"block", c.block},
                  {"kind", c.kind},
                  {"documents", to_string(c.expected)},
                  {"forms", c.forms},
                  {"accepted", c.accepted},
                  {"rejected", c.rejected}});
  return ns;
}

// Per syntax block, the orders of its qualifiers ptxas accepts (judge/qualifier_orders.hpp).
ojson qualifier_orders_json(const Audit& audit) {
  ojson out = ojson::array();
  for (auto const& q : audit.qualifier_orders)
    out.push_back({{"block", q.block},
                   {"family", q.family},
                   {"documented", q.documented},
                   {"forms", q.forms},
                   {"classes", q.classes},
                   {"asked", q.asked},
                   {"accepted", q.accepted},
                   {"rejected", q.rejected},
                   {"orders", q.orders},
                   {"model_accepted", q.model_accepted},
                   {"floating", q.floating},
                   {"fixed", q.fixed},
                   {"constrained", q.constrained},
                   {"examples", q.examples},
                   {"model_checked", q.checked},
                   {"model_mispredicted", q.mispredicted},
                   {"class_compared", q.compared},
                   {"class_differing", q.differing}});
  return out;
}

// Every combination: one character per target (in run.targets' order), and ptxas's first rejection.
ojson grammar_json(const AuditPlan& plan, const std::vector<ProbeVerdict>& v) {
  ojson g = ojson::array();
  for (auto const& s : plan.grammar) {
    std::vector<std::string> rules;
    for (auto const* r : s.cc.forbidden_by) rules.push_back(r->id);
    g.push_back({{"block", s.cc.combo.block->id},
                 {"instruction", s.instruction},
                 {"class", to_string(s.cc.doc)},
                 {"variant", s.cc.instance ? s.cc.instance->variant().name : ""},
                 {"rules", rules},
                 {"verdicts", verdict_row(s.on, v)},
                 {"first_rejection", first_rejection(s.on, v)}});
  }
  return g;
}

// The negative space: each form ptxas took otherwise than the documents say (accepted though not
// documented valid, rejected though documented valid), with its message; the rest are counted.
ojson negative_space_json(const AuditPlan& plan, const std::vector<ProbeVerdict>& v) {
  ojson m = ojson::array();
  for (auto const& s : plan.mutations) {
    const ProbeVerdict& pv = v[s.on.probe];
    if (pv.error.empty() && pv.accepted == (s.m->expected == DocClass::Valid)) continue;
    m.push_back({{"block", plan.grammar[s.of].cc.combo.block->id},
                 {"kind", s.m->kind},
                 {"detail", s.m->detail},
                 {"instruction", s.instruction},
                 {"documents", to_string(s.m->expected)},
                 {"target", s.on.target},
                 {"verdict", !pv.error.empty() ? "failed" : pv.accepted ? "accepted" : "rejected"},
                 {"message", first_line(pv.message)}});
  }
  return m;
}

}  // namespace

std::string audit_json(const Audit& audit, const AuditPlan& plan, const std::vector<ProbeVerdict>& v,
                       const AuditRun& run) {
  ojson j;
  j["schema_version"] = kAuditSchemaVersion;
  j["kind"] = std::string(report_kind_name(ReportKind::Audit));
  j["run"] = run_json(audit, run);
  j["documents"] = documents_json(audit);
  j["summary"] = summary_json(audit);
  j["coverage"] = coverage_json(audit);
  j["sentences"] = sentence_counts_json(audit.sentences);
  j["coverage_blocks"] = block_coverage_json(audit);
  j["findings"] = findings_json(audit);
  j["statements"] = statements_json(audit);
  j["requirements"] = requirements_json(audit);
  j["forms"] = forms_json(audit);
  j["grammar_counts"] = grammar_counts_json(audit);
  j["negative_space_counts"] = negative_space_counts_json(audit);
  j["qualifier_orders"] = qualifier_orders_json(audit);
  j["grammar"] = grammar_json(plan, v);
  j["negative_space"] = negative_space_json(plan, v);
  j["ptxas_failures"] = audit.errors;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

// The findings, class by class, those of forms no document lists after the others of their class.
std::string findings_markdown(const Audit& audit) {
  std::string md = "## Findings\n\n";
  md += "Where the documents and ptxas disagree, where the documents disagree with each other, and what ptxas "
        "accepts that no document lists. A finding marked known is recorded in the specs (`known_discrepancies:`); "
        "it does not fail the audit, nor do findings of undocumented forms or of documents disagreeing.\n";
  for (FindingClass cls : {FindingClass::DocumentError, FindingClass::DocumentsDisagree, FindingClass::ToolkitAccepts,
                           FindingClass::ToolkitRejects}) {
    std::string section;
    int n = 0;
    for (auto const& f : audit.findings)
      if (f.cls == cls && !f.undocumented) section += finding_text(f), ++n;
    std::string undocumented;
    int u = 0;
    for (auto const& f : audit.findings)
      if (f.cls == cls && f.undocumented) undocumented += finding_text(f), ++u;
    md += fmt::format("\n### {} ({})\n\n", to_string(cls), n + u);
    if (n + u == 0) md += "None.\n";
    md += section;
    if (u) md += fmt::format("\nNot listed by any document ({}):\n\n", u) + undocumented;
  }
  return md;
}

// The counts: findings per class, then the grammar's combinations and the negative space per block.
std::string counts_markdown(const Audit& audit) {
  std::string md = "\n## Counts\n\n| Findings | |\n|---|---|\n";
  for (FindingClass cls : {FindingClass::DocumentError, FindingClass::DocumentsDisagree, FindingClass::ToolkitAccepts,
                           FindingClass::ToolkitRejects}) {
    int n = 0;
    for (auto const& f : audit.findings) n += f.cls == cls;
    md += fmt::format("| {} | {} |\n", to_string(cls), n);
  }
  md += fmt::format("| failing the audit (not known) | {} |\n", audit.contradictions());
  md += "\nCombinations of each syntax block, by what the documents make of them, and how many ptxas accepts on each "
        "target:\n\n| Block | Document | Class | Forms |";
  for (auto const& t : audit.targets) md += fmt::format(" {} |", t.substr(3));
  md += "\n|---|---|---|---|";
  for (std::size_t k = 0; k < audit.targets.size(); ++k) md += "---|";
  md += "\n";
  for (auto const& c : audit.grammar) {
    md += fmt::format("| {} | {} | {} | {} |", c.block, c.document, to_string(c.doc), c.forms);
    for (auto const& t : audit.targets) {
      auto a = c.accepted.find(t);
      md += fmt::format(" {} |", a == c.accepted.end() ? 0 : a->second);
    }
    md += "\n";
  }
  md += "\nThe negative space around the documented forms (each on its first target):\n\n| Block | Kind | The "
        "documents say | Forms | Accepted | Rejected |\n|---|---|---|---|---|---|\n";
  for (auto const& c : audit.negative_space)
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", c.block, c.kind, to_string(c.expected), c.forms,
                      c.accepted, c.rejected);
  return md;
}

// The statements, requirements and hand-listed forms, each with its verdict and evidence.
std::string verdicts_markdown(const Audit& audit) {
  std::string md = "\n## Statements of the documents\n\n| Kind | Statement | Words | Source | Verdict | Evidence "
                   "|\n|---|---|---|---|---|---|\n";
  for (auto const& s : audit.statements)
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", s.kind, s.id, markdown_cell(s.words), markdown_cell(s.source),
                      to_string(s.verdict), markdown_cell(s.evidence));

  md += "\n## Documented requirements\n\n| Variant | Requirement | Documented | Verdict | Evidence "
        "|\n|---|---|---|---|---|\n";
  for (auto const& r : audit.requirements)
    md += fmt::format("| {} | {} | {} | {} | {} |\n", r.variant, r.requirement, markdown_cell(r.documented),
                      to_string(r.verdict), markdown_cell(r.evidence));

  md += "\n## Hand-listed forms\n\n| Form | Kind | Instruction | Target | Expected | Seen | Verdict | Evidence "
        "|\n|---|---|---|---|---|---|---|---|\n";
  for (auto const& f : audit.forms)
    md += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} | {} |\n", f.form->name, kind_name(f.form->kind),
                      markdown_cell(f.instruction), f.form->target, f.form->diagnostic, f.diagnostic_seen,
                      to_string(f.verdict), markdown_cell(f.evidence));
  return md;
}

}  // namespace

std::string audit_markdown(const Audit& audit, const AuditRun& run) {
  std::string md = fmt::format("# ptxcts audit: CUDA {} (ptxas {}, PTX ISA {})\n\n", audit.cuda_release,
                               audit.ptxas_version, audit.toolkit_ptx.str());
  md += fmt::format("Written by `ptxcts audit` on {} at {} (ptxcts {}, commit {}). {} probes; targets: {}.\n\n",
                    run.host, run.date, run.suite_version, run.suite_commit, audit.probes,
                    fmt::join(audit.targets, ", "));
  md += findings_markdown(audit);
  md += coverage_markdown(audit);
  md += sentence_counts_markdown(audit.sentences, kAuditElsewhere);
  md += documents_markdown(audit);
  md += counts_markdown(audit);
  md += verdicts_markdown(audit);
  md += "\n## Known discrepancies no longer observed\n\n";
  if (audit.unused_known.empty()) md += "None.\n";
  for (auto const* k : audit.unused_known)
    md += fmt::format("- {} ({})\n",
                      !k->finding.empty() ? k->finding : k->form.empty() ? k->variant + " on " + k->target : k->form,
                      k->source);
  md += "\n## ptxas failures (no verdict)\n\n";
  if (audit.errors.empty()) md += "None.\n";
  for (auto const& e : audit.errors) md += fmt::format("- {}\n", markdown_cell(e));
  md += "\nEvery combination and every form of the negative space, with ptxas's verdict per target, is in the JSON "
        "report.\n";
  return md;
}

std::filesystem::path write_audit_reports(const Audit& audit, const AuditPlan& plan,
                                          const std::vector<ProbeVerdict>& verdicts, const AuditRun& run,
                                          const std::filesystem::path& dir) {
  write_file_atomically(audit_report_path(dir, audit.cuda_release, ".md"), audit_markdown(audit, run));
  std::string json = audit_json(audit, plan, verdicts, run);
  write_file_atomically(audit_report_path(dir, audit.cuda_release, ".json"), json);
  // The page is made from the JSON as its reader gives it back, as `ptxcts html` makes it from a committed one.
  const std::filesystem::path json_path = audit_report_path(dir, audit.cuda_release, ".json");
  write_html_page(audit_report_path(dir, audit.cuda_release, ".html"),
                  audit_html(parse_audit_report(json, json_path.string())));
  return audit_report_path(dir, audit.cuda_release, ".json");
}

std::filesystem::path audit_report_path(const std::filesystem::path& dir, const std::string& cuda_release,
                                        const std::string& extension) {
  std::string base = "audit-cuda" + cuda_release;
  for (char& c : base)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) c = '-';
  return dir / (base + extension);
}

}  // namespace ptxcts

// Toolkits side by side: what each toolkit's audit says (as its report gives it, read back by
// report/audit/audit_report_reader), and what changed from one toolkit to the next: targets added or
// removed, the PTX ISA version, forms newly accepted or rejected (the grammar on every target both
// know, the negative space), ptxas's messages, findings that appeared or were fixed, statements,
// requirements and hand-listed forms whose verdict changed. A target one toolkit does not know is
// "not known to this toolkit", never a change of verdict.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/question_kind.hpp"
#include "results/sentence_counts.hpp"
#include "results/toolkit_identity.hpp"

namespace ptxcts {

// What the matrix and the audit's page (report/audit/audit_html) need of one audit report. Its toolkit (the report's "run": cuda_release,
// ptxas_version, ptx_isa and targets, in the report's order: each grammar row's verdicts follow its
// targets) is a base, not a member, so that the commands reading `a.cuda_release` stay as they are.
struct AuditSummary : ToolkitIdentity {
  std::string file;                        // where it was read from
  std::vector<std::string> ptxas_targets;  // every target ptxas lists (schema 2: `targets`)
  std::string host, date, suite_version, suite_commit;  // where and when the audit ran
  struct FindingRow {
    std::string id, cls, subject, observed, known;
    bool undocumented = false, fails = false;
    std::size_t forms = 0;
    std::vector<std::string> targets;
    std::string words, source, example;  // the documents' words, where they are, one form of it
    std::optional<QuestionKind> question{};  // schema 5 on: the kind of question that found it
    // schema 6 on: its forms in ranges, the questions asked that could give it, targets it does not hold on
    std::vector<std::string> form_ranges{};
    std::size_t asked = 0;
    std::vector<std::string> not_on{};
  };
  struct VerdictRow {
    std::string id, kind, verdict, evidence;  // statements; requirements (id: "variant requirement")
    std::string family, source;
    std::string words;                          // a statement's
    std::size_t forms = 0;                      // a statement's
    std::string variant, requirement, documented;  // a requirement's
  };
  struct FormRow {  // hand-listed forms
    std::string name, target, instruction, verdict, evidence;
    bool assembled = false, accepted = false;
    std::string kind, family;   // "invalid" or "spelling"
    bool verdict_given = true;  // false: the report gives none (verdict: "observation")
  };
  struct GrammarRow {
    std::string block, instruction, cls;
    std::string verdicts;  // one character per target: + accepted, - rejected, ! ptxas failed
    std::string first_rejection;
  };
  struct GrammarCountRow {  // the grammar, per block and class
    std::string block, document, cls;
    std::size_t forms = 0;
    std::map<std::string, std::size_t> accepted_per_target;
  };
  struct MutationCountRow {  // the negative space of a block, per kind of mutation
    std::string block, kind, documents;
    std::size_t forms = 0, accepted = 0, rejected = 0;
  };
  struct QualifierOrderRow {  // a block's accepted qualifier orders (judge/qualifier_orders.hpp); absent before
    std::string block, family, documented;
    std::size_t forms = 0, classes = 0, asked = 0, accepted = 0, rejected = 0;
    std::uint64_t orders = 0, model_accepted = 0;
    std::vector<std::string> floating, fixed, constrained, examples;
    std::size_t model_checked = 0, model_mispredicted = 0, class_compared = 0, class_differing = 0;
  };
  std::vector<QualifierOrderRow> qualifier_orders;
  struct DocumentRow {  // a document the specs cite (specs/documents.yaml), by its public identity
    std::string id, title, author, address, language, translation_of;
  };
  std::vector<DocumentRow> documents;  // empty in a report written before `documents`
  std::vector<FindingRow> findings;
  std::vector<VerdictRow> statements, requirements;
  std::vector<FormRow> forms;
  std::vector<GrammarRow> grammar;
  std::vector<GrammarCountRow> grammar_counts;
  std::vector<MutationCountRow> negative_space;
  struct QuestionCountRow {  // schema 4's coverage: per kind of question
    std::string kind;  // its title
    std::size_t questions = 0, probes = 0, findings = 0;
    std::optional<QuestionKind> question{};  // schema 5 on
  };
  std::vector<QuestionCountRow> coverage;  // empty before schema 4
  struct BlockCoverageRow {  // schema 6's coverage per syntax block and kind of question
    std::string block;
    QuestionKind question = QuestionKind::GrammarForms;
    std::size_t questions = 0, forms = 0, asked = 0, classes = 0, by_class = 0, sampled = 0;
    std::string how;
  };
  std::vector<BlockCoverageRow> block_coverage;  // empty before schema 6
  bool coverage_given = false;             // the report has a coverage (schema 4)
  std::vector<SentenceCount> sentences;    // per section of the manual; empty where the report predates them
  std::size_t probes = 0;
  int contradictions = 0;
  std::size_t ptxas_failures = 0;  // probes ptxas failed on (the summary's count)
};

struct ToolkitChange {
  std::string kind;  // see kChangeKinds
  std::string what;  // the target, form, finding, statement, ...
  std::string before, after;
};

// The kinds of change, in the order the reports give them.
inline const std::vector<std::string> kChangeKinds = {"ptx isa",
                                                      "target added",
                                                      "target removed",
                                                      "form newly accepted",
                                                      "form newly rejected",
                                                      "message changed",
                                                      "finding appeared",
                                                      "finding fixed",
                                                      "finding changed",
                                                      "statement verdict",
                                                      "requirement verdict",
                                                      "hand-listed form"};

struct PairChanges {
  std::string from, to;  // CUDA releases
  std::vector<ToolkitChange> changes;
  std::size_t count(const std::string& kind) const;
};

// What changed from `a` to `b`.
PairChanges compare_audits(const AuditSummary& a, const AuditSummary& b);

// ptxas's message without what differs from probe to probe or toolkit to toolkit ("ptxas probe.ptx,
// line 3; ", "sm_90: ", "on 7 of 21 targets").
std::string message_gist(const std::string& message);

// The audits ordered by CUDA release (oldest first) and each consecutive pair compared. Throws
// std::invalid_argument if two share a release.
struct ToolkitMatrix {
  std::vector<AuditSummary> columns;
  std::vector<PairChanges> steps;
};
ToolkitMatrix build_matrix(std::vector<AuditSummary> audits);

}  // namespace ptxcts

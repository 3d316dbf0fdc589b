// The toolkit-side audit: every statement of the documents that ptxas can judge (the grammar's
// combinations and rules, the negative space around each documented form, the examples, the
// register counts, the minimum PTX ISA versions and targets, each target's and the toolkit's PTX
// ISA version, the hand-listed invalid forms and spellings), judged from the verdicts of the
// audit plan's probes. Contradictions and undocumented acceptances become findings, grouped by
// class. Needs no GPU.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "judge/audit_plan.hpp"
#include "judge/question_coverage.hpp"
#include "results/results.hpp"
#include "results/sentence_counts.hpp"

namespace ptxcts {

struct RequirementVerdict {
  std::string variant, family;
  std::string requirement;  // "targets" or "ptx X.Y"
  std::string documented;   // what the spec says, e.g. ">= sm_90" or "PTX ISA 7.8 (.shared::cta)"
  std::string source;
  Verdict verdict = Verdict::NotCheckable;
  std::string evidence;
  std::vector<std::string> mismatches;  // "form on target: documented X, ptxas Y (message)"
  std::vector<std::string> known;       // mismatches a known discrepancy explains (with its source)
};

struct FormVerdict {
  const AuditForm* form = nullptr;
  bool assembled = false;  // false: the toolkit does not know the form's target, or ptxas failed
  bool accepted = false;
  std::string message, instruction;
  Verdict verdict = Verdict::NotCheckable;  // spellings: always not-checkable (an observation)
  std::string diagnostic_seen;              // the class ptxas's message fell in, if any
  std::string evidence;
  const KnownDiscrepancy* known = nullptr;  // a contradiction the specs record as known
};

// The classes of findings, in the order the report gives them.
enum class FindingClass { DocumentError, DocumentsDisagree, ToolkitAccepts, ToolkitRejects };
const char* to_string(FindingClass c);  // "document error", ...
const char* finding_class_id(FindingClass c);  // "document-error", ...

// A contradicted statement, or an undocumented acceptance, with the documents' words and what
// ptxas did, over how many forms and on which targets.
struct Finding {
  std::string id;  // stable: class/what/subject[/kind]; known_discrepancies name it
  FindingClass cls = FindingClass::DocumentError;
  bool undocumented = false;  // ToolkitAccepts: what no document lists (rather than forbids)
  std::string subject;        // the rule, block, example, claim or requirement it is about
  std::string words, source;  // the documents' words, and where
  std::string observed;       // what ptxas did (its first message line, if it said something)
  std::vector<std::string> targets;
  std::size_t forms = 0;
  std::string example;  // one form it covers, as assembled
  // Its extent: every form it holds for, collapsed into ranges (judge/form_ranges.hpp); where its
  // judge says which questions could have given it, how many were asked (0: not said; each form
  // with its mutation one) and the targets asked where it does not hold (the bound where it stops).
  std::vector<std::string> form_ranges{};
  std::size_t asked = 0;
  std::vector<std::string> not_on{};
  const KnownDiscrepancy* known = nullptr;
  QuestionKind question = QuestionKind::GrammarForms;  // the kind of question that found it
  // Whether it fails the audit: a contradiction between ptxas and the documents the specs do not expect.
  bool fails() const { return !known && !undocumented && cls != FindingClass::DocumentsDisagree; }
};

// A statement of the documents and its verdict.
struct StatementVerdict {
  std::string id, kind, family;  // kind: rule, syntax, example, register-count, target-version, toolkit-version, negative-space
  std::string words, source;
  Verdict verdict = Verdict::NotCheckable;
  std::string evidence;
  std::size_t forms = 0;
};

// How many combinations of a block fall in a class, and how ptxas took them per target.
struct GrammarCount {
  std::string block, family, document;
  DocClass doc = DocClass::Undocumented;
  std::size_t forms = 0;
  std::map<std::string, std::size_t> accepted;  // per target
};

// The negative space of a block, per kind of mutation and what the documents make of it.
struct MutationCount {
  std::string block, kind;
  DocClass expected = DocClass::Undocumented;
  std::size_t forms = 0, accepted = 0, rejected = 0;
};

struct Audit {
  std::string ptxas_version, cuda_release;
  PtxVersion toolkit_ptx;
  std::vector<std::string> targets;        // the suite's targets this toolkit knows (targets.yaml's order)
  std::vector<std::string> ptxas_targets;  // every sm_* target ptxas lists, in its order
  std::vector<Document> documents;         // the documents the specs cite (specs/documents.yaml)
  std::size_t probes = 0;
  std::vector<Finding> findings;
  std::vector<StatementVerdict> statements;
  std::vector<RequirementVerdict> requirements;
  std::vector<FormVerdict> forms;
  std::vector<GrammarCount> grammar;
  std::vector<MutationCount> negative_space;
  std::vector<QualifierOrderSet> qualifier_orders;  // per block, the orders ptxas accepts (judge/qualifier_orders.hpp)
  std::vector<QuestionCount> coverage;  // per kind of question: asked, and the findings it gave
  std::vector<SentenceCount> sentences;  // per section of specs/sentences.yaml: how many sentences ptxas judged
  std::vector<BlockCoverage> block_coverage;  // per syntax block and kind: of which forms, how the rest
  std::vector<std::string> errors;  // "what on target: how ptxas failed" (no verdict)
  std::vector<const KnownDiscrepancy*> unused_known;  // recorded, but no longer observed
  int contradictions() const;  // findings that fail the audit (Finding::fails)
};

// The audit of the plan, given a verdict per probe (plan.probes order).
Audit judge_audit(const Suite& suite, const AuditPlan& plan, const std::vector<ProbeVerdict>& verdicts);

// The class (from specs/diagnostics.yaml) a ptxas message falls in, or "" if none.
std::string classify_diagnostic(const SpecSet& specs, const std::string& message);

}  // namespace ptxcts

// What the audit asks ptxas, as probes (assemble/probe_assembly.hpp): one tiny entry per question.
// - every combination of every syntax block of the documents, on every target of the toolkit;
// - the negative space around every documented form (judge/negative_space.hpp), on its first target;
//   the rest of the space (other values, operand forms, address modes and widths, every register
//   count) around the head of each class of forms the documents' rules give the same verdicts
//   (judge/form_classes.hpp), and a seeded sample of it on the class's other forms; a sample of the
//   block's representative's (its first form's) on every other target that supports the form;
//   every element type on every shape and matrix;
// - every example of the documents, as written, on the targets its instruction is documented for
//   (every target where its instruction is in no variant), at the toolkit's PTX ISA version, or at
//   the newest version that spells it so where it is written as older versions are;
// - every register count a document states;
// - every documented minimum PTX ISA version, at it and one below (and, where the answers
//   disagree with the documents, every version: judge/version_ladder.hpp);
// - the first PTX ISA version of every target, and the toolkit's own PTX ISA version;
// - the specs' hand-listed invalid forms and spellings, each on its target.
// Each subject keeps the indices of its probes; judge/audit.hpp turns the verdicts into claims.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assemble/probe_assembly.hpp"
#include "assemble/toolchain.hpp"
#include "judge/form_classes.hpp"
#include "judge/negative_space.hpp"
#include "judge/qualifier_orders.hpp"
#include "plan/suite.hpp"
#include "spec/grammar.hpp"

namespace ptxcts {

struct OnTarget {
  std::string target;
  std::size_t probe = 0;  // index into AuditPlan::probes
};

// One rung of a PTX ISA version ladder (judge/version_ladder.hpp): the probe at one version.
struct VersionRung {
  PtxVersion version;
  OnTarget on;
};

struct GrammarSubject {
  ClassifiedCombination cc;
  std::string instruction;                  // as assembled
  std::vector<OnTarget> on;                 // every target
};

// How many questions of each kind of a block's representative are asked again on every other
// target supporting it: enough to show that the verdicts do not depend on the target, without
// multiplying the audit's cost by the number of targets (23 for ldmatrix on ptxas 13.0).
inline constexpr int kTargetSample = 2;

// A mutation, shared: a question of a representative asked again on other targets is one Mutation
// (its text, shape and words made once), not a copy per target.
using SharedMutation = std::shared_ptr<const Mutation>;
inline SharedMutation share(Mutation m) { return std::make_shared<const Mutation>(std::move(m)); }

struct MutationSubject {
  std::size_t of = 0;  // index into AuditPlan::grammar: the documented form it mutates
  SharedMutation m;    // never null
  std::string instruction;
  OnTarget on;
  // false: a question of the block's representative asked again on another target that supports
  // the form (judge/target_agreement.hpp compares the verdicts), not counted twice as a question.
  bool home = true;
  // Asked to check that a class of forms takes its head's verdicts (judge/form_classes.hpp): the
  // index of the class in AuditPlan::form_classes; none for the questions a form asks for itself.
  std::optional<std::size_t> equivalence{};
  // The kind of question it asks: its mutation's, or TargetAgreement where asked again elsewhere.
  QuestionKind question() const { return home ? question_of(*m) : QuestionKind::TargetAgreement; }
};

// An example is asked as an example: its own text, on the targets (and at a PTX ISA version) its
// instruction is documented for. Whether a syntax block spells it is another statement (`doc`,
// `blocks`): where none does, the documents disagree, whatever ptxas says.
struct ExampleSubject {
  const DocExample* example = nullptr;
  DocClass doc = DocClass::Undocumented;  // of its first instruction under test, as the grammar spells it
  // Its instruction: the documented form it spells, or the one with the same qualifiers in another
  // order (or without a qualifier the documents leave out below a version); nullptr: none.
  const Instance* instance = nullptr;
  std::vector<const GrammarRule*> forbidden_by;
  std::vector<const GrammarBlock*> blocks;    // the syntax blocks that spell its instruction
  std::string documented_text{};              // its instruction as a block spells it ("" : none)
  const VersionSpelling* spelling = nullptr;  // written as the documents spell it below spelling->from
  PtxVersion version{};                       // the PTX ISA version it is asked at
  std::vector<OnTarget> on;
  bool too_new = false;  // it spells a form newer than the toolkit's PTX ISA: not asked
};

struct RegisterClaimSubject {
  const RegisterClaim* claim = nullptr;
  const Instance* instance = nullptr;
  int spec_registers = 0;  // what the spec's variant gives the operand
  std::string instruction;
  std::optional<OnTarget> on;  // none: no instance selected, or no target of this toolkit supports it
};

// A register minimum's variant (spec RegisterMinimum): its first form, on the first target of this
// toolkit that supports it, compiled in full (-arch the target) in an entry allowed one register
// fewer than the minimum (`below`, which the documents say cannot compile) and the minimum (`at`).
struct RegisterMinimumSubject {
  const RegisterMinimum* minimum = nullptr;
  std::string variant;
  std::string instruction;  // "" where no form or no target
  std::optional<OnTarget> below, at;
};

struct VersionSubject {
  std::size_t of = 0;  // index into AuditPlan::grammar
  PtxVersion documented;
  std::string why;  // the requirement's text and source
  std::optional<OnTarget> at, below;
  PtxVersion below_version;
  std::vector<VersionRung> ladder{};  // the second round, where at or below disagrees: every version
};

struct TargetVersionSubject {
  const TargetInfo* target = nullptr;
  std::optional<OnTarget> at, below;  // below: the version before the documented first one
  PtxVersion below_version;
  std::vector<VersionRung> ladder{};  // the second round, where at or below disagrees: every version
};

struct ToolkitVersionSubject {
  PtxVersion documented;  // targets.yaml toolkits: the PTX ISA version of this release (only where listed)
  std::optional<OnTarget> at, above;
  PtxVersion above_version;
};

struct FormSubject {
  const AuditForm* form = nullptr;
  std::string instruction;
  std::optional<OnTarget> on;  // none: the toolkit does not know the form's target
  std::vector<VersionRung> ladder{};  // the second round, for a form about versions: every version
};

struct AuditPlan {
  std::string ptxas_version, cuda_release;
  PtxVersion toolkit_ptx;            // the newest PTX ISA version this ptxas speaks
  std::string toolkit_ptx_read_by;   // how the binary told it ("" : from targets.yaml, a stand-in)
  std::vector<std::string> targets;  // the real targets this ptxas knows, in targets.yaml's order
  std::vector<std::string> ptxas_targets;  // every sm_* target ptxas lists (targets.yaml's or not)
  std::vector<Probe> probes;
  std::vector<GrammarSubject> grammar;
  std::vector<MutationSubject> mutations;
  // The documented forms in classes per part of the wider negative space: each class's head asked
  // in full, a seeded sample of its members to check the rest take the same verdicts.
  std::vector<FormClass> form_classes;
  std::vector<ExampleSubject> examples;
  std::vector<RegisterClaimSubject> register_claims;
  std::vector<RegisterMinimumSubject> register_minimums;
  std::vector<VersionSubject> versions;
  std::vector<TargetVersionSubject> target_versions;
  std::optional<ToolkitVersionSubject> toolkit_version;
  std::vector<FormSubject> forms;
  // Per documented form, the orders of its qualifiers asked (judge/qualifier_orders.hpp), each a mutation above.
  std::vector<OrderSearch> order_searches;
};

// The plan for the suite's specs and this toolkit. Throws std::runtime_error if targets.yaml does
// not say which PTX ISA version the toolkit speaks.
// `threads` make the documented forms' negative spaces (0: one per processor); the plan is the same
// whatever their number.
AuditPlan plan_audit(const Suite& suite, const Toolchain& tc, int threads = 0);

}  // namespace ptxcts

// The spec model: what specs/*.yaml say, validated and typed. Nothing here knows a particular
// instruction; every variant-specific fact comes from the YAML.
#pragma once

#include <any>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/formula.hpp"
#include "spec/grammar_model.hpp"
#include "spec/manual_formula.hpp"
#include "spec/ptx_version.hpp"
#include "spec/sentence_model.hpp"

namespace ptxcts {

// A set of targets as the manual writes it: a union of items, each ">= sm_XY" (every target of
// that architecture or later, any suffix), "<= sm_XY" (that architecture or earlier: the manual's
// "sm_75 or below"), "sm_XYa" (exactly that target) or "sm_XYf+" (that family-specific target or
// higher in the same family, and the arch-specific targets among them).
struct TargetSetItem {
  enum class Kind { AtLeast, AtMost, Exact, FamilyFrom } kind = Kind::Exact;
  int arch = 0;
  std::string name;
};

struct TargetSet {
  std::vector<TargetSetItem> items;
  std::string text;  // as written, for messages and reports
};

struct Requirement {
  std::optional<PtxVersion> ptx;
  std::optional<TargetSet> targets;
  std::string source;
};

// One value of a qualifier (".x2", ".trans", "" for absent) and what choosing it implies.
struct QualifierOption {
  std::string text;
  std::vector<std::pair<std::string, std::int64_t>> set;  // variables bound for formulas
  std::string space;                                      // state space: "generic" / "shared" / "global"
  std::string fragment;                                   // selects an alternative fragment layout
  Requirement requires_;                                  // extra requirement of this value
  SourceLocation where;
};

struct QualifierAxis {
  std::string name;
  std::vector<QualifierOption> options;
};

struct Exclusion {
  std::map<std::string, std::string> when;  // axis name (or "address_width") -> option text
  std::string reason;
};

// Which lanes supply row addresses, and for which matrix and row.
struct AddressLanes {
  Formula active, matrix, row;
};

// Where element i of register r of a lane sits in the matrices.
struct FragmentLayout {
  Formula matrix, row, col;
};

// A property of an instance that is either a qualifier's value (the axis named) or fixed by the
// variant ("f16", ".row").
struct AxisOrFixed {
  std::string axis, fixed;
};

// A variant's semantics block of a kind's own ('wmma:', 'mma:'), read in the kind's room
// (spec/kind_blocks.hpp's KindOperation::read): spec/ carries it and asks it only what is true of
// every kind; the kind reads its own type back (Variant::semantics_as).
struct VariantSemantics {
  virtual ~VariantSemantics() = default;
  // The register count formula of operand d, a, b or c of an operation that multiplies; null if none.
  virtual const Formula* operand_registers(std::string_view /*operand*/) const { return nullptr; }
  // Why a result of this form cannot be checked though its fragments are given ("": it can): the
  // documents' words it would need are not in the specs (mma's block scaling).
  virtual std::string unchecked() const { return {}; }
};

struct Variant {
  std::string name, family;
  // Its 'operation': the word of one of the kinds' operations (spec/kind_blocks.hpp's KindOperation),
  // and what that operation is: with an address ('address_widths'), or operands d, a, b and c.
  std::string operation;
  bool addressed = true, multiplies_operands = false;
  std::string syntax;  // with {axis}, {regs}, {addr} placeholders
  std::vector<ExtraOperand> operands;  // 'operands': placeholders beyond the operation's own (grammar_model.hpp)
  Requirement requires_;
  std::vector<QualifierAxis> axes;
  std::vector<int> address_widths;  // empty for moves (no address)
  std::vector<Exclusion> exclusions;
  Formula registers;
  // The semantics: absent for variants specified so far by syntax and requirements only.
  bool has_layout = false;
  int rows = 0, cols = 0, element_bits = 0;
  // A load that widens: each element takes memory_bits in memory (packed, least significant first)
  // and element_bits in the register, sign-extended where widen_signed (ldmatrix .s8.s4). 0: the same.
  int memory_bits = 0;
  bool widen_signed = false;
  // A row in memory wider than its elements: the rest is padding, never read (ldmatrix
  // .b6x16_p32: 16 6-bit elements in 12 bytes of a 16-byte row). 0: the elements alone.
  int padded_row_bytes = 0;
  int row_alignment = 0;
  AddressLanes address_lanes;
  FragmentLayout fragment;
  std::map<std::string, FragmentLayout> fragments;  // alternatives (e.g. "trans")
  // Or the semantics in a block of its kind's own, read by the kind (null: none given).
  std::shared_ptr<const VariantSemantics> semantics;
  SourceLocation where;

  // The kind's own semantics block, as the kind's type T (null: none, or another type).
  template <class T>
  const T* semantics_as() const {
    return dynamic_cast<const T*>(semantics.get());
  }
  // Operands d, a, b and c, and no address.
  bool multiplies() const { return multiplies_operands; }
  // semantics given, so a result can be checked
  bool runnable() const { return has_layout || (semantics && semantics->unchecked().empty()); }
  int memory_element_bits() const { return memory_bits ? memory_bits : element_bits; }
  int element_row_bytes() const { return (cols * memory_element_bits() + 7) / 8; }  // the row's elements
  int row_bytes() const { return padded_row_bytes ? padded_row_bytes : element_row_bytes(); }
  int elements_per_register() const { return 32 / element_bits; }
};

// composition: the instructions of `steps` (instances, by mnemonic) in one kernel, as the documents
// say they compose (ldmatrix feeding mma, stmatrix or movmatrix taking its D); every case must pass.
enum class ClaimCheckKind { Cases, Roundtrip, Requirements, Composition };

// cases: what the GPU does if the claim holds: pass, fail, fault (a device error), or observe
// (no prediction: the claim says the behaviour is undefined; what happened is recorded)
enum class Expect { Pass, Fail, Fault, Observe };
const char* to_string(Expect e);
// The spec's word; throws std::invalid_argument "expected 'pass', 'fail', 'fault' or 'observe' but found 'X'".
Expect expect_from_string(const std::string& s);

struct ClaimCheck {
  ClaimCheckKind kind = ClaimCheckKind::Cases;
  std::string variant;                                    // cases, requirements
  std::map<std::string, std::vector<std::string>> where;  // cases: axis -> allowed option texts
  std::vector<std::string> cases;                         // cases: empty = every case
  Expect expect = Expect::Pass;                           // cases
  // cases with expect fail or fault: cases of the same kernels that must pass for the predicted
  // failure to mean anything (a device that fails everything confirms nothing)
  std::vector<std::string> controls;
  std::string load, store;         // roundtrip
  std::vector<std::string> steps;  // composition: instance mnemonics, in kernel order
};

struct Claim {
  std::string id, text, source, note, family;
  Citation cite;  // its `document` ("manual" unless it names another) and `source`
  ClaimCheck check;
  // The text is the suite's reading of what the documents give only as figures (a hypothesis the
  // cases judge): where the GPU gets the rest of the family right, wrong values contradict it, a
  // finding about that reading, its failing cases known (the differences say what the GPU did).
  // Cases that must pass only.
  bool hypothesis = false;
  SourceLocation where;
};

enum class DataKind { Unique, Random };
enum class RowPlacement { Contiguous, Pitch, Scattered };

// A form that is not a documented variant, assembled to see what the toolkit does with it:
// a documented-invalid form (must be rejected, for the documented reason) or an undocumented
// spelling seen in the wild (an observation either way).
struct AuditForm {
  enum class Kind { Invalid, Spelling } kind = Kind::Invalid;
  std::string name, family, text;  // text with {regs} and {addr} (or {dst}, {src}; or {d}, {a}, {b}, {c})
  int registers = 1, address_width = 64;
  std::map<std::string, int> operand_registers;  // wmma.mma forms: registers of d, a, b, c
  std::string target;
  std::optional<PtxVersion> ptx;  // default: what the target and toolkit allow
  std::string diagnostic;         // invalid: the class of ptxas message expected
  std::string reason, source;
  SourceLocation where;
};

// A known documentation error or toolkit deviation: the audit still reports it, but it does not
// fail the audit. It names a variant and target (and what ptxas does there), or an invalid form.
struct KnownDiscrepancy {
  std::string variant, target, form;
  std::string finding;  // or a finding of the audit, by its id (judge/audit.hpp's Finding::id)
  bool observed_accepted = false;
  std::string source, note;
  SourceLocation where;
};

// A class of assembler diagnostic (wrong target, PTX version too old, ...), recognised in ptxas's
// messages by patterns.
struct DiagnosticClass {
  std::string name, description;
  std::vector<std::string> patterns;  // ECMAScript regular expressions
};

// Fault cases break a documented rule on purpose; what the GPU does is recorded, never failed.
// MinimalAlignment*: not a broken rule but its edge (wmma): rows aligned exactly as the manual
// requires and no more; isolated like faults, because a GPU that wants more faults.
enum class Fault { None, Misaligned, OutsideShared, MisalignedStride, MinimalAlignmentAddress, MinimalAlignmentStride };

// Where the documents leave a case's behaviour undefined on some targets ("For .target sm_75 or
// below, all threads must contain valid addresses. Otherwise, the behavior is undefined."): there the
// case runs isolated, like a fault case, and what the GPU does is an observation, never a failure or
// a finding (cases.yaml 'undefined').
struct UndefinedOn {
  TargetSet targets;                  // the targets (of the code that runs) the words are about
  std::vector<std::string> families;  // the instructions whose section says it; empty: every family
  std::string words, source;          // the documents' sentence, and where it stands
  // What the fake device runner does there, the worst the words still allow: fault, garbage (other
  // values than later targets give) or hang (no result within the case's limit).
  std::string fake_device;
  SourceLocation where;
};

struct CaseSpec {
  std::string name, description;
  Fault fault = Fault::None;
  std::vector<UndefinedOn> undefined;  // targets on which the documents leave this case undefined
  std::map<std::string, std::vector<std::string>> only;  // YAML 'where': only instances with these qualifier values
  DataKind data = DataKind::Unique;
  RowPlacement rows = RowPlacement::Contiguous;
  int pitch = 0;
  std::uint64_t seed = 0;
  bool poison_unused = false;
  // Asked only by the claims that name it (check.cases): a case about another question than where the
  // elements go (mma's arithmetic), whose failure says nothing of a layout claim resting on every case.
  bool named_only = false;
  // The cases.yaml block of a kind that it was read from ("" for the top-level cases): each kind
  // takes the cases of its own block, or the top-level ones; and what that kind's reader made of
  // the case's own fields (spec/kind_blocks.hpp), which only the kind reads.
  std::string block;
  std::any options;
  SourceLocation where;  // of its 'rows' (a kind's block: its reader says)
};

// A wrong device (the fake device runner's modes) that the suite's checks must catch: every
// non-fault case must fail on it, except the cases named here, for the reason given
// (cases.yaml 'mutants').
struct MutantException {
  std::string mutant;                 // echo, zero, shuffled, off-by-one, stale
  std::vector<std::string> variants;  // variant names; a trailing '*' matches any ending
  bool alone = false;                 // only kernels of that one instruction
  std::vector<std::string> cases;     // empty: every case
  std::string reason;
  SourceLocation where;
};

struct CaseSet {
  std::vector<std::string> mutants;  // the wrong devices the checks are tried against
  std::vector<MutantException> mutant_exceptions;
  int warps = 4, tile_bytes = 4096, regions = 2;
  // Each kind's block's settings (spec/kind_blocks.hpp), by the block's key; only the kind reads them.
  std::map<std::string, std::any> kind_settings;
  std::vector<CaseSpec> cases;  // the top-level cases, then each kind block's, in the kinds' order
};

struct TargetInfo {
  std::string name;
  int arch = 0;
  std::string suffix;  // "", "a", "f"
  PtxVersion ptx;      // first PTX ISA version that knows it
  int family = 0;      // 0: none given
};

struct TargetCatalog {
  std::vector<PtxVersion> ptx_versions;
  std::map<std::string, PtxVersion> toolkits;  // CUDA release -> PTX ISA version
  std::vector<TargetInfo> targets;

  const TargetInfo* find(const std::string& name) const;
  bool contains(const TargetSet& set, const TargetInfo& t) const;
  std::optional<PtxVersion> previous(PtxVersion v) const;  // the version before v, if known
};

// The documents' words that leave case `c` undefined for an instruction of `family` assembled for
// target `t` (null: its behaviour is defined there).
const UndefinedOn* undefined_on(const TargetCatalog& targets, const CaseSpec& c, const std::string& family,
                                const TargetInfo& t);

// What a family's instructions are expected to become (the family file's `sass:`): the SASS mnemonics
// of the opcodes that implement one operation, a claim with its source. `assumed`: no document says
// it; the suite assumes it (the source says on what grounds).
struct SassExpectation {
  std::string family;
  std::string operation_text;          // as the spec spells it: "load", "wmma-mma"
  std::vector<std::string> mnemonics;  // "LDSM", "HMMA": an opcode matches by its text before the first '.'
  std::string source;
  bool assumed = false;
  SourceLocation where;
};

struct SpecSet {
  TargetCatalog targets;
  CaseSet cases;
  std::vector<std::string> families;  // as the family files name them, in file order
  std::vector<Variant> variants;
  std::vector<Claim> claims;
  std::vector<AuditForm> forms;
  std::vector<GrammarBlock> grammar;
  std::vector<GrammarRule> rules;
  std::vector<DocExample> examples;
  std::vector<RegisterClaim> register_claims;
  std::vector<RegisterMinimum> register_minimums;
  std::vector<VersionSpelling> version_spellings;
  std::vector<KnownDiscrepancy> known_discrepancies;
  std::vector<DiagnosticClass> diagnostics;
  std::vector<SassExpectation> sass;
  // Each kind's blocks of the family files (spec/kind_blocks.hpp's KindFamilyBlock), by the block's
  // key; only the kind reads them.
  std::map<std::string, std::any> family_blocks;
  std::vector<Document> documents;  // specs/documents.yaml: what `document:` names
  std::vector<SentenceSection> sentences;  // specs/sentences.yaml: every sentence of the sections, and what judges it

  const Variant* find_variant(const std::string& name) const;
  const CaseSpec* find_case(const std::string& name) const;
  const DiagnosticClass* find_diagnostic(const std::string& name) const;
  const SassExpectation* find_sass(const std::string& family, const std::string& operation) const;
  const Document* find_document(const std::string& id) const;
};

}  // namespace ptxcts

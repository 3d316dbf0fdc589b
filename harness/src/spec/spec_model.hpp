// The spec model: what specs/*.yaml say, validated and typed. Nothing here knows a particular
// instruction; every variant-specific fact comes from the YAML.
#pragma once

#include <any>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/formula.hpp"
#include "spec/grammar_model.hpp"
#include "spec/manual_formula.hpp"
#include "spec/ptx_version.hpp"

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

// memory to registers, registers to memory, registers to registers; the WMMA instructions,
// whose fragments have no specified register layout (specs/wmma.yaml says how they are checked);
// and mma.sync, whose fragments the manual lays out lane by lane (specs/mma.yaml).
enum class Operation { Load, Store, Move, WmmaLoad, WmmaStore, WmmaMma, Mma };

// A property of a wmma instance that is either a qualifier's value (the axis named) or fixed by the
// variant ("f16", ".row").
struct AxisOrFixed {
  std::string axis, fixed;
};

// wmma.load / wmma.store: which matrix, its shape and element type, and its layout in memory.
struct WmmaMatrix {
  std::string matrix;  // "a", "b", "c", "d"
  Formula rows, cols;
  AxisOrFixed element, layout;
};

// One operand of wmma.mma.
struct WmmaOperand {
  AxisOrFixed element, layout;  // layout: a and b only
  Formula registers;
};

struct WmmaMma {
  WmmaOperand a, b, c, d;
  std::string saturate;  // the qualifier whose ".satfinite" clamps ("" if none)
  std::string rounding;  // the qualifier giving the rounding mode of .f64 ("" if none)
  AxisOrFixed product;   // "multiply", or the qualifier with .xor.popc / .and.popc
};

// A row or column formula of an mma fragment: the manual's printed text, and what the suite
// evaluates: the same text, or (`why` says why) a reading of it where the printed text cannot be
// right. The audit reports every reading as a finding against the manual's text.
struct MmaFormula {
  std::string manual;          // as printed
  ManualFormula formula;       // evaluated: the manual's text, or the reading
  std::string reading, why;    // "" where the printed text is what the suite evaluates
  SourceLocation where;
};

// Where each element of one lane's fragment sits: row and column (the manual's formulas over
// %laneid, i and the block's definitions).
struct MmaLayout {
  std::string source;  // section and figure
  MmaFormula row, col;
  SourceLocation where;
};

// One operand of mma: its element type, its registers, and its layout (one, or one per value of
// the qualifier `layout_by`). d may share c's layouts ("Accumulators (C or D)").
struct MmaOperand {
  AxisOrFixed element;
  Formula registers;
  int container_bits = 0;  // an element's room in the register where wider than the element
  Formula container_shift;  // the element's lowest bit in its container (empty: 0)
  std::string layout_by;
  std::map<std::string, MmaLayout> layouts;  // by the value of layout_by ("" when there is one)
  std::string layout_of;                     // "c": the layouts are c's
};

struct MmaSpec {
  int m = 0, n = 0, k = 0;
  // m8n8k4 .f16: a warp computes several products; which one a lane takes part in.
  int computations = 1;
  ManualFormula computation;  // over laneid; empty when there is one
  std::string computations_source;
  std::vector<std::pair<std::string, ManualFormula>> let;  // groupID, threadID_in_group
  MmaOperand a, b, c, d;
  std::string saturate;  // the qualifier whose ".satfinite" clamps ("" if none)
  std::string rounding;  // the qualifier giving .f64's rounding mode ("" if none: .rn)
  AxisOrFixed product;   // "multiply", or the qualifier with .xor.popc / .and.popc
};

// What a sparse fragment section (mma.sp) says of an operand it gives no formula for: the manual's
// cross-reference to a dense section ("the same as in case of ..."), or only figures.
struct SparseOperandText {
  std::string same_as;               // "9.7.14.5.8 Matrix Fragments for ..." ("" where pictures only)
  std::vector<std::string> figures;  // "Figure 121", ... (pictures only)
  std::string words;                 // the manual's sentence
  SourceLocation where;
};

// One section 9.7.14.6.2.N (mma.sp, sparse A): its formula block for A, which gives each element a
// row and a window of columns [firstcol, lastcol] (where in the window, the metadata says), and what
// the section says of B, C/D and the metadata. Not a variant: nothing of it is run.
struct SparseFragmentSection {
  std::string name, section, family;  // section: "9.7.14.6.2.1 Matrix Fragments for sparse mma..."
  int m = 0, n = 0, k = 0;
  // 9.7.14.6.1's granularity for these types: `nonzero` of each `chunk` consecutive elements of a row
  int nonzero = 0, chunk = 0;
  std::string granularity_source;
  // A: its element types, registers, and the table's "N non-zero elements out of W consecutive"
  std::string source, register_words;
  std::vector<std::string> types;  // "f16", "bf16"
  int registers = 0, per_register = 0, consecutive = 0;
  std::vector<std::pair<std::string, ManualFormula>> let;  // groupID, threadID_in_group
  ManualFormula row, firstcol, lastcol;                    // the manual's text (lastcol over firstcol)
  std::string col_note;                                    // "[firstcol ... lastcol] // As per ..."
  SparseOperandText b, cd, metadata;
  SourceLocation where;
  int elements() const { return registers * per_register; }  // of one lane
};

struct Variant {
  std::string name, family;
  Operation operation = Operation::Load;
  std::string syntax;  // with {axis}, {regs}, {addr} placeholders
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
  std::optional<WmmaMatrix> wmma_matrix;            // wmma.load / wmma.store
  std::optional<WmmaMma> wmma_mma;                  // wmma.mma
  std::optional<MmaSpec> mma;                       // mma.sync
  SourceLocation where;

  // The spec format's own question: is the semantics a 'wmma:' block, not a fragment layout?
  bool semantics_in_wmma_block() const {
    return operation == Operation::WmmaLoad || operation == Operation::WmmaStore || operation == Operation::WmmaMma;
  }
  // Operands d, a, b and c, and no address (wmma.mma, mma).
  bool multiplies() const { return operation == Operation::WmmaMma || operation == Operation::Mma; }
  bool runnable() const {
    return has_layout || wmma_matrix || wmma_mma || mma;
  }  // semantics given, so a result can be checked
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
  Operation operation = Operation::Load;
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
  std::vector<VersionSpelling> version_spellings;
  std::vector<KnownDiscrepancy> known_discrepancies;
  std::vector<DiagnosticClass> diagnostics;
  std::vector<SassExpectation> sass;
  std::vector<SparseFragmentSection> sparse_fragments;  // mma.sp's fragment sections (not run)
  std::vector<Document> documents;                      // specs/documents.yaml: what `document:` names

  const Variant* find_variant(const std::string& name) const;
  const CaseSpec* find_case(const std::string& name) const;
  const DiagnosticClass* find_diagnostic(const std::string& name) const;
  const SassExpectation* find_sass(const std::string& family, Operation op) const;
  const Document* find_document(const std::string& id) const;
};

}  // namespace ptxcts

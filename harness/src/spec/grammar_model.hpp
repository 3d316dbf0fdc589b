// The documents' grammar as data (specs/<family>.yaml `grammar:`, `rules:`, `examples:`,
// `register_claims:`, `version_spellings:`, `address_words:`): each syntax block with the values its positions take as
// the document spells them, each rule of the document as the combinations it forbids, each example
// verbatim, each register count a table states, each spelling that changes with the PTX ISA version,
// what each instruction's section says of its address and state spaces. The audit enumerates and judges them (judge/); nothing here says
// what ptxas does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/formula.hpp"
#include "spec/ptx_version.hpp"
#include "spec/source_location.hpp"

namespace ptxcts {

// Where a statement comes from: the document (an id of specs/documents.yaml, e.g. "manual") and
// its section and version, as the spec cites them; `document_at` is where the spec names the document.
struct Citation {
  std::string document, source;
  SourceLocation document_at;
};

// A document the specs cite, by its public identity (specs/documents.yaml): the reports print its
// title, author and address where a statement names its id.
struct Document {
  std::string id, title, author, address, language, what, translation_of;
  SourceLocation where;
};

struct GrammarValue {
  std::string text;  // "" = an optional qualifier left out
  std::vector<std::pair<std::string, std::int64_t>> set;
};

struct GrammarPosition {
  std::string name;
  std::vector<GrammarValue> values;  // in the document's order
  bool optional() const {
    for (auto const& v : values)
      if (v.text.empty()) return true;
    return false;
  }
};

// One syntax block of a document: `syntax` with a {placeholder} per position and the operand
// placeholders ({regs}, {addr}, {dst}, {src}, {d}, {a}, {b}, {c}; a value may hold {stride}).
// An instruction's own section, quoted: the words, where they are, and why they are not verbatim in
// the reference text ("" : they are).
struct SectionQuote {
  std::string words;
  Citation cite;
  std::string paraphrase;
};

// What an instruction's own section says of its address operand and of its state spaces
// (`address_words:` of a family spec, one entry per mnemonic), copied onto each syntax block whose
// syntax begins with the mnemonic, so that the audit's address and state-space questions cite the
// section of the instruction they ask about (judge/address_words.hpp).
struct AddressWords {
  std::string mnemonic;       // "ldmatrix", "wmma.load"
  SectionQuote address;       // on the address operand p
  SectionQuote state_spaces;  // on the state spaces it may use
  std::vector<std::string> allowed;  // the state spaces it allows ("" : generic addressing)
  std::vector<std::string> unnamed;  // those it names neither way: not said
  SourceLocation where;
};

// An operand beyond an operation's own (d, a, b, c; regs, addr; dst, src), as a syntax line
// names it (`operands:` of a grammar block or a variant): mma's block scaling adds
// "scale-a-data, {byte-id-a, thread-id-a}, ...". Its placeholder in the syntax is its key
// ({scale_a}); `words` the document's name for it. Single (elements 0): one register, written
// without braces; otherwise a brace vector of `elements`. `immediates`: the documents also write
// each element as an immediate ("scaleAData, {2, 1}"), so an immediate there is a documented form.
struct ExtraOperand {
  std::string name, words, type;  // type: the register type the documents give (".b32", ".u16")
  int elements = 0;
  bool immediates = false;
  SourceLocation where{};  // its key in the spec
  bool single() const { return elements == 0; }
};

struct GrammarBlock {
  std::string id, family;
  Citation cite;
  std::string manual;  // the document's syntax line(s), verbatim
  std::string syntax;
  std::vector<GrammarPosition> positions;     // in the order they appear in `syntax`
  std::map<std::string, Formula> registers;   // vector operand ("regs", "d", ...) -> count
  std::map<std::string, std::string> types;   // register operand -> its documented register type
  std::vector<ExtraOperand> operands;         // operands beyond the operation's own, in the syntax's order
  std::size_t product() const;                // the number of combinations
  SourceLocation where, registers_where;
  std::optional<AddressWords> address_words{};  // its instruction's section on the address ({}: none)
};

// The PTX ISA versions a rule holds at (`ptx_isa: {from, below, source}`): from `from` on, below
// `below`; either may be left out. A rule without it holds at every version. `source`: where the
// documents change the rule at that version (PTX ISA 9.1's `.ue8m0` with `.scale_vec::4X`).
struct PtxRange {
  std::optional<PtxVersion> from, below;
  std::string source;
  SourceLocation where;
  bool bounded() const { return from || below; }
  bool holds_at(PtxVersion v) const { return (!from || !(v < *from)) && (!below || v < *below); }
  // Whether some version at or above `v` is in the range (a form documented from `v` on meets it).
  bool holds_from(PtxVersion v) const { return !below || v < *below; }
  bool overlaps(const PtxRange& o) const {
    return (!below || !o.from || *o.from < *below) && (!o.below || !from || *from < *o.below);
  }
};

// A rule: under `when` (position -> values, all must match), either every combination is
// forbidden, or the positions of `only` must take one of the values listed.
struct GrammarRule {
  std::string id, family, text;
  Citation cite;
  std::map<std::string, std::vector<std::string>> when, only;
  bool forbid = false;
  // The rule is stated in another section of the same document than the blocks it applies to
  // (mma.sp's ".dtype must be the same as .ctype", applied to the dense mma syntax): where it
  // forbids what a block spells, the two parts of the document disagree.
  std::string other_section;
  std::vector<std::string> blocks;  // empty: every block that has the positions it names
  PtxRange ptx{};                   // the PTX ISA versions it holds at (unbounded: every one)
  SourceLocation where;
};

// An example as a document prints it: verbatim lines (declarations and instructions); for an
// inline-asm example, how its operands were substituted and what was declared for them.
struct DocExample {
  std::string id, family, comment, text;
  Citation cite;
  std::vector<std::pair<std::string, std::string>> operands;  // "%0" -> "%r0"
  std::vector<std::string> declare;
  std::vector<std::string> instructions;  // the instruction lines under test, after substitution
  std::string body;                       // what is assembled: declare, then text (substituted)
  SourceLocation where;
};

// A spelling that depends on the PTX ISA version (`version_spellings:`): from `from` on, the
// documents write `qualifier` in the instructions whose mnemonic starts with one of `mnemonics`;
// below it they leave it out ("considered implicit in PTX ISA versions less than 6.3"). The audit
// writes each probe as the documents spell it at the probe's version (judge/version_spellings.hpp).
struct VersionSpelling {
  std::string id, family, text;  // text: the documents' sentence
  Citation cite;
  std::string qualifier;               // ".aligned"
  std::vector<std::string> mnemonics;  // "wmma.load", ...
  PtxVersion from;
  SourceLocation where;
};

// A register count a document states (a fragment table's cell, an operand sentence).
struct RegisterClaim {
  std::string id, family, text;
  Citation cite;
  std::string variant, operand;  // operand: "regs", or d/a/b/c of wmma.mma
  std::map<std::string, std::vector<std::string>> select;  // the spec's `where`: qualifier values of the variant
  int registers = 0;
  // The register type the row states ("A vector expression containing two .f16x2 registers" ->
  // ".f16x2"; "" where the spec gives none): the type the register-type questions take as
  // documented (judge/register_types.hpp). The reader checks that `text` names it.
  std::string register_type{};
  SourceLocation where;
};

// A minimum of registers per thread a document states for compiling some forms (mma's Notes: .f64 at
// .m16n8k4, .m16n8k8 and .m16n8k16 "require at least 64 registers for compilation"): each variant's
// first form, in an entry that allows one register fewer (.maxnreg), must be refused, and at the
// minimum accepted (the control: the refusal is the limit's).
struct RegisterMinimum {
  std::string id, family, text;
  Citation cite;
  std::vector<std::string> variants;
  int registers = 0;
  SourceLocation where;
};

}  // namespace ptxcts

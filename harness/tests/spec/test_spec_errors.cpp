// Spec validation: one test per kind of spec error. Each input is the real specs/*.yaml with one
// small textual defect, and each test asserts the loader's exact message, file:line:column included.
// Where the position given is not the ideal one (yaml-cpp marks some nodes elsewhere), the test
// asserts the position given today and says what the ideal would be and why it is not given: a change
// in either direction (a better mark, or a worse one) fails it and is then a decision to make.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "kinds/kinds.hpp"
#include "spec/spec_loader.hpp"

namespace ptxcts {
namespace {

std::string read_source(const std::string& relative) {
  // A frozen copy of the specs (tests/data/specs-base), so that editing specs/ never moves
  // the positions these tests expect.
  std::ifstream in(std::string(PTXCTS_TEST_DATA) + "/specs-base/" + relative.substr(relative.find('/') + 1),
                   std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The real spec texts, read once; each test edits its own copy. Paths are shown as "specs/NAME".
struct Specs {
  std::string targets, cases, documents, ldmatrix, stmatrix;

  Specs() {
    static const Specs* real = [] {
      auto* s = new Specs(0);
      s->targets = read_source("specs/targets.yaml");
      s->cases = read_source("specs/cases.yaml");
      s->documents = read_source("specs/documents.yaml");
      s->ldmatrix = read_source("specs/ldmatrix.yaml");
      s->stmatrix = read_source("specs/stmatrix.yaml");
      return s;
    }();
    *this = *real;
  }

  std::vector<SpecFile> files() const {
    return {{.path = "specs/targets.yaml", .text = targets},
            {.path = "specs/cases.yaml", .text = cases},
            {.path = "specs/documents.yaml", .text = documents},
            {.path = "specs/ldmatrix.yaml", .text = ldmatrix},
            {.path = "specs/stmatrix.yaml", .text = stmatrix}};
  }

 private:
  explicit Specs(int) {}
};

// Replaces the one occurrence of `from` in `text` by `to`: the defect must be unambiguous.
void edit(std::string& text, std::string_view from, std::string_view to) {
  std::size_t at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "edit: '" << from << "' is not in the spec text";
    return;
  }
  if (text.find(from, at + 1) != std::string::npos) {
    ADD_FAILURE() << "edit: '" << from << "' occurs more than once in the spec text";
    return;
  }
  text.replace(at, from.size(), to);
}

// The 1-based line of `text` where `needle` first occurs (0: nowhere).
int line_in(const std::string& text, std::string_view needle) {
  const std::size_t at = text.find(needle);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

// The text between `begin` (exclusive) and `end` (exclusive).
std::string between(const std::string& text, std::string_view begin, std::string_view end) {
  std::size_t a = text.find(begin);
  std::size_t b = a == std::string::npos ? a : text.find(end, a + begin.size());
  if (b == std::string::npos) {
    ADD_FAILURE() << "between: no '" << begin << "' ... '" << end << "'";
    return {};
  }
  return text.substr(a + begin.size(), b - a - begin.size());
}

// What loading says: the SpecError's full message, or a note that something else happened.
std::string load_error(const std::vector<SpecFile>& files) {
  try {
    load_specs(files);
  } catch (const SpecError& e) { return e.what(); } catch (const std::exception& e) {
    return std::string("(not a SpecError) ") + e.what();
  }
  return "(no error)";
}
std::string load_error(const Specs& s) { return load_error(s.files()); }

// ---------------------------------------------------------------------------------------------
// The real specs load.

TEST(SpecErrors, RealSpecsLoad) {
  Specs s;
  ASSERT_EQ(load_error(s), "(no error)");
  SpecSet set = load_specs(s.files());
  EXPECT_EQ(set.variants.size(), 2u);
  EXPECT_EQ(set.claims.size(), 9u);
  EXPECT_EQ(set.cases.cases.size(), 6u);
}

// ---------------------------------------------------------------------------------------------
// YAML syntax.

TEST(SpecErrors, InvalidYamlMapValue) {
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "    operation: load: now\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:8:20: invalid YAML: illegal map value");
}

// yaml-cpp names the token where it gave up (the next key), not the end of the list.
TEST(SpecErrors, InvalidYamlUnclosedFlowList) {
  Specs s;
  edit(s.targets, "\"9.0\"]", "\"9.0\"");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:13:1: invalid YAML: end of sequence flow not found");
}

TEST(SpecErrors, InvalidYamlTab) {
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "\toperation: load\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:8:1: invalid YAML: illegal tab when looking for indentation");
}

// An empty file has no position to name: the message gives the file alone.
TEST(SpecErrors, EmptyFamilyFile) {
  Specs s;
  s.ldmatrix = "# nothing here yet\n";
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml: expected a family spec (a map) but found nothing (null)");
}

// ---------------------------------------------------------------------------------------------
// Unknown keys.

TEST(SpecErrors, UnknownKeyInVariant) {
  Specs s;
  edit(s.ldmatrix, "    row_alignment: 16\n", "    row_alignment: 16\n    alignment: 16\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:35:5: unknown key 'alignment' in item 0 of 'variants'; expected one of: name, "
            "operation, syntax, requires, qualifiers, address_widths, exclude, matrix, registers, row_alignment, "
            "address_lanes, fragment, fragments, operands, wmma, mma");
}

// A variant's semantics block of another operation's kind: refused at the block, naming the
// operations whose block it is (spec/kind_blocks.hpp's KindOperation::block), as it always was.
TEST(SpecErrors, SemanticsBlockOfAnotherOperation) {
  Specs s;
  edit(s.ldmatrix, "    row_alignment: 16\n", "    row_alignment: 16\n    wmma: {}\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:35:11: 'wmma' belongs to wmma-load, wmma-store and wmma-mma variants only");
  Specs t;
  edit(t.ldmatrix, "    row_alignment: 16\n", "    row_alignment: 16\n    mma: {}\n");
  EXPECT_EQ(load_error(t), "specs/ldmatrix.yaml:35:10: 'mma' belongs to mma variants only (operation: mma)");
}

TEST(SpecErrors, UnknownKeyInQualifierValue) {
  Specs s;
  edit(s.ldmatrix, "{text: .trans, fragment: trans}", "{text: .trans, layout: trans}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:21:26: unknown key 'layout' in item 1 of values of qualifier 'trans'; expected one "
            "of: text, set, space, fragment, requires");
}

TEST(SpecErrors, UnknownKeyInTargetsYaml) {
  Specs s;
  edit(s.targets, "\ntoolkits:\n", "\ncuda_toolkits:\n");
  EXPECT_EQ(load_error(s),
            "specs/targets.yaml:13:1: unknown key 'cuda_toolkits' in targets.yaml; expected one of: ptx_isa_versions, "
            "toolkits, targets");
}

TEST(SpecErrors, UnknownKeyInTarget) {
  Specs s;
  edit(s.targets, "ptx: \"7.0\"}", "ptx: \"7.0\", sufix: a}");
  EXPECT_EQ(load_error(s),
            "specs/targets.yaml:30:44: unknown key 'sufix' in item 1 of 'targets'; expected one of: name, arch, ptx, "
            "suffix, family");
}

TEST(SpecErrors, UnknownKeyInCasesYaml) {
  Specs s;
  edit(s.cases, "regions: 2\n", "regions: 2\nlanes: 32\n");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:8:1: unknown key 'lanes' in cases.yaml; expected one of: warps, tile_bytes, regions, "
            "cases, matrix_move, wmma, mma, mutants");  // each kind's block, in the kinds' order
}

TEST(SpecErrors, UnknownKeyInCase) {
  Specs s;
  edit(s.cases, "    unused_lanes: poison", "    unused_lane: poison");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:42:5: unknown key 'unused_lane' in item 5 of 'cases'; expected one of: name, "
            "description, data, rows, seed, unused_lanes, fault, where, undefined");
}

// A case's 'undefined' (where the documents leave it undefined on some targets): each part checked.
std::string undefined_error(const std::string& targets, const std::string& families, const std::string& fake) {
  Specs s;
  edit(s.cases, "    unused_lanes: poison\n",
       "    unused_lanes: poison\n    undefined:\n      - targets: \"" + targets + "\"\n        families: [" + families +
           "]\n        words: \"Otherwise, the behavior is undefined.\"\n        source: \"PTX ISA 9.0, 9.7.14.5.15\"\n"
           "        fake_device: " + fake + "\n");
  return load_error(s);
}

TEST(SpecErrors, UndefinedOnTargetsItsPartsChecked) {
  EXPECT_EQ(undefined_error("<= sm_75", "ldmatrix", "fault"), "(no error)");
  EXPECT_EQ(undefined_error("<= sm_42", "ldmatrix", "fault"),
            "specs/cases.yaml:44:18: unknown target 'sm_42' in '<= sm_42'; expected an architecture from targets.yaml");
  EXPECT_EQ(undefined_error("<= sm_7x", "ldmatrix", "fault"),
            "specs/cases.yaml:44:18: expected '<= sm_XY' with XY a number but found '<= sm_7x'");
  EXPECT_EQ(undefined_error("<= sm_75", "ldmatrix", "crash"),
            "specs/cases.yaml:48:22: unknown fake device behaviour 'crash'; expected fault, garbage or hang");
  EXPECT_EQ(undefined_error("<= sm_75", "ldmatrx", "fault"),
            "specs/cases.yaml:44:9: case 'unique-poisoned-unused': 'undefined' names unknown family 'ldmatrx'; "
            "expected one of ldmatrix, stmatrix");
}

TEST(SpecErrors, UnknownKeyAtTopOfFamilyFile) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", "family: ldmatrix\nversion: 1\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:5:1: unknown key 'version' in a family spec; expected one of: family, definitions, "
            "variants, claims, invalid, spellings, known_discrepancies, grammar, rules, examples, register_claims, "
            "version_spellings, sass, sparse_fragments, address_words, register_minimums");
}

// A spelling that changes with the PTX ISA version (`version_spellings:`): its qualifier must be one
// the family's syntax blocks or variants write, its mnemonics the family's, its version one targets.yaml lists.
const char* kVersionSpelling =
    "family: ldmatrix\nversion_spellings:\n  - spelling: x\n    text: t\n    document: manual\n    source: s\n"
    "    qualifier: QUALIFIER\n    mnemonics: [MNEMONIC]\n    from: \"FROM\"\n";

std::string version_spelling(const std::string& qualifier, const std::string& mnemonic, const std::string& from) {
  std::string t = kVersionSpelling;
  t.replace(t.find("QUALIFIER"), 9, qualifier);
  t.replace(t.find("MNEMONIC"), 8, mnemonic);
  t.replace(t.find("FROM"), 4, from);
  return t;
}

TEST(SpecErrors, VersionSpellingOfAQualifierNoBlockWrites) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", version_spelling(".wrong", "ldmatrix", "7.8"));
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:10:16: no syntax of family 'ldmatrix' writes .wrong; expected a qualifier its "
            "syntax blocks or variants spell");
}

TEST(SpecErrors, VersionSpellingOfAnotherFamilysMnemonicOrAnUnknownVersion) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", version_spelling(".aligned", "stmatrix", "7.8"));
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:11:17: 'stmatrix' is not a mnemonic of family 'ldmatrix'");
  Specs t;
  edit(t.ldmatrix, "family: ldmatrix\n", version_spelling(".aligned", "ldmatrix", "6.6"));
  EXPECT_EQ(load_error(t), "specs/ldmatrix.yaml:12:11: PTX ISA version 6.6 is not in targets.yaml's ptx_isa_versions");
}

// What an instruction's section says of its address and state spaces (`address_words:`): each
// state space one the audit asks about (generic, .shared, ... .param), each mnemonic one a syntax
// block of the family begins with.
std::string address_words(const std::string& mnemonic, const std::string& space) {
  return "family: ldmatrix\naddress_words:\n  - mnemonic: " + mnemonic +
         "\n    address: {words: w, document: manual, source: s}\n"
         "    state_spaces: {words: w, document: manual, source: s, allowed: [generic, " +
         space + "]}\n";
}

TEST(SpecErrors, AddressWordsOfAnUnknownStateSpace) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", address_words("ldmatrix", ".shard"));
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:8:78: unknown state space '.shard'; expected one of generic, .shared, .shared::cta, "
            ".shared::cluster, .global, .local, .const, .param");
  Specs t;
  edit(t.ldmatrix, "family: ldmatrix\n", address_words("ldmatrix", "generic"));
  EXPECT_EQ(load_error(t),
            "specs/ldmatrix.yaml:8:78: state space 'generic' is listed twice (in 'allowed' and 'unnamed' together, "
            "or twice in one)");
}

TEST(SpecErrors, AddressWordsOfAMnemonicNoBlockBeginsWith) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", address_words("stmatrix", ".shared"));
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:6:15: no syntax block of family 'ldmatrix' begins with 'stmatrix' (or each has its "
            "words already); expected the mnemonic its blocks write");
}

// A family's `sass:` (the SASS mnemonics expected per operation): an operation the family's
// variants lack, a mnemonic with modifiers, one operation twice.
TEST(SpecErrors, SassExpectationOfAnOperationTheFamilyLacks) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n", "\nsass:\n  - operation: store\n    mnemonics: [STSM]\n    source: x\nclaims:\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:53:16: no variant of family 'ldmatrix' has operation 'store'; expected one its "
            "variants have");
}

TEST(SpecErrors, SassMnemonicWithModifiers) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n", "\nsass:\n  - operation: load\n    mnemonics: [LDSM.16]\n    source: x\nclaims:\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:54:17: 'LDSM.16' is not a SASS mnemonic; expected capitals and digits without "
            "modifiers, e.g. LDSM");
}

TEST(SpecErrors, SassOperationTwice) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n",
       "\nsass:\n  - operation: load\n    mnemonics: [LDSM]\n    source: x\n  - operation: load\n"
       "    mnemonics: [LDS]\n    source: y\nclaims:\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:56:16: operation 'load' is already given at specs/ldmatrix.yaml:53:5");
}

TEST(SpecErrors, UnknownKeyInClaimCheck) {
  Specs s;
  edit(s.ldmatrix, "{kind: requirements, variant: ldmatrix.m8n8.b16}",
       "{kind: requirements, variant: ldmatrix.m8n8.b16, expect: pass}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:77:61: unknown key 'expect' in 'check' of item 4 of 'claims'; expected one of: kind, "
            "variant");
}

// A claim's words are a quote of its document, or say why not (test_quoted_words checks them).
TEST(SpecErrors, ClaimWithAnEmptyParaphrase) {
  Specs s;
  edit(s.ldmatrix, "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n",
       "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n    paraphrase: \"\"\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:56:17: expected why the words are not checked verbatim ('paraphrase: <why>'), not "
            "an empty text");
}

TEST(SpecErrors, ClaimFromAnUnknownDocument) {
  Specs s;
  edit(s.ldmatrix, "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n",
       "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n    document: blog\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:56:15: unknown document 'blog'; expected an id of documents.yaml (manual, "
            "veitner-2025-ldmatrix-stmatrix, bbuf-2025-ldmatrix-stmatrix-zh, xuwh-2025-ldmatrix-notes)");
}

// specs/documents.yaml: every `document:` names one of its documents, each by its public identity.
TEST(SpecErrors, ClaimFromADocumentByANumberOfOurs) {
  Specs s;
  edit(s.ldmatrix, "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n",
       "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n    document: seed-003\n");
  EXPECT_EQ(load_error(s), fmt::format("specs/ldmatrix.yaml:{}:15: unknown document 'seed-003'; expected an id of "
                                       "documents.yaml (manual, veitner-2025-ldmatrix-stmatrix, "
                                       "bbuf-2025-ldmatrix-stmatrix-zh, xuwh-2025-ldmatrix-notes)",
                                       line_in(s.ldmatrix, "    document: seed-003")));
}

TEST(SpecErrors, DocumentWithoutTheRegistry) {
  Specs s;
  edit(s.ldmatrix, "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n",
       "contiguously in memory.\"\n    source: \"manual, ldmatrix description\"\n    document: manual\n");
  std::vector<SpecFile> files = s.files();
  std::erase_if(files, [](const SpecFile& f) { return f.path == "specs/documents.yaml"; });
  EXPECT_EQ(load_error(files),
            fmt::format("specs/ldmatrix.yaml:{}:15: unknown document 'manual'; expected an id of documents.yaml, and "
                        "no documents.yaml is among the spec files",
                        line_in(s.ldmatrix, "    document: manual")));
}

TEST(SpecErrors, DocumentIdANumberOfOurs) {
  Specs s;
  edit(s.documents, "  - id: xuwh-2025-ldmatrix-notes\n", "  - id: seed-003\n");
  EXPECT_EQ(load_error(s), fmt::format("specs/documents.yaml:{}:9: 'seed-003' is a number of ours; expected a slug of "
                                       "the document's public identity (author, year, subject), e.g. "
                                       "veitner-2025-load-store-matrices",
                                       line_in(s.documents, "  - id: seed-003")));
}

TEST(SpecErrors, DocumentTwice) {
  Specs s;
  edit(s.documents, "  - id: xuwh-2025-ldmatrix-notes\n", "  - id: manual\n");
  EXPECT_EQ(load_error(s), fmt::format("specs/documents.yaml:{}:9: duplicate document 'manual' (first defined at "
                                       "specs/documents.yaml:{}:9)",
                                       line_in(s.documents, "  - id: manual\n    title: \"ldmatrix"),
                                       line_in(s.documents, "  - id: manual\n")));
}

TEST(SpecErrors, DocumentWithAGuessedAddress) {
  Specs s;
  edit(s.documents, "    address: https://veitner.bearblog.dev/", "    address: veitner.bearblog.dev/");
  EXPECT_EQ(load_error(s),
            fmt::format("specs/documents.yaml:{}:14: 'veitner.bearblog.dev/load-and-store-matrices-efficently-with-ptx-"
                        "instructions/' is not an address; expected http(s)://... or 'address not found'",
                        line_in(s.documents, "    address: veitner.bearblog.dev/")));
}

TEST(SpecErrors, TranslationOfAnUnknownDocument) {
  Specs s;
  edit(s.documents, "    translation_of: veitner-2025-ldmatrix-stmatrix\n", "    translation_of: veitner-blog\n");
  EXPECT_EQ(load_error(s), fmt::format("specs/documents.yaml:{}:21: unknown document 'veitner-blog'; expected another "
                                       "id of documents.yaml",
                                       line_in(s.documents, "    translation_of: veitner-blog")));
}

// ---------------------------------------------------------------------------------------------
// Missing required keys.

TEST(SpecErrors, MissingVariantName) {
  Specs s;
  edit(s.ldmatrix, "  - name: ldmatrix.m8n8.b16\n    operation: load\n", "  - operation: load\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:7:5: item 0 of 'variants' is missing required key 'name'");
}

TEST(SpecErrors, MissingSyntax) {
  Specs s;
  edit(s.ldmatrix, "    syntax: \"ldmatrix.sync.aligned.m8n8{num}{trans}{ss}.b16 {regs}, [{addr}];\"\n", "");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:7:5: item 0 of 'variants' is missing required key 'syntax'");
}

TEST(SpecErrors, MissingRequires) {
  Specs s;
  edit(s.ldmatrix, "    requires:\n" + between(s.ldmatrix, "    requires:\n", "    qualifiers:\n"), "");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:7:5: item 0 of 'variants' is missing required key 'requires'");
}

TEST(SpecErrors, MissingRequiresPtx) {
  Specs s;
  edit(s.ldmatrix, "      ptx: \"6.5\"\n", "");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:11:7: 'requires' of item 0 of 'variants' is missing required key 'ptx'");
}

TEST(SpecErrors, MissingRequiresTargets) {
  Specs s;
  edit(s.ldmatrix, "      targets: \">= sm_75\"\n", "");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:11:7: 'requires' of item 0 of 'variants' is missing required key 'targets'");
}

TEST(SpecErrors, MissingRequiresSource) {
  Specs s;
  edit(s.ldmatrix,
       "      source: \"manual, ldmatrix PTX ISA notes: introduced in PTX ISA 6.5; Target ISA notes: requires sm_75 or "
       "higher\"\n",
       "");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:11:7: 'requires' of item 0 of 'variants' is missing required key 'source'");
}

TEST(SpecErrors, MissingSourceInQualifierRequirement) {
  Specs s;
  edit(s.ldmatrix,
       "requires: {ptx: \"7.8\", source: \"manual, ldmatrix PTX ISA notes: support for ::cta sub-qualifier introduced "
       "in PTX ISA 7.8\"}",
       "requires: {ptx: \"7.8\"}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:27:21: 'requires' of item 2 of values of qualifier 'ss' is missing required key "
            "'source'");
}

TEST(SpecErrors, MissingMatrix) {
  Specs s;
  edit(s.ldmatrix, "    matrix: {rows: 8, cols: 8, element_bits: 16}\n", "");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:7:5: variant 'ldmatrix.m8n8.b16' gives part of a layout; it also needs 'matrix' (or none "
      "of matrix, row_alignment, address_lanes, fragment)");
}

TEST(SpecErrors, MissingFragment) {
  Specs s;
  edit(s.ldmatrix, "    fragment:\n      matrix: r\n      row: lane / 4\n      col: (lane % 4) * 2 + i\n", "");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: variant 'ldmatrix.m8n8.b16' gives part of a layout; it also needs 'fragment' (or "
            "none of matrix, row_alignment, address_lanes, fragment)");
}

TEST(SpecErrors, MissingAddressLanes) {
  Specs s;
  edit(s.ldmatrix,
       "    address_lanes:\n      active: lane < 8 * matrices\n      matrix: lane / 8\n      row: lane % 8\n", "");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:7:5: variant 'ldmatrix.m8n8.b16' gives part of a layout; it also needs 'address_lanes' "
      "(or none of matrix, row_alignment, address_lanes, fragment)");
}

TEST(SpecErrors, MissingAddressLanesRow) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:37:7: 'address_lanes' of item 0 of 'variants' is missing required key 'row'");
}

TEST(SpecErrors, MissingClaimExpect) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}, expect: pass}", "where: {trans: [.trans]}}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:72:12: 'check' of item 3 of 'claims' is missing required key 'expect'");
}

// ---------------------------------------------------------------------------------------------
// Wrong types.

TEST(SpecErrors, MapWhereStringExpected) {
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "    operation: {kind: load}\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:8:16: expected 'operation' of item 0 of 'variants' (a string) but found a map");
}

TEST(SpecErrors, ListWhereMapExpected) {
  Specs s;
  edit(s.ldmatrix, "matrix: {rows: 8, cols: 8, element_bits: 16}", "matrix: [8, 8, 16]");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:13: expected 'matrix' of item 0 of 'variants' (a map) but found a list");
}

TEST(SpecErrors, ScalarWhereListExpected) {
  Specs s;
  edit(s.ldmatrix, "address_widths: [32, 64]", "address_widths: 64");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:28:21: expected 'address_widths' (a list) but found a scalar");
}

TEST(SpecErrors, ScalarWhereMapExpected) {
  Specs s;
  edit(s.ldmatrix, "    check: {kind: requirements, variant: ldmatrix.m8n8.b16}", "    check: requirements");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:77:12: expected 'check' of item 4 of 'claims' (a map) but found a scalar");
}

TEST(SpecErrors, ClaimWhereValuesNotAList) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}", "where: {trans: .trans}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:72:69: expected qualifier values (a list) but found a scalar");
}

// A key with no value is a null node, which yaml-cpp marks at the next token: the message names
// 9:5 (the 'syntax' key that follows) for the empty 'operation' on line 8; the ideal is 8:5, the key.
// yaml-cpp 0.7.0 (Debian) and 0.8.0 give the same mark: the parser marks an empty value with the
// next token's, unchanged between them (checked by loading this text with each).
TEST(SpecErrors, KeyWithoutValue) {
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "    operation:\n");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:9:5: expected 'operation' of item 0 of 'variants' (a string) but found nothing (null)");
}

TEST(SpecErrors, UnknownOperation) {
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "    operation: read\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:8:16: unknown operation 'read'; expected load, store, move, wmma-load, wmma-store, "
            "wmma-mma or mma");
}

// The operations are the kinds' (spec/kind_blocks.hpp, answered by kinds/kinds.cpp): the message
// lists every operation each kind declares, in the kinds' order, at the operation's file:line:column;
// and each word it lists is one the loader takes (in place of 'read', no unknown operation).
TEST(SpecErrors, UnknownOperationListsTheKindsOperations) {
  std::vector<std::string> declared;
  for (auto const* kind : instruction_kinds())
    for (auto const& op : kind->operations()) declared.push_back(op.name);
  ASSERT_GE(declared.size(), 2u);
  Specs s;
  edit(s.ldmatrix, "    operation: load\n", "    operation: read\n");
  const std::string prefix = "specs/ldmatrix.yaml:8:16: unknown operation 'read'; expected ";
  const std::string message = load_error(s);
  ASSERT_EQ(message.substr(0, prefix.size()), prefix) << message;
  std::vector<std::string> listed;
  std::string rest = message.substr(prefix.size());
  for (std::size_t at; (at = rest.find(", ")) != std::string::npos; rest = rest.substr(at + 2))
    listed.push_back(rest.substr(0, at));
  const std::size_t at = rest.find(" or ");
  ASSERT_NE(at, std::string::npos) << message;
  listed.push_back(rest.substr(0, at));
  listed.push_back(rest.substr(at + 4));
  EXPECT_EQ(listed, declared) << message;
  for (auto const& name : listed) {
    Specs t;
    edit(t.ldmatrix, "    operation: load\n", "    operation: " + name + "\n");
    try {
      load_specs(t.files());
    } catch (const SpecError& e) {
      EXPECT_EQ(e.message.find("unknown operation"), std::string::npos) << name << ": " << e.message;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Integers: out of range, not integers, not allowed values.

TEST(SpecErrors, RowsZero) {
  Specs s;
  edit(s.ldmatrix, "{rows: 8,", "{rows: 0,");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:20: expected 'rows' of 'matrix' of item 0 of 'variants' to be an integer from 1 "
            "to 64 but found '0'");
}

TEST(SpecErrors, ElementBitsNotAWholeNumberOfBytes) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 12}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:46: expected element_bits of 8, 16 or 32 (a whole number of bytes dividing a "
            "32-bit register) but found 12");
}

// A widening load (ldmatrix .s8.s4): memory_bits narrower than element_bits, with its extension.
TEST(SpecErrors, MemoryBitsNotADivisorOfAByte) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 16, memory_bits: 3, widen: sign}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:63: expected memory_bits of 1, 2, 4 or 6, narrower than element_bits 16, but "
            "found 3");
}

TEST(SpecErrors, MemoryBitsWithoutWiden) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 16, memory_bits: 4}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:13: a widening load ('memory_bits') needs 'widen: sign' or 'widen: zero'");
}

TEST(SpecErrors, WidenOtherThanSignOrZero) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 16, memory_bits: 4, widen: saturate}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:32:73: expected 'sign' or 'zero' but found 'saturate'");
}

TEST(SpecErrors, MemoryBitsOnAStore) {
  Specs s;
  edit(s.stmatrix, "element_bits: 16}", "element_bits: 16, memory_bits: 4, widen: sign}");
  EXPECT_EQ(load_error(s), "specs/stmatrix.yaml:30:63: 'memory_bits' (a widening load) is only for loads");
}

// A row padded past its elements (ldmatrix .b8x16.b6x16_p32): wider than them, whole words, loads only.
TEST(SpecErrors, RowBytesNotAboveTheElements) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 16, row_bytes: 16}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:32:61: expected row_bytes above the 16 bytes of a row's elements but found 16");
}

TEST(SpecErrors, RowBytesNotWholeWords) {
  Specs s;
  edit(s.ldmatrix, "element_bits: 16}", "element_bits: 16, row_bytes: 18}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:32:13: a row of 18 bytes is not a whole number of 32-bit words");
}

TEST(SpecErrors, RowBytesOnAStore) {
  Specs s;
  edit(s.stmatrix, "element_bits: 16}", "element_bits: 16, row_bytes: 32}");
  EXPECT_EQ(load_error(s), "specs/stmatrix.yaml:30:61: 'row_bytes' (a row padded past its elements) is only for loads");
}

TEST(SpecErrors, RowAlignmentNotPowerOfTwo) {
  Specs s;
  edit(s.ldmatrix, "row_alignment: 16", "row_alignment: 24");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:34:20: expected a power of two but found 24");
}

TEST(SpecErrors, WarpsNotAnInteger) {
  Specs s;
  edit(s.cases, "warps: 4\n", "warps: many\n");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:5:8: expected 'warps' of cases.yaml to be an integer from 1 to 32 but found 'many'");
}

TEST(SpecErrors, SetValueNotAnInteger) {
  Specs s;
  edit(s.ldmatrix, "set: {matrices: 2}", "set: {matrices: two}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:17:39: expected 'matrices' of 'set' of a qualifier value to be an integer from 0 to "
            "1024 but found 'two'");
}

TEST(SpecErrors, AddressWidthNot32Or64) {
  Specs s;
  edit(s.ldmatrix, "address_widths: [32, 64]", "address_widths: [32, 48]");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:28:26: expected an address width of 32 or 64 but found 48");
}

TEST(SpecErrors, WarpsTimesTileBytesTooLarge) {
  Specs s;
  edit(s.cases, "warps: 4\n", "warps: 16\n");
  EXPECT_EQ(load_error(s), "specs/cases.yaml:5:1: warps x tile_bytes must fit in 48 KiB of shared memory");
}

TEST(SpecErrors, TileBytesDoNotSplitIntoRegions) {
  Specs s;
  edit(s.cases, "regions: 2\n", "regions: 3\n");
  EXPECT_EQ(load_error(s), "specs/cases.yaml:6:13: tile_bytes must split into 16-byte aligned regions");
}

// ---------------------------------------------------------------------------------------------
// Qualifiers and their values.

TEST(SpecErrors, QualifierTextWithoutDot) {
  Specs s;
  edit(s.ldmatrix, "{text: .x1,", "{text: x1,");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:16:18: expected a qualifier like '.x1' (a dot, then letters, digits, '_' or '::') or "
            "\"\" but found 'x1'");
}

TEST(SpecErrors, DuplicateQualifierValue) {
  Specs s;
  edit(s.ldmatrix, "{text: .x4, set: {matrices: 4}}", "{text: .x2, set: {matrices: 4}}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:18:11: duplicate value '.x2' of qualifier 'num'");
}

TEST(SpecErrors, QualifierValuesSetDifferentVariables) {
  Specs s;
  edit(s.ldmatrix, "{text: .x2, set: {matrices: 2}}", "{text: .x2, set: {count: 2}}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:17:11: every value of qualifier 'num' must set the same variables (matrices) but this "
            "one sets (count)");
}

TEST(SpecErrors, QualifierSetsBuiltinVariable) {
  Specs s;
  edit(s.ldmatrix, "{text: .x1, set: {matrices: 1}}", "{text: .x1, set: {lane: 1}}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:16:29: 'lane' is a built-in variable and cannot be set");
}

TEST(SpecErrors, ReservedQualifierName) {
  Specs s;
  edit(s.ldmatrix, "      ss:\n", "      addr:\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:22:7: 'addr' is reserved and cannot name a qualifier");
}

TEST(SpecErrors, QualifierWithoutValues) {
  Specs s;
  edit(s.ldmatrix, "      trans:\n        - {text: \"\"}\n        - {text: .trans, fragment: trans}\n",
       "      trans: []\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:19:14: qualifier 'trans' needs at least one value");
}

TEST(SpecErrors, UnknownStateSpace) {
  Specs s;
  edit(s.ldmatrix, "space: generic}", "space: local}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:23:29: unknown state space 'local'; expected generic, shared or global");
}

TEST(SpecErrors, QualifierSelectsUndefinedFragmentLayout) {
  Specs s;
  edit(s.ldmatrix, "fragment: trans}", "fragment: transposed}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:21:11: value '.trans' of qualifier 'trans' selects fragment layout 'transposed', "
            "which 'fragments' does not define");
}

// Two qualifiers that set the same variable: the second silently overrides the first, so .x4 here
// would get matrices = 1 (one register) whenever .trans is chosen.
TEST(SpecErrors, VariableSetByTwoQualifiers) {
  Specs s;
  edit(s.ldmatrix, "        - {text: \"\"}\n        - {text: .trans, fragment: trans}\n",
       "        - {text: \"\", set: {matrices: 1}}\n        - {text: .trans, fragment: trans, set: {matrices: 1}}\n");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:20:11: variable 'matrices' is decided by qualifier 'num' and by qualifier 'trans'; only one "
      "qualifier may decide it");
}

// Two qualifiers that select fragment layouts: Instance::layout silently takes the first one's.
TEST(SpecErrors, FragmentSelectedByTwoQualifiers) {
  Specs s;
  edit(s.ldmatrix, "{text: \"\", space: generic}", "{text: \"\", space: generic, fragment: trans}");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:23:11: the fragment layout is decided by qualifier 'trans' and by qualifier 'ss'; only "
      "one qualifier may decide it");
}

// A qualifier value's 'requires' with only a source requires nothing: dropping the ptx of
// .shared::cta silently drops its PTX ISA 7.8 requirement.
TEST(SpecErrors, QualifierRequirementWithoutPtxOrTargets) {
  Specs s;
  edit(s.ldmatrix, "requires: {ptx: \"7.8\", source:", "requires: {source:");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:27:21: a qualifier value's 'requires' needs 'ptx' or 'targets'");
}

// ---------------------------------------------------------------------------------------------
// Syntax placeholders.

TEST(SpecErrors, SyntaxUnknownPlaceholder) {
  Specs s;
  edit(s.ldmatrix, "{trans}{ss}", "{trans}{foo}{ss}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:9:53: unknown placeholder '{foo}' in syntax; expected a qualifier name, {regs} or "
            "{addr}");
}

TEST(SpecErrors, SyntaxMissesQualifierPlaceholder) {
  Specs s;
  edit(s.ldmatrix, "{num}{trans}{ss}.b16 {regs}", "{num}{ss}.b16 {regs}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:9:13: syntax must use {trans} exactly once");
}

TEST(SpecErrors, SyntaxRepeatsQualifierPlaceholder) {
  Specs s;
  edit(s.ldmatrix, "{num}{trans}{ss}.b16 {regs}", "{num}{trans}{ss}{num}.b16 {regs}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:9:13: syntax must use {num} exactly once");
}

TEST(SpecErrors, SyntaxMissesRegs) {
  Specs s;
  edit(s.ldmatrix, ".b16 {regs}, [{addr}];", ".b16 r0, [{addr}];");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:9:13: syntax must use {regs} and {addr} exactly once each");
}

TEST(SpecErrors, SyntaxUnclosedBrace) {
  Specs s;
  edit(s.ldmatrix, "[{addr}];", "[{addr];");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:9:70: unclosed '{' in syntax; expected '}' after the placeholder's name");
}

// ---------------------------------------------------------------------------------------------
// Exclusions and claim filters.

TEST(SpecErrors, ExcludeUnknownQualifierValue) {
  Specs s;
  edit(s.ldmatrix, "when: {ss: \"\", address_width: 32}", "when: {ss: \".global\", address_width: 32}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:30:20: unknown value '.global' of qualifier 'ss'");
}

TEST(SpecErrors, ExcludeUnknownQualifier) {
  Specs s;
  edit(s.ldmatrix, "when: {ss: \"\", address_width: 32}", "when: {space: \"\", address_width: 32}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:30:16: unknown qualifier 'space' in exclusion");
}

TEST(SpecErrors, ExcludeBadAddressWidth) {
  Specs s;
  edit(s.ldmatrix, "when: {ss: \"\", address_width: 32}", "when: {ss: \"\", address_width: 16}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:30:39: expected address_width 32 or 64 but found '16'");
}

// An exclusion without conditions matches every instance, so the variant silently has none.
TEST(SpecErrors, ExcludeWithoutConditions) {
  Specs s;
  edit(s.ldmatrix, "when: {ss: \"\", address_width: 32}", "when: {}");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:30:15: an exclusion needs at least one condition in 'when'");
}

TEST(SpecErrors, ClaimWhereUnknownQualifierValue) {
  Specs s;
  edit(s.ldmatrix, "where: {num: [.x1, .x2]}", "where: {num: [.x1, .x3]}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:64:5: claim 'ldmatrix-unused-lane-addresses-ignored' names unknown value '.x3' of "
            "qualifier 'num'");
}

// An empty list of values selects no instance, so the claim can never be checked.
TEST(SpecErrors, ClaimWhereEmptyValueList) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}", "where: {trans: []}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:72:69: claim 'ldmatrix-trans-delivers-transpose' selects no value of qualifier "
            "'trans'");
}

TEST(SpecErrors, ClaimWhereUnknownQualifier) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}", "where: {transpose: [.trans]}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:69:5: claim 'ldmatrix-trans-delivers-transpose' filters on unknown qualifier "
            "'transpose' of 'ldmatrix.m8n8.b16'");
}

// ---------------------------------------------------------------------------------------------
// Formulas: syntax errors point into the formula at the offending character.

TEST(SpecErrors, FormulaTrailingOperator) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: (lane % 4) * 2 +\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:45:28: malformed formula '(lane % 4) * 2 +' for fragment col: expected a number, a "
            "variable or '(' but the formula ended");
}

TEST(SpecErrors, FormulaExtraCloseParen) {
  Specs s;
  edit(s.ldmatrix, "      row: lane / 4\n", "      row: lane / 4)\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:44:20: malformed formula 'lane / 4)' for fragment row: unexpected ')' after a "
            "complete formula");
}

// The message names the '(' by its column within the formula (1), while the location prefix uses file
// columns: "column 1" reads as column 1 of the line. It should name the file column of the '(' (12).
TEST(SpecErrors, FormulaUnclosedParen) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: (lane % 4 * 2 + i\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:45:29: malformed formula '(lane % 4 * 2 + i' for fragment col: expected ')' to close "
            "the '(' before 'lane % 4 * 2'");
}

TEST(SpecErrors, FormulaBadCharacterAfterOperand) {
  Specs s;
  edit(s.ldmatrix, "      row: lane / 4\n", "      row: lane $ 4\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:44:17: malformed formula 'lane $ 4' for fragment row: unexpected '$' after a "
            "complete formula");
}

TEST(SpecErrors, FormulaBadCharacterForOperand) {
  Specs s;
  edit(s.ldmatrix, "        col: lane / 4\n", "        col: lane / $4\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:50:21: malformed formula 'lane / $4' for fragment 'trans' col: expected a number, a "
            "variable or '(' but found '$'");
}

TEST(SpecErrors, FormulaQuotedColumnCountsTheQuote) {
  Specs s;
  edit(s.ldmatrix, "      active: lane < 8 * matrices\n", "      active: \"lane < 8 ** matrices\"\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:37:26: malformed formula 'lane < 8 ** matrices' for address_lanes active: expected a "
            "number, a variable or '(' but found '*'");
}

// where_in_scalar counts characters of the decoded value from the opening quote: an escape in a
// double-quoted formula shifts the column. The message names 45:30, the '2' of "\x2B", 3 columns
// before the '$' at 45:33 (the ideal): "\x2B" is 4 characters in the file and 1 in the value. This is
// the loader's counting, not yaml-cpp's mark (the quote, in 0.7.0 and 0.8.0 alike); escapes in a
// formula are rare enough that the loader does not re-read the file to undo them.
TEST(SpecErrors, FormulaColumnAfterEscape) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: \"(lane % 4) * 2 \\x2B $\"\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:45:30: malformed formula '(lane % 4) * 2 + $' for fragment col: expected a number, a "
            "variable or '(' but found '$'");
}

// yaml-cpp marks a block scalar at its indicator ('>-' at 45:12) and gives no position for its text,
// which starts on the next line. The loader counts from the indicator as from an opening quote, so the
// message names 45:28, on the indicator's line; the ideal is the '$' at 46:24. yaml-cpp 0.7.0 (Debian)
// and 0.8.0 give the same mark (checked by loading this text with each).
TEST(SpecErrors, FormulaInBlockScalar) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: >-\n        (lane % 4) * 2 $\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:45:28: malformed formula '(lane % 4) * 2 $' for fragment col: unexpected '$' after a "
            "complete formula");
}

TEST(SpecErrors, FormulaNumberFollowedByLetter) {
  Specs s;
  edit(s.ldmatrix, "      matrix: lane / 8\n", "      matrix: lane / 8x\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:38:23: malformed formula 'lane / 8x' for address_lanes matrix: expected an operator "
            "after a number, found a letter");
}

TEST(SpecErrors, FormulaEmpty) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: \"\"\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:39:13: malformed formula '' for address_lanes row: expected a formula, found nothing");
}

TEST(SpecErrors, FormulaUnknownVariable) {
  Specs s;
  edit(s.ldmatrix, "        col: lane / 4\n", "        col: lanes / 4\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:50:14: formula 'lanes / 4' for fragment 'trans' col uses unknown variable 'lanes'; "
            "expected one of: i, lane, matrices, r");
}

TEST(SpecErrors, FormulaFragmentVariableInAddressLanes) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: (lane + r) % 8\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:39:12: formula '(lane + r) % 8' for address_lanes row uses unknown variable 'r'; "
            "expected one of: lane, matrices");
}

TEST(SpecErrors, FormulaUnknownVariableInRegisters) {
  Specs s;
  edit(s.ldmatrix, "    registers: matrices\n", "    registers: matrix\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:33:16: formula 'matrix' for registers uses unknown variable 'matrix'; expected one "
            "of: matrices");
}

TEST(SpecErrors, FormulaDividesByZero) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: lane / (matrices - matrices)\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: layout of variant 'ldmatrix.m8n8.b16' cannot be evaluated for "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: 'lane / (matrices - matrices)' divides by zero");
}

TEST(SpecErrors, FormulaShiftOutOfRange) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: (lane << 63) % 8\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: layout of variant 'ldmatrix.m8n8.b16' cannot be evaluated for "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: '(lane << 63) % 8' shifts by 63, outside 0..62");
}

// INT64_MIN / -1 traps (SIGFPE on x86) inside Formula::eval: the whole process dies while loading.
TEST(SpecErrors, FormulaOverflowingDivision) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: (-(1 << 62) - (1 << 62)) / -1 + lane % 8\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: layout of variant 'ldmatrix.m8n8.b16' cannot be evaluated for "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: '(-(1 << 62) - (1 << 62)) / -1 + lane % 8' overflows");
}

// A long left-associated chain is parsed iteratively but evaluated recursively, one stack frame per
// operator: a formula of a few hundred thousand terms overflows the stack.
TEST(SpecErrors, FormulaTooLong) {
  Specs s;
  std::string chain = "lane % 8";
  for (int k = 0; k < 500000; ++k) chain += " + 0";
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: " + chain + "\n");
  std::string message = load_error(s);
  EXPECT_EQ(message.substr(0, 23), "specs/ldmatrix.yaml:39:");
}

// ---------------------------------------------------------------------------------------------
// Impossible layouts.

TEST(SpecErrors, LayoutTwoLanesSupplyOneRow) {
  Specs s;
  edit(s.ldmatrix, "      row: lane % 8\n", "      row: lane % 4\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: lanes 0 and 4 both supply row 0 of matrix 0");
}

TEST(SpecErrors, LayoutLaneSuppliesRowOutsideTheMatrices) {
  Specs s;
  edit(s.ldmatrix, "      matrix: lane / 8\n", "      matrix: lane / 4\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: lane 4 supplies row 4 of matrix 1, outside 1 matrices of 8 rows");
}

TEST(SpecErrors, LayoutRowWithoutLane) {
  Specs s;
  edit(s.ldmatrix, "      active: lane < 8 * matrices\n", "      active: lane < 4 * matrices\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: no lane supplies row 4 of matrix 0");
}

TEST(SpecErrors, LayoutTwoElementsInOnePlace) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: (lane % 4) * 2\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: lane 0 register 0 element 0 and lane 0 register 0 element 1 both "
            "map to matrix 0 row 0 col 0");
}

TEST(SpecErrors, LayoutElementOutsideTheMatrix) {
  Specs s;
  edit(s.ldmatrix, "      col: (lane % 4) * 2 + i\n", "      col: lane * 2 + i\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: lane 4 register 0 element 0 maps to matrix 0 row 1 col 8, outside "
            "1 matrices of 8x8");
}

TEST(SpecErrors, LayoutOfAlternativeFragment) {
  Specs s;
  edit(s.stmatrix, "        col: lane / 4\n", "        col: lane / 8\n");
  EXPECT_EQ(load_error(s),
            "specs/stmatrix.yaml:7:5: impossible layout in variant 'stmatrix.m8n8.b16': "
            "stmatrix.sync.aligned.m8n8.x1.trans.b16@a64: lane 0 register 0 element 0 and lane 4 register 0 element 0 "
            "both map to matrix 0 row 0 col 0");
}

TEST(SpecErrors, LayoutNoRegisters) {
  Specs s;
  edit(s.ldmatrix, "    registers: matrices\n", "    registers: matrices - 1\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:7:5: impossible layout in variant 'ldmatrix.m8n8.b16': "
            "ldmatrix.sync.aligned.m8n8.x1.b16@a64: 'registers' gives 0, expected 1 to 16");
}

// ---------------------------------------------------------------------------------------------
// PTX ISA versions and targets in requirements.

TEST(SpecErrors, PtxVersionTwoDigitMinor) {
  Specs s;
  edit(s.ldmatrix, "      ptx: \"6.5\"\n", "      ptx: \"7.80\"\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:11:12: expected a PTX ISA version like \"7.8\" but found '7.80'");
}

TEST(SpecErrors, PtxVersionWord) {
  Specs s;
  edit(s.ldmatrix, "      ptx: \"6.5\"\n", "      ptx: seven\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:11:12: expected a PTX ISA version like \"7.8\" but found 'seven'");
}

TEST(SpecErrors, PtxVersionNotListed) {
  Specs s;
  edit(s.ldmatrix, "requires: {ptx: \"7.8\",", "requires: {ptx: \"7.9\",");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:27:27: PTX ISA version 7.9 is not in targets.yaml's ptx_isa_versions");
}

TEST(SpecErrors, TargetsUnknownMinimum) {
  Specs s;
  edit(s.ldmatrix, "targets: \">= sm_75\"", "targets: \">= sm_42\"");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:12:16: unknown target 'sm_42' in '>= sm_42'; expected an architecture from "
            "targets.yaml");
}

TEST(SpecErrors, TargetsUnknownInList) {
  Specs s;
  edit(s.ldmatrix, "targets: \">= sm_75\"", "targets: [sm_75, sm_42]");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:12:24: unknown target 'sm_42'; expected '>= sm_XY', '<= sm_XY', a target name from "
      "targets.yaml, or 'sm_XYf+'");
}

TEST(SpecErrors, TargetsEmptyList) {
  Specs s;
  edit(s.ldmatrix, "targets: \">= sm_75\"", "targets: []");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:12:16: expected at least one target in the list");
}

TEST(SpecErrors, TargetsBadExpression) {
  Specs s;
  edit(s.ldmatrix, "targets: \">= sm_75\"", "targets: \"sm_90+\"");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:12:16: 'sm_90+': only a family-specific target (sm_XYf, with a family in targets.yaml) "
      "can start a family");
}

TEST(SpecErrors, TargetsMinimumNotANumber) {
  Specs s;
  edit(s.ldmatrix, "targets: \">= sm_75\"", "targets: \">= sm_75a\"");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:12:16: expected '>= sm_XY' with XY a number but found '>= sm_75a'");
}

// ---------------------------------------------------------------------------------------------
// Duplicates.

TEST(SpecErrors, DuplicateVariantInOneFile) {
  Specs s;
  std::string variant = between(s.ldmatrix, "variants:\n", "\nclaims:");
  edit(s.ldmatrix, "variants:\n", "variants:\n" + variant);
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:51:11: duplicate variant 'ldmatrix.m8n8.b16' (first defined at "
            "specs/ldmatrix.yaml:7:5)");
}

TEST(SpecErrors, DuplicateVariantAcrossFiles) {
  Specs s;
  std::string other = s.ldmatrix;
  edit(other, "family: ldmatrix\n", "family: ldmatrix.m8n8\n");
  std::vector<SpecFile> files = s.files();
  files.push_back({.path = "specs/ldmatrix-m8n8.yaml", .text = other});
  EXPECT_EQ(load_error(files),
            "specs/ldmatrix-m8n8.yaml:7:11: duplicate variant 'ldmatrix.m8n8.b16' (first defined at "
            "specs/ldmatrix.yaml:7:5)");
}

TEST(SpecErrors, DuplicateFamily) {
  Specs s;
  edit(s.stmatrix, "family: stmatrix\n", "family: ldmatrix\n");
  EXPECT_EQ(load_error(s), "specs/stmatrix.yaml:4:9: family 'ldmatrix' is already defined at specs/ldmatrix.yaml:4:9");
}

TEST(SpecErrors, VariantNameOutsideFamily) {
  Specs s;
  edit(s.stmatrix, "  - name: stmatrix.m8n8.b16\n", "  - name: ldmatrix.m8n8.b16\n");
  EXPECT_EQ(load_error(s),
            "specs/stmatrix.yaml:7:11: variant name 'ldmatrix.m8n8.b16' must start with its family 'stmatrix.'");
}

TEST(SpecErrors, DuplicateClaimInOneFile) {
  Specs s;
  edit(s.ldmatrix, "id: blog-consecutive-rows-stored-consecutively", "id: ldmatrix-rows-need-not-be-contiguous");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:58:9: duplicate claim 'ldmatrix-rows-need-not-be-contiguous' (first defined at "
            "specs/ldmatrix.yaml:53:5)");
}

TEST(SpecErrors, DuplicateClaimAcrossFiles) {
  Specs s;
  edit(s.stmatrix, "id: stmatrix-rows-need-not-be-contiguous", "id: ldmatrix-rows-need-not-be-contiguous");
  EXPECT_EQ(load_error(s),
            "specs/stmatrix.yaml:50:9: duplicate claim 'ldmatrix-rows-need-not-be-contiguous' (first defined at "
            "specs/ldmatrix.yaml:53:5)");
}

TEST(SpecErrors, DuplicateCase) {
  Specs s;
  edit(s.cases, "name: random-contiguous", "name: unique-contiguous");
  EXPECT_EQ(load_error(s), "specs/cases.yaml:32:11: duplicate case 'unique-contiguous'");
}

TEST(SpecErrors, DuplicateTarget) {
  Specs s;
  edit(s.targets, "{name: sm_80,   arch: 80,  ptx: \"7.0\"}", "{name: sm_75,   arch: 75,  ptx: \"6.3\"}");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:30:5: duplicate target 'sm_75'");
}

// yaml-cpp keeps both entries of a repeated key and the loader reads the first: the second
// row_alignment below is silently ignored.
TEST(SpecErrors, DuplicateYamlKey) {
  Specs s;
  edit(s.ldmatrix, "    row_alignment: 16\n", "    row_alignment: 16\n    row_alignment: 32\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:35:5: duplicate key 'row_alignment' in item 0 of 'variants' (first at "
            "specs/ldmatrix.yaml:34:5)");
}

// YAML::Load reads only the first document: a stray '---' silently drops the rest of the file
// (here: every ldmatrix claim).
TEST(SpecErrors, SecondYamlDocument) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n", "\n---\nclaims:\n");
  EXPECT_EQ(load_error(s), "specs/ldmatrix.yaml:52:1: a spec file must hold one YAML document; found another here");
}

// ---------------------------------------------------------------------------------------------
// Claims.

TEST(SpecErrors, ClaimUnknownVariant) {
  Specs s;
  edit(s.ldmatrix, "{kind: requirements, variant: ldmatrix.m8n8.b16}",
       "{kind: requirements, variant: ldmatrix.m16n16.b16}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:74:5: claim 'ldmatrix-requires-sm75-ptx65' names unknown variant "
            "'ldmatrix.m16n16.b16'");
}

TEST(SpecErrors, ClaimUnknownCase) {
  Specs s;
  edit(s.ldmatrix, "cases: [unique-poisoned-unused]", "cases: [unique-poisoned]");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:64:5: claim 'ldmatrix-unused-lane-addresses-ignored' names unknown case "
            "'unique-poisoned'");
}

TEST(SpecErrors, RoundtripLoadIsAStore) {
  Specs s;
  edit(s.stmatrix, "load: ldmatrix.m8n8.b16", "load: stmatrix.m8n8.b16");
  EXPECT_EQ(load_error(s),
            "specs/stmatrix.yaml:60:5: claim 'stmatrix-inverts-ldmatrix': a round trip needs a load variant then a "
            "store variant");
}

TEST(SpecErrors, UnknownClaimCheckKind) {
  Specs s;
  edit(s.ldmatrix, "{kind: requirements, variant: ldmatrix.m8n8.b16}",
       "{kind: requirement, variant: ldmatrix.m8n8.b16}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:77:19: unknown claim check kind 'requirement'; expected cases, roundtrip, "
            "composition or requirements");
}

TEST(SpecErrors, ClaimExpectNeitherPassNorFail) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}, expect: pass}", "where: {trans: [.trans]}, expect: maybe}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:72:88: expected 'pass', 'fail', 'fault' or 'observe' but found 'maybe'");
}

// ---------------------------------------------------------------------------------------------
// targets.yaml.

TEST(SpecErrors, TargetNameDoesNotMatchArch) {
  Specs s;
  edit(s.targets, "{name: sm_87,   arch: 87,", "{name: sm_87,   arch: 78,");
  EXPECT_EQ(load_error(s),
            "specs/targets.yaml:32:12: target name 'sm_87' does not match arch 78 and suffix '' (expected 'sm_78')");
}

TEST(SpecErrors, TargetNameDoesNotMatchSuffix) {
  Specs s;
  edit(s.targets, "{name: sm_100f, arch: 100, ptx: \"8.8\", suffix: f}",
       "{name: sm_100f, arch: 100, ptx: \"8.8\", suffix: a}");
  EXPECT_EQ(load_error(s),
            "specs/targets.yaml:39:12: target name 'sm_100f' does not match arch 100 and suffix 'a' (expected "
            "'sm_100a')");
}

TEST(SpecErrors, TargetUnknownSuffix) {
  Specs s;
  edit(s.targets, "{name: sm_90a,  arch: 90,  ptx: \"8.0\", suffix: a}",
       "{name: sm_90a,  arch: 90,  ptx: \"8.0\", suffix: b}");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:36:52: unknown target suffix 'b'; expected \"\" (portable), a or f");
}

// targets.yaml itself documents `suffix: "" (portable)`, but writing it out is rejected.
TEST(SpecErrors, TargetExplicitEmptySuffix) {
  Specs s;
  edit(s.targets, "{name: sm_90,   arch: 90,  ptx: \"7.8\"}", "{name: sm_90,   arch: 90,  ptx: \"7.8\", suffix: \"\"}");
  EXPECT_EQ(load_error(s), "(no error)");
}

TEST(SpecErrors, PtxVersionsOutOfOrder) {
  Specs s;
  edit(s.targets, "\"7.0\", \"7.1\",", "\"7.1\", \"7.0\",");
  EXPECT_EQ(load_error(s),
            "specs/targets.yaml:8:27: ptx_isa_versions must be in increasing order; 7.0 comes after 7.1");
}

TEST(SpecErrors, ToolkitVersionNotListed) {
  Specs s;
  edit(s.targets, "\"12.0\": \"8.0\"", "\"12.0\": \"8.9\"");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:14:11: PTX ISA version 8.9 is not in targets.yaml's ptx_isa_versions");
}

// toolkits keys are CUDA releases matched against the installed toolkit's; any text is accepted.
TEST(SpecErrors, ToolkitKeyNotARelease) {
  Specs s;
  edit(s.targets, "  \"12.0\": \"8.0\"\n", "  twelve: \"8.0\"\n");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:14:3: expected a CUDA release like \"12.0\" but found 'twelve'");
}

TEST(SpecErrors, TargetPtxVersionNotListed) {
  Specs s;
  edit(s.targets, "{name: sm_75,   arch: 75,  ptx: \"6.3\"}", "{name: sm_75,   arch: 75,  ptx: \"6.6\"}");
  EXPECT_EQ(load_error(s), "specs/targets.yaml:29:37: PTX ISA version 6.6 is not in targets.yaml's ptx_isa_versions");
}

TEST(SpecErrors, MissingTargetsYaml) {
  Specs s;
  std::vector<SpecFile> files = s.files();
  files.erase(files.begin());
  EXPECT_EQ(load_error(files), "specs: no targets.yaml among the spec files");
}

TEST(SpecErrors, MissingCasesYaml) {
  Specs s;
  std::vector<SpecFile> files = s.files();
  files.erase(files.begin() + 1);
  EXPECT_EQ(load_error(files), "specs: no cases.yaml among the spec files");
}

// ---------------------------------------------------------------------------------------------
// cases.yaml.

TEST(SpecErrors, ScatteredRowsWithoutSeed) {
  Specs s;
  edit(s.cases, "    rows: scattered\n    seed: 1\n", "    rows: scattered\n");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:20:5: random data and scattered rows need a 'seed', so that runs are repeatable");
}

TEST(SpecErrors, PitchNotAMultipleOf16) {
  Specs s;
  edit(s.cases, "rows: {pitch: 48}", "rows: {pitch: 40}");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:18:19: a pitch must keep rows 16-byte aligned; 40 is not a multiple of 16");
}

TEST(SpecErrors, UnknownRowPlacement) {
  Specs s;
  edit(s.cases, "rows: {pitch: 48}", "rows: padded");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:18:11: unknown row placement 'padded'; expected contiguous, scattered or {pitch: N}");
}

TEST(SpecErrors, UnknownUnusedLanes) {
  Specs s;
  edit(s.cases, "unused_lanes: poison", "unused_lanes: garbage");
  EXPECT_EQ(load_error(s), "specs/cases.yaml:42:19: unknown unused_lanes 'garbage'; expected poison or repeat");
}

// 32 rows (.x4) 80 bytes apart end at byte 31 * 80 + 16 = 2496, past the 2048-byte region; the
// loader accepts it and the run fails later ("32 rows do not fit a 2048-byte region").
TEST(SpecErrors, PitchTooLargeForRegion) {
  Specs s;
  edit(s.cases, "rows: {pitch: 48}", "rows: {pitch: 80}");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:18:11: case 'unique-padded-pitch': the 32 rows of ldmatrix.sync.aligned.m8n8.x4.b16@a64 "
            "need 2496 bytes; a region has 2048 (tile_bytes / regions)");
}

// A 128-byte region holds 8 row slots, but .x4 needs 32 rows: contiguous cases fail at run time and
// scattered ones index past the shuffled slot list (place_rows in case_data.cpp).
TEST(SpecErrors, RegionTooSmallForRows) {
  Specs s;
  edit(s.cases, "tile_bytes: 4096\n", "tile_bytes: 256\n");
  EXPECT_EQ(load_error(s),
            "specs/cases.yaml:18:11: case 'unique-padded-pitch': the 8 rows of ldmatrix.sync.aligned.m8n8.x1.b16@a64 "
            "need 352 bytes; a region has 128 (tile_bytes / regions)");
}

}  // namespace
}  // namespace ptxcts

namespace ptxcts {
namespace {
// Found by the fuzzer: yaml-cpp 0.7's LoadAll loops forever on a top-level quoted scalar followed
// by a comma. The loader must answer, quickly.
TEST(SpecErrors, FuzzerFoundHangInYamlCpp) {
  std::vector<SpecFile> files = Specs().files();
  files.back().text = "                   \"8.0\", \"8.1\",\n";
  EXPECT_NE(load_error(files), "(no error)");
}
}  // namespace
}  // namespace ptxcts

namespace ptxcts {
namespace {
// Names from specs reach file names (kernels, reports): a spec that tries to climb out of a
// directory is refused at load time.
TEST(SpecErrors, PathTraversalInTheInstructionNameIsRefused) {
  Specs s;
  edit(s.ldmatrix, "syntax: \"ldmatrix.sync.aligned.m8n8{num}", "syntax: \"../../etc/ldmatrix{num}");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:9:16: the instruction name in the syntax may hold only letters, digits, '.', '_' and ':' "
      "but has '/'");
}
TEST(SpecErrors, PathTraversalInAVariantNameIsRefused) {
  Specs s;
  edit(s.ldmatrix, "  - name: ldmatrix.m8n8.b16\n", "  - name: ldmatrix/../../x\n");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:7:11: expected a variant name made of letters, digits, '.', '-' and '_' (at most 64) but "
      "found 'ldmatrix/../../x'");
}
}  // namespace
}  // namespace ptxcts

// ---------------------------------------------------------------------------------------------
// Broken specs that loaded anyway: each of these used to pass check-specs.

namespace ptxcts {
namespace {

// Braces in a syntax pair up around a placeholder; a stray one reached ptxas, which got the blame.
TEST(SpecErrors, SyntaxStrayClosingBrace) {
  Specs s;
  edit(s.ldmatrix, "[{addr}];", "[{addr}]};");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:9:77: '}' without its '{' in syntax; expected placeholders written {name}");
}

TEST(SpecErrors, SyntaxBraceInsidePlaceholder) {
  Specs s;
  edit(s.ldmatrix, "{num}{trans}{ss}.b16 {regs}", "{num{trans}{ss}.b16 {regs}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:9:40: unclosed '{' in syntax; expected '}' after the placeholder's name");
}

// Only wmma's emitter fills {stride}: elsewhere it would reach ptxas as written.
TEST(SpecErrors, StrideOperandOutsideWmma) {
  Specs s;
  edit(s.ldmatrix, "        - {text: \"\"}\n", "        - {text: \", {stride}\"}\n");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:20:18: the stride operand \", {stride}\" belongs to wmma-load and wmma-store variants only; "
      "expected a qualifier like '.x1' or \"\"");
}

// An undocumented spelling is never judged: a stray brace in it was recorded as ptxas rejecting it.
TEST(SpecErrors, FormTextStrayClosingBrace) {
  Specs s;
  s.ldmatrix +=
      "\nspellings:\n  - name: x1-spelled\n    text: \"ldmatrix.sync.aligned.x1.m8n8.b16 {regs}}, [{addr}];\"\n"
      "    registers: 1\n    target: sm_75\n    source: test\n";
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:81:52: '}' without its '{' in the form's text; expected placeholders written {name}");
}

TEST(SpecErrors, FormTextStrideOutsideWmma) {
  Specs s;
  s.ldmatrix +=
      "\nspellings:\n  - name: x1-spelled\n    text: \"ldmatrix.sync.aligned.x1.m8n8.b16 {regs}, [{addr}]{stride};\"\n"
      "    registers: 1\n    target: sm_75\n    source: test\n";
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:81:63: unknown placeholder '{stride}' in the form's text; expected {regs}, {addr}, "
            "{dst} or {src}");
}

// YAML::Load reads the first document: after a '...' the rest of the file (here every ldmatrix
// claim) was silently dropped.
TEST(SpecErrors, ContentAfterDocumentEnd) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n", "\n...\nclaims:\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:53:1: a spec file must hold one YAML document; this line comes after its end ('...' "
            "on line 52)");
}

TEST(SpecErrors, SecondDocumentAfterDocumentEnd) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n", "\n...\n# the claims\n---\nclaims:\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:54:1: a spec file must hold one YAML document; this line comes after its end ('...' "
            "on line 52)");
}

// One document, marked as such: a '---' after the header comment, a '...' with only comments after it.
TEST(SpecErrors, OneDocumentWithMarkers) {
  Specs s;
  edit(s.ldmatrix, "family: ldmatrix\n", "---\nfamily: ldmatrix\n");
  s.ldmatrix += "...\n# nothing more\n\n";
  EXPECT_EQ(load_error(s), "(no error)");
}

// Two variants that give one instruction form: `list` said "two kernels would share the name ...",
// with no position, and check-specs nothing.
TEST(SpecErrors, InstanceOfTwoVariants) {
  Specs s;
  edit(s.ldmatrix, "\nclaims:\n",
       "  - name: ldmatrix.x1-shared\n"
       "    operation: load\n"
       "    syntax: \"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {regs}, [{addr}];\"\n"
       "    requires: {ptx: \"6.5\", targets: \">= sm_75\", source: test}\n"
       "    qualifiers: {}\n"
       "    address_widths: [64]\n"
       "    registers: \"1\"\n"
       "\nclaims:\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:53:13: instance 'ldmatrix.sync.aligned.m8n8.x1.shared.b16@a64' of variant "
            "'ldmatrix.x1-shared' is also "
            "an instance of variant 'ldmatrix.m8n8.b16' (syntax at specs/ldmatrix.yaml:9:13); expected each "
            "instruction form in one "
            "variant only");
}

TEST(SpecErrors, InstanceTwiceInOneVariant) {
  Specs s;
  edit(s.ldmatrix, "- {text: .trans, fragment: trans}", "- {text: .shared, fragment: trans}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:9:13: variant 'ldmatrix.m8n8.b16' gives instance "
            "'ldmatrix.sync.aligned.m8n8.x1.shared.b16@a64' twice, "
            "with {trans: \".shared\", ss: \"\"} and with {trans: \"\", ss: \".shared\"}; expected each choice of "
            "qualifier values to "
            "give a different instruction");
}

// A claim's expectation must fit its cases: claims.cpp judges 'fault' by faults, and a fault case
// named by a 'pass' claim turned the GPU's refusal of a broken rule into a contradiction.
TEST(SpecErrors, ClaimExpectsFaultOfCaseThatIsNoFaultCase) {
  Specs s;
  edit(s.ldmatrix, "cases: [unique-poisoned-unused], expect: pass}", "cases: [unique-poisoned-unused], expect: fault}");
  EXPECT_EQ(
      load_error(s),
      "specs/ldmatrix.yaml:67:121: claim 'ldmatrix-unused-lane-addresses-ignored' expects a fault, but case "
      "'unique-poisoned-unused' "
      "is not a fault case (no 'fault:' in cases.yaml); expected only fault cases, or expect: pass, fail or observe");
}

TEST(SpecErrors, ClaimExpectsFaultWithoutCases) {
  Specs s;
  edit(s.ldmatrix, "where: {trans: [.trans]}, expect: pass}", "where: {trans: [.trans]}, expect: fault}");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:72:88: claim 'ldmatrix-trans-delivers-transpose' expects a fault but names no cases, "
            "so it would judge "
            "only cases that are not fault cases; expected 'cases' naming fault cases");
}

TEST(SpecErrors, ClaimExpectsPassOfFaultCase) {
  Specs s;
  edit(s.cases, "    unused_lanes: poison\n", "    unused_lanes: poison\n    fault: misaligned\n");
  EXPECT_EQ(load_error(s),
            "specs/ldmatrix.yaml:67:88: claim 'ldmatrix-unused-lane-addresses-ignored' expects 'pass', but case "
            "'unique-poisoned-unused' "
            "is a fault case (it breaks a documented rule on purpose); expected expect: fault or observe");
}

// The spec directory: a file that looks like a spec but is not NAME.yaml was silently not read.
// Returns what loading a directory of the frozen specs plus the file `name` says, the directory
// shown as "specs".
std::string dir_error(const std::string& name, const std::string& text, bool dangling_link = false) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) /
                       (std::string("ptxcts-specs-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (auto const& f : Specs().files()) std::ofstream(dir / fs::path(f.path).filename(), std::ios::binary) << f.text;
  if (dangling_link) fs::create_symlink("nobody@nowhere.1234:5678", dir / name);
  else std::ofstream(dir / name, std::ios::binary) << text;
  std::string message = "(no error)";
  try {
    load_spec_dir(dir);
  } catch (const SpecError& e) { message = e.what(); } catch (const std::exception& e) {
    message = std::string("(not a SpecError) ") + e.what();
  }
  fs::remove_all(dir);
  if (auto at = message.find(dir.string()); at != std::string::npos) message.replace(at, dir.string().size(), "specs");
  return message;
}

const char* const kNotRead =
    ": this file would not be read: spec files end in '.yaml' (lower case, nothing after it); expected it renamed, or "
    "moved out of the "
    "specs directory";

TEST(SpecErrors, SpecDirYmlFile) {
  std::string movmatrix = "family: movmatrix\nvariants: []\n";
  EXPECT_EQ(dir_error("movmatrix.yml", movmatrix), std::string("specs/movmatrix.yml") + kNotRead);
}

TEST(SpecErrors, SpecDirUpperCaseName) {
  EXPECT_EQ(dir_error("LDMATRIX.YAML", "family: x\n"), std::string("specs/LDMATRIX.YAML") + kNotRead);
}

TEST(SpecErrors, SpecDirBackupFile) {
  EXPECT_EQ(dir_error("ldmatrix.yaml.bak", Specs().ldmatrix), std::string("specs/ldmatrix.yaml.bak") + kNotRead);
  EXPECT_EQ(dir_error("ldmatrix.yaml~", Specs().ldmatrix), std::string("specs/ldmatrix.yaml~") + kNotRead);
}

// An editor's lock file (emacs: a link to nowhere named .#FILE) is skipped with a word (see
// test_spec_hostile.cpp), neither a crash nor an error that breaks every command while it is open.
TEST(SpecErrors, SpecDirLockFile) { EXPECT_EQ(dir_error(".#ldmatrix.yaml", "", true), "(no error)"); }

TEST(SpecErrors, SpecDirOtherFilesAreNotSpecs) { EXPECT_EQ(dir_error("README.md", "# the specs\n"), "(no error)"); }

// ---------------------------------------------------------------------------------------------
// The wmma planner's contract (kinds/wmma/wmma_axes.hpp): it pairs kernels by qualifier names, so every
// wmma variant must have them. On a frozen copy of every spec file (tests/data/specs-full; cases.yaml
// names variants of every family), so that editing specs/ never moves these positions.

std::vector<SpecFile> wmma_files(std::string_view from = "", std::string_view to = "") {
  std::vector<SpecFile> files;
  for (const char* name : {"cases.yaml", "diagnostics.yaml", "ldmatrix.yaml", "movmatrix.yaml", "stmatrix.yaml",
                           "targets.yaml", "wmma.yaml"}) {
    std::ifstream in(std::string(PTXCTS_TEST_DATA) + "/specs-full/" + name, std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read specs-full/") + name);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (std::string_view(name) == "wmma.yaml" && !from.empty()) edit(text, from, to);
    files.push_back({.path = std::string("specs/") + name, .text = text});
  }
  return files;
}

TEST(SpecErrors, WmmaSpecsLoad) { EXPECT_EQ(load_error(wmma_files()), "(no error)"); }

// A wmma.load.c without 'shape' would be paired with the .col twin and the stores of any shape.
TEST(SpecErrors, WmmaLoadWithoutShapeQualifier) {
  EXPECT_EQ(load_error(wmma_files("wmma.load.c.sync.aligned{layout}{shape}{ss}{type} {regs}, [{addr}]{stride};\"\n"
                                  "    requires: *req_float\n    qualifiers: {layout: *layouts, shape:",
                                  "wmma.load.c.sync.aligned{layout}{size}{ss}{type} {regs}, [{addr}]{stride};\"\n"
                                  "    requires: *req_float\n    qualifiers: {layout: *layouts, size:")),
            "specs/wmma.yaml:197:17: variant 'wmma.load.c.f16_int' has no qualifier 'shape'; expected a wmma-load "
            "variant to have the "
            "qualifiers the wmma planner pairs kernels by: shape, ss");
}

// A wmma.store.d without 'ss' would be paired with loads of any state space.
TEST(SpecErrors, WmmaStoreWithoutStateSpaceQualifier) {
  EXPECT_EQ(load_error(wmma_files(
                "wmma.store.d.sync.aligned{layout}{shape}{ss}.f32 [{addr}], {regs}{stride};\"\n"
                "    requires: *req_alt_float\n    qualifiers: {layout: *layouts, shape: *shape_tf32, ss:",
                "wmma.store.d.sync.aligned{layout}{shape}{space}.f32 [{addr}], {regs}{stride};\"\n"
                "    requires: *req_alt_float\n    qualifiers: {layout: *layouts, shape: *shape_tf32, space:")),
            "specs/wmma.yaml:250:17: variant 'wmma.store.d.tf32' has no qualifier 'ss'; expected a wmma-store variant "
            "to have the "
            "qualifiers the wmma planner pairs kernels by: shape, ss");
}

// A wmma.mma without 'shape' would be fed by loads and a store of any shape. The block map's mark
// is its first key.
TEST(SpecErrors, WmmaMmaWithoutShapeQualifier) {
  EXPECT_EQ(
      load_error(wmma_files(
          "aligned{alayout}{blayout}{shape}{dtype}{ctype} {d}, {a}, {b}, {c};\"\n"
          "    requires: *req_float\n    qualifiers:\n      alayout: *layouts\n"
          "      blayout: [{text: .row, set: {b_col_major: 0}}, {text: .col, set: {b_col_major: 1}}]\n      shape:",
          "aligned{alayout}{blayout}{mnk}{dtype}{ctype} {d}, {a}, {b}, {c};\"\n"
          "    requires: *req_float\n    qualifiers:\n      alayout: *layouts\n"
          "      blayout: [{text: .row, set: {b_col_major: 0}}, {text: .col, set: {b_col_major: 1}}]\n      mnk:")),
      "specs/wmma.yaml:285:7: variant 'wmma.mma.f16' has no qualifier 'shape'; expected a wmma-mma variant to have the "
      "qualifiers the wmma planner pairs kernels by: shape");
}

// The planner pairs a wmma.load.c .row with its .col twin by every qualifier but 'layout'.
TEST(SpecErrors, WmmaLayoutFromOtherQualifier) {
  EXPECT_EQ(load_error(wmma_files(
                "wmma.load.c.sync.aligned{layout}{shape}{ss}{type} {regs}, [{addr}]{stride};\"\n"
                "    requires: *req_float\n    qualifiers: {layout: *layouts, shape: *shapes16, ss: *spaces, type: "
                "*cd_f16_int, "
                "stride: *strides}\n    address_widths: [64]\n"
                "    registers: m * n * bits / 1024   # .f16: four .f16x2; .f32: eight .f32; .s32: eight .s32\n"
                "    wmma: {matrix: c, rows: m, cols: n, element: type, layout: layout}",
                "wmma.load.c.sync.aligned{order}{shape}{ss}{type} {regs}, [{addr}]{stride};\"\n"
                "    requires: *req_float\n    qualifiers: {order: *layouts, shape: *shapes16, ss: *spaces, type: "
                "*cd_f16_int, "
                "stride: *strides}\n    address_widths: [64]\n"
                "    registers: m * n * bits / 1024   # .f16: four .f16x2; .f32: eight .f32; .s32: eight .s32\n"
                "    wmma: {matrix: c, rows: m, cols: n, element: type, layout: order}")),
            "specs/wmma.yaml:200:64: variant 'wmma.load.c.f16_int' takes its layout from qualifier 'order'; expected "
            "qualifier 'layout', "
            "the one the wmma planner pairs .row and .col forms by (or a fixed .row or .col)");
}

// The layout the 'wmma' block names must be a qualifier of the variant (checked as it is read).
TEST(SpecErrors, WmmaLayoutNotAQualifier) {
  EXPECT_EQ(load_error(wmma_files("    wmma: {matrix: c, rows: m, cols: n, element: type, layout: layout}",
                                  "    wmma: {matrix: c, rows: m, cols: n, element: type, layout: order}")),
            "specs/wmma.yaml:200:64: expected a qualifier of 'wmma.load.c.f16_int', .row or .col but found 'order'");
}

// The state spaces wmma products take in turn are values of every wmma load's and store's 'ss':
// one that is not would leave the planner without the loads to feed a product.
TEST(SpecErrors, WmmaProductStateSpaceNotAQualifierValue) {
  std::vector<SpecFile> files = wmma_files();
  for (auto& f : files)
    if (f.path == "specs/cases.yaml")
      edit(f.text, "product_state_spaces: [.global, .shared, \"\"]", "product_state_spaces: [.global, .local]");
  EXPECT_EQ(load_error(files),
            "specs/cases.yaml:86:25: product state space '.local' is not a value of qualifier 'ss' of variant "
            "'wmma.load.a.f16_int'; "
            "expected one of its values");
}

TEST(SpecErrors, WmmaProductStateSpacesMissing) {
  std::vector<SpecFile> files = wmma_files();
  for (auto& f : files)
    if (f.path == "specs/cases.yaml") edit(f.text, "  product_state_spaces: [.global, .shared, \"\"]\n", "");
  EXPECT_EQ(load_error(files),
            "specs/cases.yaml:80:3: 'wmma' of cases.yaml is missing required key 'product_state_spaces'");
}

}  // namespace
}  // namespace ptxcts

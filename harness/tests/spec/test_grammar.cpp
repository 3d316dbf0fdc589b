// The documents' grammar as data: a block's product, what the rules make of each combination,
// and one test per kind of bad grammar input (exact message, file:line:column).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "kinds/kinds.hpp"
#include "spec/grammar.hpp"
#include "spec/grammar_reader.hpp"
#include "spec/spec_error.hpp"
#include "spec/spec_loader.hpp"
#include "support/grammar_fixture.hpp"

namespace ptxcts {
namespace {

using test::files;
using test::kGrammar;
using test::read_base;

std::string grammar_load_error(const std::string& tail) {
  try {
    load_specs(files(tail));
  } catch (const SpecError& e) { return e.what(); } catch (const std::exception& e) {
    return std::string("(not a SpecError) ") + e.what();
  }
  return "(no error)";
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The line of `needle` in the ldmatrix file as loaded (base text + tail), 1-based.
int line_of(const std::string& tail, const std::string& needle) {
  std::string text = read_base("ldmatrix.yaml") + tail;
  auto at = text.find(needle);
  return at == std::string::npos ? -1 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

}  // namespace

TEST(Grammar, TheProductIsEveryCombinationInTheSyntaxsOrder) {
  SpecSet s = load_specs(files(kGrammar));
  ASSERT_EQ(s.grammar.size(), 1u);
  const GrammarBlock& b = s.grammar[0];
  EXPECT_EQ(b.product(), 2u * 3 * 2 * 3 * 2);
  std::vector<Combination> all = enumerate(b);
  ASSERT_EQ(all.size(), 72u);
  EXPECT_EQ(all.front().text, "ldmatrix.sync.aligned.m8n8.x1.b16 {regs}, [{addr}];");
  EXPECT_EQ(all.back().text, "ldmatrix.sync.aligned.m16n16.x4.trans.shared::cta.b8 {regs}, [{addr}];");
  EXPECT_EQ(all.back().registers("regs"), 8);
  std::set<std::string> texts;
  for (auto const& c : all) texts.insert(c.text);
  EXPECT_EQ(texts.size(), 72u);
}

TEST(Grammar, EachCombinationIsDocumentedValidInvalidOrUndocumented) {
  Suite suite = build_suite(load_specs(files(kGrammar)));
  std::map<DocClass, int> n;
  std::map<std::string, ClassifiedCombination> by_text;
  for (auto& cc : classify_grammar(suite.specs, instances_by_text(suite.instances))) {
    ++n[cc.doc];
    by_text.emplace(cc.combo.text, cc);
  }
  // The base spec's one variant documents every .m8n8 .b16 form: 3 num x 2 trans x 3 ss.
  EXPECT_EQ(n[DocClass::Valid], 18);
  // .m8n8 .b8 (18) and .m16n16 .x4 (12) are forbidden: 30; the .m16n16 .x1/.x2 rest is documented
  // (the block spells it, no rule forbids it) though no variant of this spec spells it.
  EXPECT_EQ(n[DocClass::Invalid], 30);
  EXPECT_EQ(n[DocClass::Unencoded], 24);
  EXPECT_EQ(n[DocClass::Undocumented], 0);
  const auto& x4 = by_text.at("ldmatrix.sync.aligned.m16n16.x4.trans.shared.b8 {regs}, [{addr}];");
  ASSERT_EQ(x4.forbidden_by.size(), 1u);
  EXPECT_EQ(x4.forbidden_by[0]->id, "m16n16-num");
  const auto& both = by_text.at("ldmatrix.sync.aligned.m8n8.x1.b8 {regs}, [{addr}];");
  EXPECT_EQ(both.doc, DocClass::Invalid);
  EXPECT_EQ(both.forbidden_by[0]->id, "m8n8-type");
  const auto& valid = by_text.at("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {regs}, [{addr}];");
  EXPECT_EQ(valid.doc, DocClass::Valid);
  EXPECT_EQ(valid.instance->variant().name, "ldmatrix.m8n8.b16");
}

TEST(Grammar, AnExampleIsReadVerbatimAndSplitIntoItsInstructions) {
  SpecSet s = load_specs(files(kGrammar));
  ASSERT_EQ(s.examples.size(), 1u);
  EXPECT_EQ(s.examples[0].instructions,
            std::vector<std::string>{"ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {d}, [addr];"});
  EXPECT_NE(s.examples[0].body.find(".reg .b64 addr;"), std::string::npos);
}

TEST(GrammarErrors, ARuleNamingAValueNoBlockSpells) {
  std::string tail = with(kGrammar, "only: {num: [.x1, .x2]}", "only: {num: [.x1, .x3]}");
  EXPECT_EQ(grammar_load_error(tail),
            fmt::format("specs/ldmatrix.yaml:{}:11: rule 'm16n16-num' names value '.x3' of position 'num', which no "
                        "block spells; expected one of: .x1, .x2, .x4",
                        line_of(tail, "only: {num: [.x1, .x3]}")));
}

TEST(GrammarErrors, ARuleNamingAPositionNoBlockHas) {
  std::string tail = with(kGrammar, "when: {shape: [.m8n8]}", "when: {layout: [.row]}");
  EXPECT_EQ(grammar_load_error(tail), fmt::format("specs/ldmatrix.yaml:{}:11: rule 'm8n8-type' names position 'layout', which "
                                          "no block it applies to has",
                                          line_of(tail, "when: {layout: [.row]}")));
}

TEST(GrammarErrors, TwoRulesThatLeaveAPositionNoValueContradictEachOther) {
  const std::string extra =
      "  - rule: m16n16-x4-only\n    text: \"(a wrong rule)\"\n    source: \"test\"\n    document: manual\n"
      "    when: {shape: [.m16n16]}\n    only: {num: [.x4]}\n";
  std::string tail = with(kGrammar, "\nexamples:", "\n" + extra + "\nexamples:");
  const std::string err = grammar_load_error(tail);
  EXPECT_EQ(err.rfind(fmt::format("specs/ldmatrix.yaml:{}:5: rules 'm16n16-x4-only' and 'm16n16-num' (at specs/"
                                  "ldmatrix.yaml:",
                                  line_of(tail, "  - rule: m16n16-x4-only")),
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("contradict each other: for 'ldmatrix.sync.aligned.m16n16.x1.b16 {regs}, [{addr}];' one allows "
                     "only .x4 and the other only .x1, .x2 for position 'num'"),
            std::string::npos)
      << err;
}

TEST(GrammarErrors, ARuleThatForbidsADocumentedForm) {
  std::string tail = with(kGrammar, "when: {shape: [.m8n8]}\n    only: {type: [.b16]}",
                          "when: {shape: [.m8n8]}\n    only: {type: [.b8]}");
  const std::string err = grammar_load_error(tail);
  EXPECT_EQ(err.rfind(fmt::format("specs/ldmatrix.yaml:{}:5: rule 'm8n8-type' forbids 'ldmatrix.sync.aligned.m8n8.x1.b16 "
                                  "{{regs}}, [{{addr}}];', which variant 'ldmatrix.m8n8.b16' documents (at ",
                                  line_of(tail, "  - rule: m8n8-type")),
                      0),
            0u)
      << err;
}

TEST(GrammarErrors, APositionWithNoValuesMakesAnEmptyProduct) {
  std::string tail = with(kGrammar, "trans: [\"\", .trans]", "trans: []");
  EXPECT_EQ(grammar_load_error(tail),
            fmt::format("specs/ldmatrix.yaml:{}:14: position 'trans' has no values, so the block's product is empty; "
                        "expected at least one",
                        line_of(tail, "trans: []")));
}

TEST(GrammarErrors, AProductOverTheLimit) {
  std::string many = "[";
  for (int k = 0; k < 200; ++k) many += fmt::format("{}.v{}", k ? ", " : "", k);
  many += "]";
  std::string tail = with(kGrammar, "type: [.b16, .b8]", "type: " + many);
  tail = with(tail, "trans: [\"\", .trans]", "trans: " + many);
  const std::string err = grammar_load_error(tail);
  EXPECT_NE(err.find("the block spells 720000 combinations, over the limit of 20000; expected it split as the "
                     "document splits its syntax"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.rfind(fmt::format("specs/ldmatrix.yaml:{}:", line_of(tail, "      shape:")), 0), 0u) << err;
}

TEST(GrammarErrors, AnExampleLineThatIsNotOneInstruction) {
  std::string tail =
      with(kGrammar, "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {d}, [addr];   // one matrix",
           "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {d}, [addr]; mov.b32 d, 0;");
  const std::string err = grammar_load_error(tail);
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:11: line 3 ('ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {{d}}, "
                             "[addr]; mov.b32 d, 0;') is not one instruction; expected one instruction ending in ';' "
                             "per line",
                             line_of(tail, "    text: |")));
}

TEST(GrammarErrors, ARegistersFormulaOverAnUnsetVariable) {
  std::string tail = with(kGrammar, "registers: per * matrices", "registers: per * matrixes");
  const std::string err = grammar_load_error(tail);
  EXPECT_NE(err.find("matrixes"), std::string::npos) << err;
  EXPECT_EQ(err.rfind(fmt::format("specs/ldmatrix.yaml:{}:", line_of(tail, "registers: per * matrixes")), 0), 0u)
      << err;
}

// An operand beyond the operation's own ('operands', grammar_model.hpp's ExtraOperand) must be new
// and must be in the syntax; one in the syntax but not declared is an unknown placeholder.
TEST(GrammarErrors, AnExtraOperandThatIsAlreadyAPlaceholderOrNotInTheSyntax) {
  const std::string syntax = "syntax: \"ldmatrix.sync.aligned{shape}{num}{trans}{ss}{type} {regs}, [{addr}];\"";
  std::string tail = with(kGrammar, "    registers: per * matrices",
                          "    operands:\n      type: {words: t, type: .b32}\n    registers: per * matrices");
  EXPECT_EQ(grammar_load_error(tail),
            fmt::format("specs/ldmatrix.yaml:{}:7: 'type' is already a placeholder of the syntax (an operand or a "
                        "qualifier); expected a new name",
                        line_of(tail, "      type: {words: t")));
  tail = with(kGrammar, "    registers: per * matrices",
              "    operands:\n      sel: {words: \"{x, y}\", type: .u16, elements: 2}\n    registers: per * matrices");
  EXPECT_EQ(grammar_load_error(tail), fmt::format("specs/ldmatrix.yaml:{}:7: operand 'sel' does not appear in the syntax",
                                                  line_of(tail, "      sel: {words")));
  tail = with(kGrammar, syntax, "syntax: \"ldmatrix.sync.aligned{shape}{num}{trans}{ss}{type} {regs}, [{addr}], {sel};\"");
  const std::string err = grammar_load_error(tail);
  EXPECT_NE(err.find("unknown placeholder '{sel}' in the block's syntax; expected a position or an operand"),
            std::string::npos)
      << err;
  // Declared, it is one: the block reads, its vector of two .u16 among the block's registers.
  tail = with(tail, "    registers: per * matrices",
              "    operands:\n      sel: {words: \"{x, y}\", type: .u16, elements: 2, immediates: true}\n"
              "    registers: per * matrices");
  SpecSet s = load_specs(files(tail));
  ASSERT_EQ(s.grammar.size(), 1u);
  EXPECT_EQ(enumerate(s.grammar[0]).front().registers("sel"), 2);
  EXPECT_EQ(s.grammar[0].types.at("sel"), ".u16");
}

// A rule bounded in PTX ISA versions (`ptx_isa`, spec PtxRange): read at a version, it forbids only
// within its range (PTX ISA 9.1 made mma's .ue8m0 with .scale_vec::4X valid: the rule that forbids
// it holds below 9.1). Expected classes from the bound written here, not from the code.
TEST(Grammar, ARuleBoundedInVersionsForbidsOnlyWithinItsRange) {
  const std::string bound = "    only: {num: [.x1, .x2]}\n    ptx_isa: {below: \"7.8\", source: \"a later version\"}";
  Suite suite = build_suite(load_specs(files(with(kGrammar, "    only: {num: [.x1, .x2]}", bound))));
  const GrammarRule& r = suite.specs.rules.front();
  ASSERT_EQ(r.id, "m16n16-num");
  ASSERT_TRUE(r.ptx.below.has_value());
  EXPECT_EQ(r.ptx.below->str(), "7.8");
  EXPECT_FALSE(r.ptx.from.has_value());
  EXPECT_EQ(r.ptx.source, "a later version");
  const std::string x4 = "ldmatrix.sync.aligned.m16n16.x4.b16 {regs}, [{addr}];";
  auto class_at = [&](std::optional<PtxVersion> v) {
    for (auto const& cc : classify_grammar(suite.specs, instances_by_text(suite.instances), v))
      if (cc.combo.text == x4) return cc.doc;
    ADD_FAILURE() << "no " << x4;
    return DocClass::Undocumented;
  };
  EXPECT_EQ(class_at(PtxVersion{7, 7}), DocClass::Invalid);    // the last version it holds at
  EXPECT_EQ(class_at(PtxVersion{7, 8}), DocClass::Unencoded);  // past it: the block spells it, no rule forbids it
  EXPECT_EQ(class_at(PtxVersion{9, 0}), DocClass::Unencoded);
  EXPECT_EQ(class_at(std::nullopt), DocClass::Invalid);        // every rule, whatever its range
}

TEST(GrammarErrors, ARulesPtxIsaRangeThatIsNotOne) {
  auto error_for = [](const std::string& range) {
    const std::string tail = with(kGrammar, "    only: {num: [.x1, .x2]}", "    only: {num: [.x1, .x2]}\n    " + range);
    return std::pair{grammar_load_error(tail), line_of(tail, "    ptx_isa:")};
  };
  auto [err, line] = error_for("ptx_isa: {below: \"9.x\", source: \"s\"}");
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:22: expected a PTX ISA version like \"7.8\" but found '9.x'", line));
  std::tie(err, line) = error_for("ptx_isa: {below: \"4.0\", source: \"s\"}");
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:22: PTX ISA version 4.0 is not in targets.yaml's ptx_isa_versions",
                             line));
  std::tie(err, line) = error_for("ptx_isa: {from: \"7.8\", below: \"7.0\", source: \"s\"}");
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:35: expected a version above 'from' (7.8), the first the rule "
                             "holds at, but found 7.0",
                             line));
  std::tie(err, line) = error_for("ptx_isa: {source: \"s\"}");
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:14: expected 'from' or 'below' (the PTX ISA versions the rule "
                             "holds at)",
                             line));
  std::tie(err, line) = error_for("ptx_isa: {below: \"7.8\", source: \"\"}");
  EXPECT_EQ(err, fmt::format("specs/ldmatrix.yaml:{}:37: expected where the documents change the rule at that version, "
                             "not an empty text",
                             line));
  std::tie(err, line) = error_for("ptx_isa: {below: \"7.8\", until: \"8.0\", source: \"s\"}");
  EXPECT_NE(err.find("until"), std::string::npos) << err;
  EXPECT_EQ(err.rfind(fmt::format("specs/ldmatrix.yaml:{}:", line), 0), 0u) << err;
}

}  // namespace ptxcts

// mma's .block_scale forms (9.7.14.5.14, "Alternate floating point type with block scaling"): the
// three syntax lines as grammar blocks with their scale operands, every documented form a variant's,
// the probes and the negative space writing the operands as the manual does, and kernels that are
// built for the forms' targets but whose results are not judged (the scaling is not in the specs).
// Expected values are the manual's: its syntax lines and value lists, its Description's operand
// types, its examples' immediates.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "judge/negative_space.hpp"
#include "judge/probe_text.hpp"
#include "kinds/kinds.hpp"
#include "spec/grammar.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const Suite& block_scale_suite() {
  return loaded_suite();
}

const GrammarBlock& block_named(const SpecSet& s, const std::string& id) {
  for (auto const& b : s.grammar)
    if (b.id == id) return b;
  throw std::runtime_error("no grammar block " + id);
}

const ClassifiedCombination& classified(const std::vector<ClassifiedCombination>& all, const std::string& text) {
  for (auto const& cc : all)
    if (cc.combo.text == text) return cc;
  throw std::runtime_error("no combination " + text);
}

const std::string kOperands = " {d}, {a}, {b}, {c}, {scale_a}, {scale_a_id}, {scale_b}, {scale_b_id};";
const std::string kMxf4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0" + kOperands;

}  // namespace

// "d, a, b, c, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}";
// "The operands scale-a-data, scale-b-data are of type .b32. The operands byte-id-a, thread-id-a,
// byte-id-b, thread-id-b are unsigned 16-bit integer values"; the examples write "{2, 1}".
TEST(MmaBlockScale, EachSyntaxLineIsABlockWithItsScaleOperands) {
  const SpecSet& s = loaded_specs();
  // .kind::mxf4: {.scale_vec_size} optional, one value; .kind::mxf4nvf4: two by two; .kind::mxf8f6f4:
  // optional 1X, five types for A and for B.
  const std::map<std::string, std::size_t> products = {
      {"mma.scale.mxf4", 2}, {"mma.scale.mxf4nvf4", 4}, {"mma.scale.mxf8f6f4", 2 * 5 * 5}};
  for (auto const& [id, product] : products) {
    const GrammarBlock& b = block_named(s, id);
    EXPECT_EQ(b.product(), product) << id;
    ASSERT_EQ(b.operands.size(), 4u) << id;
    const std::vector<std::string> names = {"scale_a", "scale_a_id", "scale_b", "scale_b_id"};
    for (std::size_t k = 0; k < 4; ++k) {
      const ExtraOperand& o = b.operands[k];
      EXPECT_EQ(o.name, names[k]) << id;
      EXPECT_EQ(o.type, k % 2 ? ".u16" : ".b32") << id << " " << o.name;
      EXPECT_EQ(o.elements, k % 2 ? 2 : 0) << id << " " << o.name;
      EXPECT_EQ(o.immediates, k % 2 == 1) << id << " " << o.name;
    }
  }
}

// Every form a block spells is a variant's, but the two pairs of .scale_vec_size and .stype that the
// spec's reading of Table 36 leaves out (.scale_vec::2X with .ue4m3, .scale_vec::4X with .ue8m0).
TEST(MmaBlockScale, EveryDocumentedFormIsAVariantsButTheTwoPairsTable36LeavesOut) {
  const Suite& suite = block_scale_suite();
  std::map<std::string, std::map<DocClass, int>> n;
  for (auto const& cc : classify_grammar(suite.specs, instances_by_text(suite.instances)))
    if (cc.combo.block->id.rfind("mma.scale.", 0) == 0) ++n[cc.combo.block->id][cc.doc];
  EXPECT_EQ(n["mma.scale.mxf4"][DocClass::Valid], 2);
  EXPECT_EQ(n["mma.scale.mxf4nvf4"][DocClass::Valid], 2);
  EXPECT_EQ(n["mma.scale.mxf4nvf4"][DocClass::Invalid], 2);
  EXPECT_EQ(n["mma.scale.mxf8f6f4"][DocClass::Valid], 50);
  for (auto const& [id, classes] : n) EXPECT_EQ(classes.count(DocClass::Unencoded), 0u) << id;
}

// A probe writes scale-a-data as one register without braces and {byte-id-a, thread-id-a} as two
// .u16 registers in braces, after c, as the syntax line does.
TEST(MmaBlockScale, AProbeWritesTheScaleOperandsAsTheSyntaxLineDoes) {
  const Suite& suite = block_scale_suite();
  const auto all = classify_grammar(suite.specs, instances_by_text(suite.instances));
  const ClassifiedCombination& cc = classified(all, kMxf4);
  const ProbeText p = probe_text(cc.combo.text, documented_shape(cc.combo));
  EXPECT_EQ(p.instruction,
            "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0 "
            "{%od0, %od1, %od2, %od3}, {%oa0, %oa1, %oa2, %oa3}, {%ob0, %ob1}, {%oc0, %oc1, %oc2, %oc3}, "
            "%oscale_a, {%oscale_a_id0, %oscale_a_id1}, %oscale_b, {%oscale_b_id0, %oscale_b_id1};");
  EXPECT_NE(p.body.find(".reg .b32 %oscale_a;\n"), std::string::npos) << p.body;
  EXPECT_NE(p.body.find(".reg .u16 %oscale_a_id<2>;\n"), std::string::npos) << p.body;
  EXPECT_NE(p.body.find(".reg .f32 %od<4>;\n"), std::string::npos) << p.body;
}

// The negative space asks the scale operands as it asks d, a, b and c (a register more or fewer,
// another type, swapped, braces left out), but an immediate in a selector is no mutation: the
// manual's examples write one ("scaleAData, {2, 1}").
TEST(MmaBlockScale, TheNegativeSpaceAsksTheScaleOperandsButNotTheSelectorsDocumentedImmediates) {
  const Suite& suite = block_scale_suite();
  const auto all = classify_grammar(suite.specs, instances_by_text(suite.instances));
  const ClassifiedCombination& cc = classified(all, kMxf4);
  const GrammarPools pools = grammar_pools(suite.specs.grammar);
  std::set<std::string> details;
  for (auto const& m : mutations_of(cc, {}, true, &pools)) details.insert(m.detail);
  for (const char* asked : {"{scale_a_id}: 3 registers (documented 2)", "{scale_a_id}: 1 registers (documented 2)",
                            "{scale_a} as .b64 registers (documented .b32)",
                            "{scale_b_id} as .b32 registers (documented .u16)", "{scale_a_id} without braces",
                            "{scale_a} and {scale_a_id} swapped", "immediate in place of {a}"})
    EXPECT_TRUE(details.count(asked)) << asked;
  EXPECT_FALSE(details.count("immediate in place of {scale_a_id}"));
  EXPECT_FALSE(details.count("immediate in place of {scale_b_id}"));
}

// A kernel per form, built for the forms' targets (sm_120a, sm_120f and the family's), its
// instruction with every scale operand; no result of it is judged, and the reason says why.
TEST(MmaBlockScale, EachFormHasAKernelWhoseResultIsNotJudged) {
  const Suite& suite = block_scale_suite();
  std::map<std::string, int> kernels;
  for (auto const& k : suite.kernels) {
    const Variant& v = k.subject_instance().variant();
    if (v.operands.empty()) continue;
    ++kernels[v.name];
    EXPECT_FALSE(k.runnable()) << k.name;
    ASSERT_TRUE(v.semantics) << v.name;
    EXPECT_NE(v.semantics->unchecked().find("Block Scaling"), std::string::npos) << v.name;
    // a, b, c and d take %w0-%w13; scale-a-data and scale-b-data the next two, the selectors zeros
    EXPECT_TRUE(kind_of(k).instruction_text(k).ends_with(", %w14, {0, 0}, %w15, {0, 0};")) << k.name;
    const TargetSet& t = *v.requires_.targets;
    for (const char* on : {"sm_120a", "sm_120f", "sm_121a", "sm_121f"})
      EXPECT_TRUE(suite.specs.targets.contains(t, *suite.specs.targets.find(on))) << v.name << " " << on;
    for (const char* off : {"sm_90", "sm_90a", "sm_100a", "sm_120"})
      EXPECT_FALSE(suite.specs.targets.contains(t, *suite.specs.targets.find(off))) << v.name << " " << off;
  }
  EXPECT_EQ(kernels["mma.m16n8k64.mxf4"], 2);
  EXPECT_EQ(kernels["mma.m16n8k64.mxf4nvf4"], 2);
  EXPECT_EQ(kernels["mma.m16n8k32.mxf8f6f4"], 50);
}

// mma.sp's fragment sections (specs/mma.yaml 'sparse_fragments'; PTX ISA 9.0, 9.7.14.6.2.1-8): one
// entry per section with what the manual gives for each operand; the A blocks' rows and windows for a
// few lanes, worked out by hand from the manual's text (not from the code under test); the document
// checked against itself, and made to fail each way it can; the loader's errors at file:line:column.
// The audit's statements are tested in test_audit.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kinds/mma/formula_text.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

const SpecSet& specs() {
  static const SpecSet s = load_specs(spec_files());
  return s;
}

const SparseFragmentSection& section(const SpecSet& s, const std::string& name) {
  for (auto const& x : sparse_fragments(s))
    if (x.name == name) return x;
  throw std::runtime_error("no sparse fragment section " + name);
}

const SparseFragmentCheck& check_of(const std::vector<SparseFragmentCheck>& cs, const std::string& entry,
                                    const std::string& operand) {
  for (auto const& c : cs)
    if (c.entry == entry && c.operand == operand) return c;
  throw std::runtime_error("no check of " + entry + " " + operand);
}

// A run of `count` consecutive elements of one lane in one row and one window [first, last].
struct Run {
  int count, row, first, last;
};

// Lane `lane` of the section holds, from a0 on, the runs given (worked out by hand).
void expect_lane(const std::string& name, int lane, const std::vector<Run>& runs) {
  const SparseFragmentSection& s = section(specs(), name);
  const std::vector<SparseElement> es = sparse_elements(s);
  ASSERT_EQ(es.size(), static_cast<std::size_t>(32 * s.elements())) << name;
  int i = 0;
  for (auto const& r : runs)
    for (int n = 0; n < r.count; ++n, ++i) {
      const SparseElement& e = es[static_cast<std::size_t>(lane * s.elements() + i)];
      ASSERT_EQ(e.lane, lane);
      ASSERT_EQ(e.element, i);
      EXPECT_EQ(e.row, r.row) << name << " lane " << lane << " a" << i;
      EXPECT_EQ(e.firstcol, r.first) << name << " lane " << lane << " a" << i;
      EXPECT_EQ(e.lastcol, r.last) << name << " lane " << lane << " a" << i;
    }
  EXPECT_EQ(i, s.elements()) << name << ": the hand's runs cover every element of the lane";
}

std::string described(const SparseOperandText& t) {
  if (!t.same_as.empty()) return t.same_as.substr(0, t.same_as.find(' '));
  std::string out;
  for (auto const& f : t.figures) out += (out.empty() ? "" : ", ") + f;
  return out;
}

// The specs with one textual edit of specs/mma.yaml, checked.
std::vector<SparseFragmentCheck> checks_with(const std::string& from, const std::string& to) {
  return check_sparse_fragments(load_specs(spec_files("mma.yaml", from, to)));
}

// The 1-based line of the one occurrence of `text` in specs/mma.yaml (and its column, `skip`
// characters into it).
std::pair<int, int> position_of(const std::string& text, std::size_t skip = 0) {
  const std::string yaml = read_spec("mma.yaml");
  const std::size_t at = yaml.find(text) + skip;
  const std::size_t line_start = yaml.rfind('\n', at) + 1;
  return {static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<long>(at), '\n')) + 1,
          static_cast<int>(at - line_start) + 1};
}

SpecError load_error(const std::string& from, const std::string& to) {
  try {
    load_specs(spec_files("mma.yaml", from, to));
  } catch (const SpecError& e) {
    return e;
  }
  ADD_FAILURE() << "the specs loaded with '" << from << "' made '" << to << "'";
  return SpecError({}, "");
}

}  // namespace

// The README of shared/reference/ptx-isa/mma-fragments and the eight sections: for A a formula block
// each; B the same as a dense section in 6.2.1, .4, .5, .7 and pictures elsewhere; C/D always a
// dense section; the metadata pictures only.
TEST(SparseFragments, OneEntryPerSectionWithWhatTheManualGivesForEachOperand) {
  struct Row {
    const char *name, *section;
    int k, registers, nonzero, consecutive;
    const char *b, *cd, *metadata;
  };
  const std::vector<Row> manual = {
      {"mma.sp.m16n8k16.f16", "9.7.14.6.2.1", 16, 2, 2, 4, "9.7.14.5.8", "9.7.14.5.8", "Figure 119"},
      {"mma.sp.m16n8k32.f16", "9.7.14.6.2.2", 32, 4, 2, 4, "Figure 121", "9.7.14.5.8", "Figure 122"},
      {"mma.sp.m16n8k16.tf32", "9.7.14.6.2.3", 16, 4, 1, 2, "Figure 124", "9.7.14.5.8", "Figure 125"},
      {"mma.sp.m16n8k8.tf32", "9.7.14.6.2.4", 8, 2, 1, 2, "9.7.14.5.7", "9.7.14.5.7", "Figure 127"},
      {"mma.sp.m16n8k32.s8", "9.7.14.6.2.5", 32, 2, 4, 8, "9.7.14.5.10", "9.7.14.5.10", "Figure 129"},
      {"mma.sp.m16n8k64.s8", "9.7.14.6.2.6", 64, 4, 4, 8, "Figure 132, Figure 133, Figure 134, Figure 135",
       "9.7.14.5.9", "Figure 136, Figure 137"},
      {"mma.sp.m16n8k64.s4", "9.7.14.6.2.7", 64, 2, 8, 16, "9.7.14.5.11", "9.7.14.5.11", "Figure 139"},
      {"mma.sp.m16n8k128.s4", "9.7.14.6.2.8", 128, 4, 8, 16, "Figure 142, Figure 143, Figure 144, Figure 145",
       "9.7.14.5.11", "Figure 146, Figure 147"},
  };
  ASSERT_EQ(sparse_fragments(specs()).size(), manual.size());
  for (std::size_t n = 0; n < manual.size(); ++n) {
    const Row& r = manual[n];
    const SparseFragmentSection& s = sparse_fragments(specs())[n];
    EXPECT_EQ(s.name, r.name);
    EXPECT_EQ(s.section.substr(0, s.section.find(' ')), r.section) << r.name;
    EXPECT_EQ(s.family, "mma");
    EXPECT_EQ(s.m, 16) << r.name;
    EXPECT_EQ(s.n, 8) << r.name;
    EXPECT_EQ(s.k, r.k) << r.name;
    EXPECT_EQ(s.registers, r.registers) << r.name;
    EXPECT_EQ(s.per_register, r.nonzero) << r.name;
    EXPECT_EQ(s.consecutive, r.consecutive) << r.name;
    EXPECT_EQ(s.col_note,
              "[firstcol ... lastcol] // As per the mapping of non-zero elements\n// as described in Sparse matrix "
              "storage")
        << r.name;
    EXPECT_EQ(described(s.b), r.b) << r.name;
    EXPECT_EQ(described(s.cd), r.cd) << r.name;
    EXPECT_EQ(described(s.metadata), r.metadata) << r.name;
    EXPECT_NE(s.source.find("PTX ISA 9.0, " + s.section + ", Figure"), std::string::npos) << s.source;
  }
}

// Each lane by hand: groupID = %laneid >> 2, threadID_in_group = %laneid % 4, then the section's
// row, firstcol and lastcol lines as printed.
TEST(SparseFragments, RowsAndWindowsOfAFewLanesAsTheManualsTextGivesThem) {
  // 9.7.14.6.2.1, lane 9: groupID 2, threadID_in_group 1. "groupID for a0 and a1 / groupID + 8 for a2
  // and a3"; firstcol = 1 * 4 = 4, lastcol = 4 + 3.
  expect_lane("mma.sp.m16n8k16.f16", 9, {{2, 2, 4, 7}, {2, 10, 4, 7}});
  // 9.7.14.6.2.2, lane 2: groupID 0, threadID_in_group 2. Rows 0 for a0-a1 and a4-a5, 8 otherwise;
  // firstcol 2 * 4 = 8 "For ai where i < 4", (2 * 4) + 16 = 24 "for ai where i >= 4".
  expect_lane("mma.sp.m16n8k32.f16", 2, {{2, 0, 8, 11}, {2, 8, 8, 11}, {2, 0, 24, 27}, {2, 8, 24, 27}});
  // 9.7.14.6.2.3, lane 6: groupID 1, threadID_in_group 2. "groupID for a0 and a2 / groupID + 8 for a1
  // and a3"; firstcol 2 * 2 = 4 for a0 and a1, (2 * 2) + 8 = 12 for a2 and a3; lastcol = firstcol + 1.
  expect_lane("mma.sp.m16n8k16.tf32", 6, {{1, 1, 4, 5}, {1, 9, 4, 5}, {1, 1, 12, 13}, {1, 9, 12, 13}});
  // 9.7.14.6.2.4, lane 31: groupID 7, threadID_in_group 3: a0 row 7, a1 row 15, both [6, 7].
  expect_lane("mma.sp.m16n8k8.tf32", 31, {{1, 7, 6, 7}, {1, 15, 6, 7}});
  // 9.7.14.6.2.5, lane 13: groupID 3, threadID_in_group 1: firstcol 8, lastcol 15; rows 3 (a0-a3), 11.
  expect_lane("mma.sp.m16n8k32.s8", 13, {{4, 3, 8, 15}, {4, 11, 8, 15}});
  // 9.7.14.6.2.6, lane 5: groupID 1, threadID_in_group 1. Rows 1 for a0-a3 and a8-a11, 9 otherwise;
  // firstcol 8 "For ai where i < 8", 8 + 32 = 40 "For ai where i >= 8"; lastcol = firstcol + 7.
  expect_lane("mma.sp.m16n8k64.s8", 5, {{4, 1, 8, 15}, {4, 9, 8, 15}, {4, 1, 40, 47}, {4, 9, 40, 47}});
  // 9.7.14.6.2.7, lane 22: groupID 5, threadID_in_group 2: firstcol 32, lastcol 47; rows 5 (a0-a7), 13.
  expect_lane("mma.sp.m16n8k64.s4", 22, {{8, 5, 32, 47}, {8, 13, 32, 47}});
  // 9.7.14.6.2.8, lane 31: groupID 7, threadID_in_group 3. Rows 7 for a0-a7 and a16-a23, 15
  // otherwise; firstcol 48 "For ai where i < 16", 48 + 64 = 112 "For ai where i >= 16".
  expect_lane("mma.sp.m16n8k128.s4", 31, {{8, 7, 48, 63}, {8, 15, 48, 63}, {8, 7, 112, 127}, {8, 15, 112, 127}});
}

TEST(SparseFragments, EveryABlockHoldsAndTheOtherOperandsAreNeverGuessed) {
  const auto cs = check_sparse_fragments(specs());
  ASSERT_EQ(cs.size(), 4 * sparse_fragments(specs()).size());
  for (auto const& c : cs) {
    if (c.operand == "a") {
      EXPECT_EQ(c.what, "formula");
      EXPECT_TRUE(c.checked && c.holds) << c.entry << ": " << c.evidence;
    } else {
      EXPECT_FALSE(c.checked) << c.entry << " " << c.operand << ": " << c.evidence;
    }
  }
  const auto& a = check_of(cs, "mma.sp.m16n8k64.s8", "a");
  EXPECT_NE(a.evidence.find("32 lanes x 16 elements (4 registers of 4)"), std::string::npos) << a.evidence;
  EXPECT_NE(a.evidence.find("whole 2:4 chunks"), std::string::npos) << a.evidence;
  EXPECT_NE(a.evidence.find("tile its 64 columns once (8 windows, 32 non-zeros a row"), std::string::npos)
      << a.evidence;
  const auto& b = check_of(cs, "mma.sp.m16n8k128.s4", "b");
  EXPECT_EQ(b.what, "figures");
  EXPECT_EQ(b.evidence,
            "the manual gives only pictures (Figure 142, Figure 143, Figure 144, Figure 145): not encoded, not checked");
  EXPECT_EQ(b.source,
            "PTX ISA 9.0, 9.7.14.6.2.8 Matrix Fragments for sparse mma.m16n8k128 with .u4 / .s4 integer type, Figure "
            "142, Figure 143, Figure 144, Figure 145");
  const auto& ref = check_of(cs, "mma.sp.m16n8k8.tf32", "b");
  EXPECT_EQ(ref.what, "reference");
  EXPECT_EQ(ref.evidence,
            "the manual defers to 9.7.14.5.7 Matrix Fragments for mma.m16n8k8; the specs encode that section's B (K x "
            "N = 8 x 8 and an element type of A's, as here) in mma.m16n8k8.tf32 (their cases check it on the GPU); "
            "mma.sp is not run, so that its B is the same is not checked");
  EXPECT_EQ(check_of(cs, "mma.sp.m16n8k16.f16", "metadata").evidence,
            "the manual gives only pictures (Figure 119): not encoded, not checked");
}

// Each way an A block can contradict itself, its table or 9.7.14.6.1, made by one edit.
TEST(SparseFragments, ABlockThatCannotBeRightIsFoundWithTheLaneAndElement) {
  struct Edit {
    const char *entry, *from, *to, *evidence;
  };
  const std::vector<Edit> edits = {
      // (b) a window outside K: firstcol 3 * 3 = 9 for lane 3
      {"mma.sp.m16n8k8.tf32", "        threadID_in_group * 2\n", "        threadID_in_group * 3\n",
       "as printed, lane 3 a0: window [9, 10] is not within columns 0-7 (K = 8)"},
      // (a) a row outside M
      {"mma.sp.m16n8k32.s8", "        groupID + 8 Otherwise\n      col_note: *sp_col_note\n      firstcol: |-\n        "
                             "threadID_in_group * 8\n",
       "        groupID + 16 Otherwise\n      col_note: *sp_col_note\n      firstcol: |-\n        threadID_in_group * 8\n",
       "as printed, lane 0 a4: row 16 is outside rows 0-15 (M = 16)"},
      // (c) a register split over two rows
      {"mma.sp.m16n8k32.s8", "groupID for ai where 0 <= i < 4\n", "groupID for ai where 0 <= i < 3\n",
       "as printed, lane 0: a0 (row 0, window [0, 7]) and a3 (row 8, window [0, 7]) are both in register 0, but the "
       "table puts a register's 4 elements in one run of 8 consecutive elements"},
      // (c) a window not as wide as the table says
      {"mma.sp.m16n8k16.f16", "registers: 2\n      per_register: {nonzero: 2, consecutive: 4}",
       "registers: 2\n      per_register: {nonzero: 2, consecutive: 8}",
       "as printed, lane 0 register 0: window [0, 3] is 4 columns wide, but the table says 2 non-zero elements out "
       "of 8 consecutive elements"},
      // (c) windows that are not whole chunks of 9.7.14.6.1's granularity
      {"mma.sp.m16n8k8.tf32", "ratio: \"1:2\"", "ratio: \"2:4\"",
       "as printed, lane 0 register 0: window [0, 1] is not whole chunks of 4 (9.7.14.6.1: 2:4)"},
      // (c) windows whose non-zeros at 9.7.14.6.1's granularity are not the register's elements
      {"mma.sp.m16n8k64.s4", "ratio: \"4:8\"", "ratio: \"2:8\"",
       "as printed, lane 0 register 0: window [0, 15] holds 4 non-zero elements at 9.7.14.6.1's 2:8, but the "
       "register holds 8"},
      // (c) the windows of a row overlapping (and rows 8-15 left empty)
      {"mma.sp.m16n8k16.f16", "        groupID + 8 for a2 and a3\n      col_note: &",
       "        groupID for a2 and a3\n      col_note: &",
       "as printed, row 0, column 0 lies in 2 windows: lane 0 register 0, lane 0 register 1; the windows of a row "
       "must tile its 16 columns"},
      // no line of the formula applies
      {"mma.sp.m16n8k8.tf32", "        groupID + 8 for a1\n      col_note:", "        groupID + 8 for a2\n      col_note:",
       "as printed, no line of 'groupID for a0\ngroupID + 8 for a2' applies where laneid = 0, i = 1"},
  };
  for (auto const& e : edits) {
    const auto cs = checks_with(e.from, e.to);
    const auto& c = check_of(cs, e.entry, "a");
    EXPECT_TRUE(c.checked);
    EXPECT_FALSE(c.holds) << e.to;
    EXPECT_EQ(c.evidence.substr(0, std::string(e.evidence).size()), e.evidence) << c.evidence;
  }
}

// A dense section that lays out a B of other dimensions cannot be "the same".
TEST(SparseFragments, ADeferralToASectionOfOtherDimensionsCannotHold) {
  const auto cs = checks_with("      same_as: \"9.7.14.5.7 Matrix Fragments for mma.m16n8k8\"\n      words: &",
                              "      same_as: \"9.7.14.5.9 Matrix Fragments for mma.m16n8k16 with integer type\"\n"
                              "      words: &");
  const auto& c = check_of(cs, "mma.sp.m16n8k8.tf32", "b");
  EXPECT_TRUE(c.checked);
  EXPECT_FALSE(c.holds);
  EXPECT_EQ(c.evidence,
            "the manual defers to 9.7.14.5.9 Matrix Fragments for mma.m16n8k16 with integer type, but that section's "
            "B (in the specs: mma.m16n8k16.s8, mma.m16n8k16.f8) is not of this B (K x N = 8 x 8, element tf32): it "
            "cannot be the same");
}

TEST(SparseFragments, TheLoaderNamesWhereAnEntryIsWrong) {
  {
    const std::string from = "      pictures_only: [Figure 119]\n";
    const SpecError e = load_error(from, from + "      same_as: \"9.7.14.5.8 X\"\n");
    EXPECT_EQ(e.message, "expected either 'same_as' (the dense section the manual defers to) or 'pictures_only' (its "
                         "figures)");
    EXPECT_EQ(std::make_pair(e.where.line, e.where.column), position_of(from, 6));
  }
  {
    const SpecError e = load_error("[Figure 119]", "[Fig. 119]");
    EXPECT_EQ(e.message, "expected 'Figure NN' but found 'Fig. 119'");
    EXPECT_EQ(std::make_pair(e.where.line, e.where.column), position_of("[Figure 119]", 1));
  }
  {
    const SpecError e = load_error("name: mma.sp.m16n8k32.f16\n", "name: mma.sp.m16n8k16.f16\n");
    const auto first = position_of("name: mma.sp.m16n8k16.f16\n", 6);
    EXPECT_EQ(e.message, "duplicate sparse fragment section 'mma.sp.m16n8k16.f16' (first defined at specs/mma.yaml:" +
                             std::to_string(first.first) + ":" + std::to_string(first.second - 6) + ")");
    EXPECT_EQ(std::make_pair(e.where.line, e.where.column), position_of("name: mma.sp.m16n8k32.f16\n", 6));
  }
  {
    const SpecError e = load_error("    section: \"9.7.14.6.2.4 ", "    section: \"9.7.14.5.4 ");
    EXPECT_NE(e.message.find("expected a sparse fragment section, like '9.7.14.6.2.1 Matrix Fragments for ...'"),
              std::string::npos)
        << e.message;
    EXPECT_EQ(std::make_pair(e.where.line, e.where.column), position_of("    section: \"9.7.14.6.2.4 ", 13));
  }
  {
    // A typo in the notation: the line of the block scalar it is on.
    const std::string row = "      row: |-\n        groupID for a0 and a1\n        groupID + 8 for a2 and a3\n      col_note: &";
    std::string typo = row;
    typo.replace(typo.find(" and a1"), 7, " nd a1");
    const SpecError e = load_error(row, typo);
    EXPECT_NE(e.message.find("mma.sp.m16n8k16.f16 row: expected 'ai where CONDITION' or elements like 'a0 and a2'"),
              std::string::npos)
        << e.message;
    EXPECT_EQ(e.where.line, position_of(row).first + 1);
  }
  {
    const SpecError e = load_error("      lastcol: |-\n        firstcol + 1\n    b:\n      same_as: \"9.7.14.5.7",
                                   "      lastcol: |-\n        lastcol + 1\n    b:\n      same_as: \"9.7.14.5.7");
    EXPECT_NE(e.message.find("mma.sp.m16n8k8.tf32 lastcol uses unknown variable 'lastcol'"), std::string::npos)
        << e.message;
  }
}

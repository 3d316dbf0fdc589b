// Batch modules as text: splitting a kernel's module, entry names, composing a batch, and pinning
// ptxas's messages about a batch on its kernels (or giving up, so that they are assembled alone).
#include <gtest/gtest.h>

#include <regex>

#include "assemble/assembly_batch.hpp"

using namespace ptxcts;

namespace {

// A module in the skeleton's shape: comment lines, the header, one entry.
std::string module(const std::string& name, const std::string& body) {
  return "//\n// Kernel: " + name +
         "\n//\n"
         ".version 7.8\n.target sm_90\n.address_size 64\n\n"
         ".extern .shared .align 16 .b8 ptxcts_smem[];\n\n"
         ".visible .entry ptxcts_kernel(\n"
         "    .param .u64 p_smem_in)\n"
         "{\n" +
         body + "    ret;\n}\n";
}

const std::string kHeader =
    ".version 7.8\n.target sm_90\n.address_size 64\n\n.extern .shared .align 16 .b8 ptxcts_smem[];\n\n";

struct Fixture {
  std::vector<std::string> texts;
  std::vector<ModuleParts> parts;
  std::vector<BatchMember> members;
  BatchModule batch;
  explicit Fixture(std::vector<std::string> bodies) {
    for (std::size_t k = 0; k < bodies.size(); ++k) texts.push_back(module("k" + std::to_string(k), bodies[k]));
    for (auto const& t : texts) parts.push_back(*split_module(t));
    for (std::size_t k = 0; k < texts.size(); ++k)
      members.push_back({.entry = std::string_view(texts[k]).substr(parts[k].entry_offset),
                         .entry_line = parts[k].entry_line,
                         .name = "e" + std::to_string(k)});
    batch = compose_batch(parts[0].header, members);
  }
  // ptxas's line for `line` (1-based) of member k's entry, in the batch module.
  int at(std::size_t k, int line_in_entry) const { return batch.first_line[k] + line_in_entry - 1; }
};

std::string line_of(const std::string& text, int n) {
  std::size_t pos = 0;
  for (int k = 1; k < n; ++k) pos = text.find('\n', pos) + 1;
  return text.substr(pos, text.find('\n', pos) - pos);
}

}  // namespace

TEST(AssemblyBatch, SplitsHeaderWithoutCommentsFromTheEntry) {
  std::string text = module("ldmatrix.a", "    nop;\n");
  auto p = split_module(text);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->header, kHeader);
  EXPECT_EQ(p->entry_line, 10);
  EXPECT_EQ(text.compare(p->entry_offset, 30, ".visible .entry ptxcts_kernel("), 0);
  // Kernels that differ only in their comments share a header.
  EXPECT_EQ(split_module(module("stmatrix.b", ""))->header, p->header);
}

TEST(AssemblyBatch, OnlyTheSkeletonsShapeSplits) {
  EXPECT_FALSE(split_module(kHeader + ".visible .entry other(\n)\n{\n}\n"));
  EXPECT_FALSE(split_module(kHeader + "  .visible .entry ptxcts_kernel(\n)\n{\n}\n"));  // not at the line's start
  std::string two = module("a", "") + ".visible .entry ptxcts_kernel(\n)\n{\n}\n";
  EXPECT_FALSE(split_module(two));
}

TEST(AssemblyBatch, EntryNamesAreReadableUniqueIdentifiers) {
  const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  std::string a = entry_name("ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16_a32");
  EXPECT_TRUE(std::regex_match(a, identifier)) << a;
  EXPECT_EQ(a.rfind("ldmatrix_sync_aligned_m8n8_x2_shared__cta_b16_a32_", 0), 0u) << a;
  EXPECT_EQ(a, entry_name("ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16_a32"));
  EXPECT_NE(entry_name("a.b"), entry_name("a_b"));
  EXPECT_TRUE(std::regex_match(entry_name("9lives"), identifier));
  EXPECT_TRUE(std::regex_match(entry_name(""), identifier));
}

TEST(AssemblyBatch, ComposesTheHeaderOnceAndEachEntryRenamed) {
  Fixture f({"    nop;\n", "    nop;\n    nop;\n"});
  EXPECT_EQ(f.batch.text.rfind(kHeader, 0), 0u);
  EXPECT_EQ(f.batch.text.find(".version", 1), std::string::npos);
  EXPECT_EQ(f.batch.text.find("ptxcts_kernel"), std::string::npos);
  ASSERT_EQ(f.batch.first_line.size(), 2u);
  EXPECT_EQ(line_of(f.batch.text, f.batch.first_line[0]), ".visible .entry e0(");
  EXPECT_EQ(line_of(f.batch.text, f.batch.first_line[1]), ".visible .entry e1(");
  EXPECT_EQ(f.batch.first_line[0], 7);
  EXPECT_EQ(f.batch.first_line[1], 7 + 6);
  EXPECT_EQ(f.batch.line_count, 7 + 6 + 7 - 1);
}

TEST(AssemblyBatch, ErrorsGoToTheirKernelRenumberedToItsOwnModule) {
  Fixture f({"    nop;\n", "    bad;\n", "    nop;\n", "    worse;\n"});
  // Line 5 of an entry is line 14 of its own module (the entry starts at line 10).
  std::string output = "ptxas kernel.ptx, line " + std::to_string(f.at(1, 5)) +
                       "; error   : Feature 'x' requires .target sm_90 or higher\n" + "ptxas kernel.ptx, line " +
                       std::to_string(f.at(3, 5)) + "; error   : Feature 'y' requires PTX ISA .version 9.9 or later\n" +
                       "ptxas kernel.ptx, line " + std::to_string(f.at(3, 5)) +
                       "; error   : Feature 'z' not supported on .target 'sm_90'\n" + "ptxas kernel.ptx, line " +
                       std::to_string(f.at(2, 5)) + "; warning : something odd\n" +
                       "ptxas fatal   : Ptx assembly aborted due to errors\n";
  BatchVerdict v = judge_batch(f.batch, f.members, false, output);
  ASSERT_EQ(v.kind, BatchVerdict::Kind::Rejected);
  EXPECT_EQ(v.rejected, (std::vector<bool>{false, true, false, true}));
  EXPECT_EQ(v.messages[1],
            "ptxas kernel.ptx, line 14; error   : Feature 'x' requires .target sm_90 or higher\n"
            "ptxas fatal   : Ptx assembly aborted due to errors");
  EXPECT_EQ(v.messages[3],
            "ptxas kernel.ptx, line 14; error   : Feature 'y' requires PTX ISA .version 9.9 or later\n"
            "ptxas kernel.ptx, line 14; error   : Feature 'z' not supported on .target 'sm_90'\n"
            "ptxas fatal   : Ptx assembly aborted due to errors");
  EXPECT_EQ(v.messages[0], "");
  EXPECT_EQ(v.messages[2], "");  // only a warning: assembled again, and that run speaks for it
}

TEST(AssemblyBatch, ASyntaxErrorIsAnError) {
  Fixture f({"    nop;\n", "    mov.u32 %r1, ;\n"});
  BatchVerdict v = judge_batch(f.batch, f.members, false,
                               "ptxas kernel.ptx, line " + std::to_string(f.at(1, 4)) +
                                   "; fatal   : Parsing error near ';': syntax error\n"
                                   "ptxas fatal   : Ptx assembly aborted due to errors");
  ASSERT_EQ(v.kind, BatchVerdict::Kind::Rejected);
  EXPECT_EQ(v.rejected, (std::vector<bool>{false, true}));
  EXPECT_EQ(v.messages[1].rfind("ptxas kernel.ptx, line 13; fatal   : Parsing error near ';': syntax error\n", 0), 0u)
      << v.messages[1];
}

TEST(AssemblyBatch, AMessageWithoutALineFallsBack) {
  Fixture f({"    nop;\n", "    nop;\n"});
  BatchVerdict v =
      judge_batch(f.batch, f.members, false,
                  "ptxas error   : Entry function 'e1' uses too much shared data (0x10000 bytes, 0xc000 max)\n"
                  "ptxas fatal   : Ptx assembly aborted due to errors");
  EXPECT_EQ(v.kind, BatchVerdict::Kind::Fallback);
  EXPECT_EQ(v.rejected, (std::vector<bool>{false, false}));
}

TEST(AssemblyBatch, AnErrorInTheHeaderFallsBackEvenBesideAttributedOnes) {
  Fixture f({"    nop;\n", "    bad;\n"});
  BatchVerdict v =
      judge_batch(f.batch, f.members, false,
                  "ptxas kernel.ptx, line " + std::to_string(f.at(1, 5)) +
                      "; error   : Unknown modifier '.x'\n"
                      "ptxas kernel.ptx, line 2; error   : PTX .version 6.5 does not support .target sm_90\n"
                      "ptxas fatal   : Ptx assembly aborted due to errors");
  EXPECT_EQ(v.kind, BatchVerdict::Kind::Fallback);
}

TEST(AssemblyBatch, ALinePastTheEndOrNoErrorAtAllFallsBack) {
  Fixture f({"    nop;\n"});
  EXPECT_EQ(judge_batch(f.batch, f.members, false, "ptxas kernel.ptx, line 999; error   : ?\n").kind,
            BatchVerdict::Kind::Fallback);
  EXPECT_EQ(judge_batch(f.batch, f.members, false, "ptxas fatal   : Ptx assembly aborted due to errors").kind,
            BatchVerdict::Kind::Fallback);
  EXPECT_EQ(judge_batch(f.batch, f.members, false, "ptxas did not finish within 300 s").kind,
            BatchVerdict::Kind::Fallback);
}

TEST(AssemblyBatch, WarningsOnAnAcceptedBatchGoToTheirKernelOrToAll) {
  Fixture f({"    nop;\n", "    nop;\n"});
  BatchVerdict v = judge_batch(f.batch, f.members, true,
                               "ptxas kernel.ptx, line " + std::to_string(f.at(1, 5)) +
                                   "; warning : odd but fine\n"
                                   "ptxas warning : something about the whole module\n");
  ASSERT_EQ(v.kind, BatchVerdict::Kind::Accepted);
  EXPECT_EQ(v.rejected, (std::vector<bool>{false, false}));
  EXPECT_EQ(v.messages[0], "ptxas warning : something about the whole module");
  EXPECT_EQ(v.messages[1],
            "ptxas kernel.ptx, line 14; warning : odd but fine\nptxas warning : something about the whole module");
  EXPECT_EQ(judge_batch(f.batch, f.members, true, "").messages, (std::vector<std::string>{"", ""}));
}

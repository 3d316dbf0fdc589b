// libFuzzer target: the spec loader (and through it the formula parser and the layout checks) on
// arbitrary family-spec text, with the real targets.yaml and cases.yaml beside it. Any outcome but
// success or a SpecError is a finding: a crash, a hang, another exception, unbounded memory.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kinds/matrix_move/matrix_move_cases.hpp"
#include "kinds/matrix_move/matrix_move_operations.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_sparse_spec.hpp"
#include "kinds/mma/mma_spec.hpp"
#include "kinds/wmma/wmma_cases.hpp"
#include "kinds/wmma/wmma_spec.hpp"
#include "spec/formula.hpp"
#include "spec/kind_blocks.hpp"
#include "spec/spec_loader.hpp"

// spec/kind_blocks.hpp's lists, which kinds/kinds.cpp defines from the kinds in the harness: the
// fuzzer builds the spec stage alone, with the kinds' own operations and blocks (their readers, in
// the kinds' order) and layouts, so that the real specs read and mma's layouts are checked.
const std::vector<ptxcts::KindOperation>& ptxcts::kind_operations() {
  static const std::vector<KindOperation> operations = [] {
    std::vector<KindOperation> out;
    for (auto const& list : {matrix_move_operations(), wmma_operations(), mma_operations()})
      out.insert(out.end(), list.begin(), list.end());
    return out;
  }();
  return operations;
}
const std::vector<ptxcts::KindFamilyBlock>& ptxcts::kind_family_blocks() {
  static const std::vector<KindFamilyBlock> blocks = {sparse_fragments_block()};
  return blocks;
}
const std::vector<ptxcts::KindCaseBlock>& ptxcts::kind_case_blocks() {
  static const std::vector<KindCaseBlock> blocks = {matrix_move_case_block(), wmma_case_block(), mma_case_block()};
  return blocks;
}
const std::vector<ptxcts::KindLayout>& ptxcts::kind_layouts() {
  static const std::vector<KindLayout> layouts = {mma_layout()};
  return layouts;
}

namespace {
std::string g_targets, g_cases, g_diagnostics, g_documents;

std::string read(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_targets = read(PTXCTS_SOURCE_DIR "/specs/targets.yaml");
  g_cases = read(PTXCTS_SOURCE_DIR "/specs/cases.yaml");
  g_diagnostics = read(PTXCTS_SOURCE_DIR "/specs/diagnostics.yaml");
  g_documents = read(PTXCTS_SOURCE_DIR "/specs/documents.yaml");
  if (g_targets.empty() || g_cases.empty()) {
    std::fprintf(stderr, "fuzz_specs: cannot read the specs under %s\n", PTXCTS_SOURCE_DIR);
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ptxcts::load_specs({{.path = "targets.yaml", .text = g_targets},
                        {.path = "cases.yaml", .text = g_cases},
                        {.path = "diagnostics.yaml", .text = g_diagnostics},
                        {.path = "documents.yaml", .text = g_documents},
                        {.path = "family.yaml", .text = text}});
  } catch (const ptxcts::SpecError&) {}
  // The formula parser on its own, with every variable bound.
  try {
    ptxcts::Formula f = ptxcts::Formula::parse(text);
    ptxcts::Bindings b;
    for (auto const& v : f.variables()) b.set(v, 3);
    f.eval(b);
  } catch (const ptxcts::FormulaSyntaxError&) {
  } catch (const ptxcts::FormulaEvalError&) {}
  return 0;
}

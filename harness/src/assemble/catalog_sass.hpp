// What the catalog's kernels become: every accepted cubin disassembled (with nvdisasm, one process
// per target for all its cubins, in its raw-binary mode; with cuobjdump, or where that process
// fails, one per cubin, a cubin holding a whole batch of kernels), each kernel's SASS opcodes recorded in
// its assembly with those that its family's `sass:` expects for the instruction under test. The
// listing of a cubin is cached beside it (sealed; keyed by the cubin's seal and the disassembler's
// version), so a rebuild with nothing changed starts no disassembler. Without a disassembler, or
// where it fails, each assembly says why; nothing fails.
#pragma once

#include <filesystem>

#include "assemble/catalog_manifest.hpp"
#include "assemble/disassembler.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

struct SassStats {
  int cubins = 0;     // distinct accepted cubins
  int processes = 0;  // disassembler processes started
  int cached = 0;     // cubins whose listing came from the cache
  int failed = 0;     // cubins the disassembler failed on
  int kernels = 0;    // accepted kernels given SASS
  int unmatched = 0;  // of them, with an expectation but no opcode matching it
};

// Fills `sass` of every accepted assembly of `cat` (and cat.disassembler / cat.sass_unavailable).
void add_sass(Catalog& cat, const Suite& suite, const std::filesystem::path& dir, const DisassemblerChoice& choice,
              int jobs, SassStats* stats = nullptr);

// One kernel's record from its function's opcodes and its specs' expectation (exposed for tests).
AssemblySass kernel_sass(const std::vector<std::string>& function_opcodes, const SassExpectation* expectation);

}  // namespace ptxcts

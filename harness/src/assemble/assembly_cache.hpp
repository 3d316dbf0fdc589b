// Assembling through the catalog's content-addressed cache (dir/cache): one module alone, or a
// batch of kernels in one module (one ptxas process for all of them), so that a rebuild with
// nothing changed starts no ptxas at all.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "assemble/toolchain.hpp"

namespace ptxcts {

// Hash of module text + target + ptxas version: the name of everything cached about the module.
std::string content_key(const std::string& ptx, const std::string& target, const std::string& ptxas_version);

// One module assembled alone: cache/<key>.cubin (+ .log) if accepted, cache/<key>.rejected if
// rejected, nothing if ptxas failed (an error is tried again next time). The .log and .rejected
// records are sealed (util/sealed_file) and start with a line "obtained: <how>"
// (AssemblyOutcome::obtained); a .log's second line is its cubin's size and checksum, and the cubin
// is checked against it (and as a CUDA ELF for the target) on every read. A record that fails is
// said once, discarded and rebuilt.
struct Job {
  std::string ptx_text, target, key;
  AssemblyOutcome outcome;
  bool cached = false;     // no ptxas ran
  std::string cubin_seal;  // accepted: "<size> <xxh3-128>" of its cubin, checked on every read
};
void run_job(const Toolchain& tc, const std::filesystem::path& dir, Job& job);

// One kernel of a batch: its own single-kernel module (assembled alone if the batch cannot speak
// for it) and where its entry starts in it.
struct BatchKernel {
  Job alone;
  std::size_t entry_offset = 0;
  int entry_line = 0;
  std::string entry;  // its entry name in the batch module
  // The outcome (its `obtained` says whether the batch or the kernel alone gave it):
  AssemblyOutcome outcome;
  std::string cubin;        // "cache/<key>.cubin" when accepted
  std::string cubin_seal;   // its size and checksum
  std::string cubin_entry;  // the entry to launch in it: `entry`, or the skeleton's if assembled alone
};

// ptxas reports some errors only once the module's syntax is clean, so a batch may take a few
// runs; after these many, its remaining kernels are assembled alone.
inline constexpr int kBatchRounds = 4;

// Kernels of one target whose modules have the same header. The outcome is cached as
// cache/<key of the first module>.batch.json; a record that does not fit is rebuilt. If ptxas
// fails on the batch module (see AssemblyState::Error), the kernels still in it get that error,
// not a verdict; a batch with any error is not recorded, so the next build tries again (its runs
// that did give verdicts come from the cache).
struct Batch {
  std::string target, header;
  std::vector<BatchKernel> kernels;
  int ptxas_runs = 0;
};
void run_batch(const Toolchain& tc, const std::filesystem::path& dir, Batch& batch);

}  // namespace ptxcts

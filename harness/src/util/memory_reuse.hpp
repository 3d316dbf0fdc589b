// Memory freed kept for reuse, not handed back to the system: the audit builds and drops strings of
// hundreds of KiB (a module's text, ptxas's output) thousands of times from two or more threads,
// and glibc's defaults return each to the system (an mmap'd chunk, a trimmed heap), so that the
// next one pays a page fault per 4 KiB again.
#pragma once

namespace ptxcts {

// Called once, early in main (and in the benchmarks, which measure what the command does).
void keep_freed_memory();

}  // namespace ptxcts

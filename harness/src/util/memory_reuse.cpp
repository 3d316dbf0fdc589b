#include "util/memory_reuse.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ptxcts {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Chunks below 32 MiB (glibc's largest mmap threshold) from the heap; a heap trimmed only past 1 GiB free.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace ptxcts

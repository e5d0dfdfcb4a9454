// glibc's malloc tuning (mallopt(3)), which Swift's Glibc module does not bring in.
#ifndef MHZ_CMALLOC_SHIM_H
#define MHZ_CMALLOC_SHIM_H
#include <malloc.h>

// M_ARENA_MAX is a macro; this gives Swift the value as a constant it can see.
static inline int cmalloc_arena_max_option(void) { return M_ARENA_MAX; }
// M_MMAP_THRESHOLD likewise.
static inline int cmalloc_mmap_threshold_option(void) { return M_MMAP_THRESHOLD; }
#endif

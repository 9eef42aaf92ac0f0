#ifndef MARQUEE_ALLOCATION_COUNTER_H
#define MARQUEE_ALLOCATION_COUNTER_H

#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, aligned allocations) made by
/// the process since it started. Linked only into the benchmark, where it replaces the C
/// library's allocator entry points with counting wrappers around glibc's own.
uint64_t marquee_allocation_count(void);

#endif

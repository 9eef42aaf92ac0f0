// Counting wrappers around glibc's allocator, for marquee-bench only.
//
// Defining malloc and friends in the executable makes every allocation of the process
// (the Swift runtime's included) come here; each call counts one and forwards to glibc's
// __libc_* implementation, so memory is managed exactly as without the wrappers.
#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static uint64_t allocations;

uint64_t marquee_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

static void count(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
  count();
  return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
  count();
  return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
  count();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  count();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

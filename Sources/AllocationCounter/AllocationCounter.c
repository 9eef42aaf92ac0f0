// Counting wrappers around glibc's allocator, for marquee-bench only.
//
// Defining malloc and friends in the executable makes every allocation of the process
// (the Swift runtime's included) come here; each call counts one and forwards to glibc's
// __libc_* implementation, so memory is managed exactly as without the wrappers.
//
// Built as the shared library libMarqueeAllocationCounter.so, the same wrappers count the
// allocations of any program it is preloaded into (LD_PRELOAD): at exit the count is
// written, in decimal, to the file named by MARQUEE_ALLOCATION_REPORT. marquee-bench runs
// the real marquee binary this way.
#include "AllocationCounter.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

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

// Writes the count at exit, with system calls only (no allocation, no stdio).
__attribute__((destructor)) static void report(void) {
  const char *path = getenv("MARQUEE_ALLOCATION_REPORT");
  if (path == NULL || path[0] == 0) return;
  char text[24];
  int length = 0;
  uint64_t value = marquee_allocation_count();
  char digits[24];
  do {
    digits[length++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0);
  for (int i = 0; i < length; i++) text[i] = digits[length - 1 - i];
  text[length++] = '\n';
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t ignored = write(fd, text, (size_t)length);
  (void)ignored;
  close(fd);
}

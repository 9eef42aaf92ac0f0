// What the firmware's C side gives its Swift side: the board's output, arguments, exit and
// measurements. Everything here is in Hooks.c and Semihosting.c.
#ifndef MARQUEE_FIRMWARE_H
#define MARQUEE_FIRMWARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Writes `count` bytes to the host's standard output (fd 1) or standard error (fd 2).
void firmware_write(int fd, const void *bytes, size_t count);
/// The number of arguments the host passed (the program's name not counted).
int firmware_argument_count(void);
/// Argument `index` (0-based), NUL-terminated, percent-escapes decoded.
const char *firmware_argument(int index);
/// Ends the program with `status` (0: success).
_Noreturn void firmware_exit(int status);
/// A counter of the processor's clock (SysTick), 24 bits, counting down.
uint32_t firmware_clock_ticks(void);
/// Clock ticks taken by a loop of exactly `instructions` instructions (to turn ticks into
/// instructions under QEMU's -icount).
uint32_t firmware_calibrate(uint32_t instructions);
/// The highest address the heap has reached, less its start, in bytes.
size_t firmware_heap_peak(void);
/// The deepest the stack has been, in bytes.
size_t firmware_stack_peak(void);
/// How many blocks the heap has handed out so far.
int firmware_allocations(void);
/// The size of Swift's statically initialized objects, kept in flash.
size_t firmware_constant_objects_size(void);
/// Whether those objects are as linked (the firmware never wrote to them).
bool firmware_constant_objects_unchanged(void);
/// The RAM the image has: data, bss, heap and stack, in bytes.
size_t firmware_ram_size(void);
/// The static data's size (data and bss), in bytes.
size_t firmware_static_size(void);

#endif

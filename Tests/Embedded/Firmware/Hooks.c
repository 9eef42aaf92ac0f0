// The C side of the marquee firmware example: the vector table and reset, output and
// arguments over ARM semihosting (the debugger's or QEMU's), the heap, and the few hooks
// the Embedded Swift runtime needs (posix_memalign, putchar, arc4random_buf, and on
// armv6m the 4-byte atomics). A real board replaces semihosting with its UART or USB.
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "Firmware.h"

int marquee_firmware(void);
extern void __libc_init_array(void);

// Symbols of the linker script (mps2.ld).
extern uint32_t __data_load__, __data_start__, __data_end__, __bss_start__, __bss_end__;
extern char __heap_start__, __heap_limit__, __stack_limit__, __stack_top__;
extern uint32_t __constant_objects_start__, __constant_objects_end__;

// MARK: - Semihosting

enum {
  SYS_OPEN = 0x01, SYS_WRITE = 0x05, SYS_GET_CMDLINE = 0x15, SYS_EXIT = 0x18,
  ADP_Stopped_ApplicationExit = 0x20026, ADP_Stopped_RunTimeErrorUnknown = 0x20023,
};

static int semihost(int operation, void *argument) {
  register int r0 __asm__("r0") = operation;
  register void *r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

/// The host's handle for ":tt" opened for writing (standard output) or appending (error).
static int console(int fd) {
  static int handles[3] = {-1, -1, -1};
  if (handles[fd] < 0) {
    uint32_t block[3] = {(uint32_t)":tt", fd == 1 ? 4 : 8, 3};
    handles[fd] = semihost(SYS_OPEN, block);
  }
  return handles[fd];
}

void firmware_write(int fd, const void *bytes, size_t count) {
  if (count == 0) return;
  uint32_t block[3] = {(uint32_t)console(fd == 2 ? 2 : 1), (uint32_t)bytes, (uint32_t)count};
  semihost(SYS_WRITE, block);
}

_Noreturn void firmware_exit(int status) {
  // On 32-bit ARM the reason is the argument itself; QEMU exits 0 for ApplicationExit and
  // 1 for any other reason.
  semihost(SYS_EXIT, (void *)(status == 0 ? ADP_Stopped_ApplicationExit : ADP_Stopped_RunTimeErrorUnknown));
  for (;;) {}
}

// MARK: - Arguments

static char command_line[4096];
static const char *arguments[64];
static int argument_total;

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Reads the host's command line: words split by spaces, each with its bytes other than
/// letters and digits escaped as %XX by run-qemu.sh (so spaces and UTF-8 arrive whole).
/// The first word is the program's name.
static void read_arguments(void) {
  uint32_t block[2] = {(uint32_t)command_line, sizeof command_line - 1};
  if (semihost(SYS_GET_CMDLINE, block) != 0) return;
  command_line[block[1]] = 0;
  char *read = command_line, *write = command_line;
  int word = -1;
  while (*read) {
    while (*read == ' ') read++;
    if (!*read) break;
    if (word >= 0 && word < 64) arguments[word] = write;
    while (*read && *read != ' ') {
      int high, low;
      if (read[0] == '%' && (high = hex_value(read[1])) >= 0 && (low = hex_value(read[2])) >= 0) {
        *write++ = (char)(high * 16 + low);
        read += 3;
      } else {
        *write++ = *read++;
      }
    }
    if (*read) read++;
    *write++ = 0;
    word++;
  }
  argument_total = word < 0 ? 0 : (word > 64 ? 64 : word);
}

int firmware_argument_count(void) { return argument_total; }
const char *firmware_argument(int index) { return index >= 0 && index < argument_total ? arguments[index] : ""; }

// MARK: - Clock

#define SYST_CSR (*(volatile uint32_t *)0xE000E010)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018)

uint32_t firmware_clock_ticks(void) { return SYST_CVR; }

uint32_t firmware_calibrate(uint32_t instructions) {
  uint32_t loops = instructions / 2;
  uint32_t before = SYST_CVR;
  // Two instructions a turn: subtract, branch back.
  __asm__ volatile("1: subs %0, %0, #1\n bne 1b" : "+l"(loops) : : "cc");
  return (before - SYST_CVR) & 0xFFFFFF;
}

// MARK: - Memory

static char *heap_top = &__heap_start__;

void *_sbrk(ptrdiff_t increment) {
  if (increment > &__heap_limit__ - heap_top || increment < &__heap_start__ - heap_top) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = heap_top;
  heap_top += increment;
  return old;
}

size_t firmware_heap_peak(void) { return (size_t)(heap_top - &__heap_start__); }

#define STACK_PAINT 0xA5A5A5A5u

size_t firmware_stack_peak(void) {
  uint32_t *word = (uint32_t *)&__stack_limit__;
  while (word < (uint32_t *)&__stack_top__ && *word == STACK_PAINT) word++;
  return (size_t)((char *)&__stack_top__ - (char *)word);
}

static uint32_t constant_objects_sum;

uint32_t firmware_constant_objects_sum(void) {
  uint32_t sum = 0;
  for (const uint32_t *word = &__constant_objects_start__; word < &__constant_objects_end__; word++) sum = (sum << 5 | sum >> 27) ^ *word;
  return sum;
}

bool firmware_constant_objects_unchanged(void) { return firmware_constant_objects_sum() == constant_objects_sum; }

size_t firmware_constant_objects_size(void) {
  return (size_t)((char *)&__constant_objects_end__ - (char *)&__constant_objects_start__);
}

size_t firmware_ram_size(void) { return (size_t)(&__stack_top__ - (char *)&__data_start__); }
size_t firmware_static_size(void) { return (size_t)((char *)&__bss_end__ - (char *)&__data_start__); }

// MARK: - What the Embedded Swift runtime calls

static int allocations;

int firmware_allocations(void) { return allocations; }

int posix_memalign(void **memory, size_t alignment, size_t size) {
  allocations++;
  void *block = memalign(alignment < sizeof(void *) ? sizeof(void *) : alignment, size);
  if (!block) return ENOMEM;
  *memory = block;
  return 0;
}

static char line[128];
static size_t line_length;

int putchar(int c) {
  line[line_length++] = (char)c;
  if (c == '\n' || line_length == sizeof line) {
    firmware_write(1, line, line_length);
    line_length = 0;
  }
  return c;
}

/// Deterministic here (the runtime wants it only to seed hashing); a real board fills it
/// from its hardware generator (the RP2040's ring oscillator, an STM32's RNG).
void arc4random_buf(void *buffer, size_t count) {
  static uint32_t state = 0x2545F491u;
  uint8_t *bytes = buffer;
  for (size_t i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    bytes[i] = (uint8_t)state;
  }
}

#if defined(__ARM_ARCH_6M__)
// armv6m has no exclusive loads and stores, so LLVM calls these for Swift's reference
// counts. One core with interrupts masked makes each indivisible. (On the RP2040, whose
// two cores share memory, run Swift on one core or guard these with a hardware spinlock.)
static uint32_t mask_interrupts(void) {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n cpsid i" : "=r"(primask) : : "memory");
  return primask;
}
static void restore_interrupts(uint32_t primask) { __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory"); }

#define ATOMIC_RMW(name, op)                                                                \
  unsigned int __atomic_##name##_4(volatile void *address, unsigned int value, int order) { \
    (void)order;                                                                            \
    uint32_t primask = mask_interrupts();                                                   \
    volatile unsigned int *word = address;                                                  \
    unsigned int old = *word;                                                               \
    *word = op;                                                                             \
    restore_interrupts(primask);                                                            \
    return old;                                                                             \
  }
ATOMIC_RMW(fetch_add, old + value)
ATOMIC_RMW(fetch_sub, old - value)
ATOMIC_RMW(fetch_and, old & value)
ATOMIC_RMW(fetch_or, old | value)
ATOMIC_RMW(fetch_xor, old ^ value)
ATOMIC_RMW(exchange, value)

unsigned int __atomic_load_4(const volatile void *address, int order) {
  (void)order;
  return *(const volatile unsigned int *)address;
}

void __atomic_store_4(volatile void *address, unsigned int value, int order) {
  (void)order;
  *(volatile unsigned int *)address = value;
}

bool __atomic_compare_exchange_4(volatile void *address, void *expected, unsigned int desired, bool weak, int success, int failure) {
  (void)weak, (void)success, (void)failure;
  uint32_t primask = mask_interrupts();
  volatile unsigned int *word = address;
  bool equal = *word == *(unsigned int *)expected;
  if (equal) *word = desired; else *(unsigned int *)expected = *word;
  restore_interrupts(primask);
  return equal;
}
#endif

// MARK: - What the C library calls

void _init(void) {}
void _fini(void) {}
int _write(int fd, const void *bytes, size_t count) {
  firmware_write(fd, bytes, count);
  return (int)count;
}
_Noreturn void _exit(int status) { firmware_exit(status); }
int _kill(int pid, int signal) {
  (void)pid, (void)signal;
  errno = EINVAL;
  return -1;
}
int _getpid(void) { return 1; }

// MARK: - Reset and faults

void Reset_Handler(void) {
  for (uint32_t *from = &__data_load__, *to = &__data_start__; to < &__data_end__;) *to++ = *from++;
  for (uint32_t *word = &__bss_start__; word < &__bss_end__;) *word++ = 0;
  // Paint the stack below this frame, so its deepest use can be measured.
  uintptr_t below = (uintptr_t)__builtin_frame_address(0) - 64;
  for (uint32_t *word = (uint32_t *)&__stack_limit__; (uintptr_t)word < below;) *word++ = STACK_PAINT;
#if defined(__ARM_ARCH_7EM__)
  // The Cortex-M4F's floating-point unit: Swift's armv7em code uses its registers.
  *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
  __asm__ volatile("dsb\n isb" : : : "memory");
#endif
  SYST_RVR = 0xFFFFFF;
  SYST_CVR = 0;
  SYST_CSR = 5;  // enabled, on the processor's clock, no interrupt
  __libc_init_array();
  constant_objects_sum = firmware_constant_objects_sum();
  read_arguments();
  firmware_exit(marquee_firmware());
}

/// Says where the fault happened (the program counter the processor stacked) and exits 1.
/// `addr2line -e firmware.elf ADDRESS` names the function.
__attribute__((used)) static void report_fault(const uint32_t *stacked) {
  static const char digits[] = "0123456789abcdef";
  char message[] = "marquee firmware: hard fault at pc 0x00000000 (a trap in Swift, or a bad access)\n";
  uint32_t pc = stacked[6];
  for (int i = 0; i < 8; i++) message[44 - i] = digits[(pc >> (4 * i)) & 15];
  firmware_write(2, message, sizeof message - 1);
  firmware_exit(1);
}

__attribute__((naked)) static void HardFault_Handler(void) {
  // The stacked registers are on the main stack (the firmware never uses the process stack).
  __asm__ volatile("mrs r0, msp\n b report_fault");
}

static void Default_Handler(void) {
  static const char message[] = "marquee firmware: unexpected interrupt\n";
  firmware_write(2, message, sizeof message - 1);
  firmware_exit(1);
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
  (void (*)(void))&__stack_top__, Reset_Handler, Default_Handler, HardFault_Handler,
  Default_Handler, Default_Handler, Default_Handler, 0, 0, 0, 0,
  Default_Handler, Default_Handler, 0, Default_Handler, Default_Handler,
};

// A fake kernel for tests: spidev at the kernel's door, preloaded into the real binary.
//
// Environment:
//   MARQUEE_FAKE_SPIDEV       colon-separated device paths this library answers for
//   MARQUEE_FAKE_LOG          file that gets one line per system call answered (appended)
//   MARQUEE_FAKE_MAX_SPEED    the fastest clock the "controller" takes (default 125000000);
//                             a faster request is lowered to it, as real controllers do
//   MARQUEE_FAKE_BUFSIZ       spidev's bufsiz (default 4096): a message whose transfers
//                             together exceed it fails with EMSGSIZE
//   MARQUEE_FAKE_OPEN_ERRNO   errno that open() fails with (ENOENT, EACCES, ENXIO as numbers)
//   MARQUEE_FAKE_FAIL_AFTER   messages that succeed before every later one fails with EIO
//
// Log lines (all numbers decimal, data in hex):
//   open <path>
//   mode <path> <mode>            bits <path> <bits>          speed <path> <hz>
//   message <path> <transfers>
//   xfer <path> len=<n> speed=<hz> bits=<b> cs_change=<0|1> data=<hex>
//   close <path>
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_FDS 64

struct device {
  int fd;
  char path[128];
  uint8_t mode, bits;
  uint32_t speed;
};

static struct device devices[MAX_FDS];
static int messages;

static int (*real_openat)(int, const char *, int, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);

static void resolve(void) {
  if (!real_openat) real_openat = dlsym(RTLD_NEXT, "openat");
  if (!real_ioctl) real_ioctl = dlsym(RTLD_NEXT, "ioctl");
  if (!real_close) real_close = dlsym(RTLD_NEXT, "close");
}

static long number(const char *name, long fallback) {
  const char *text = getenv(name);
  return text && *text ? strtol(text, NULL, 10) : fallback;
}

// Appends one line to the log, with system calls only (no stdio buffers, no allocation).
static void log_line(const char *format, ...) {
  const char *path = getenv("MARQUEE_FAKE_LOG");
  if (!path || !*path) return;
  static char line[16384];
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(line, sizeof line - 1, format, arguments);
  va_end(arguments);
  if (length < 0) return;
  if (length > (int)sizeof line - 2) length = sizeof line - 2;
  line[length++] = '\n';
  int fd = real_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t ignored = write(fd, line, (size_t)length);
  (void)ignored;
  real_close(fd);
}

static int is_fake(const char *path) {
  const char *list = getenv("MARQUEE_FAKE_SPIDEV");
  if (!list || !path) return 0;
  size_t length = strlen(path);
  for (const char *start = list; *start;) {
    const char *end = strchr(start, ':');
    size_t part = end ? (size_t)(end - start) : strlen(start);
    if (part == length && strncmp(start, path, length) == 0) return 1;
    if (!end) break;
    start = end + 1;
  }
  return 0;
}

static struct device *device_of(int fd) {
  for (int i = 0; i < MAX_FDS; i++)
    if (devices[i].fd == fd && devices[i].path[0]) return &devices[i];
  return NULL;
}

static int open_fake(const char *path) {
  long failure = number("MARQUEE_FAKE_OPEN_ERRNO", 0);
  if (failure) {
    errno = (int)failure;
    return -1;
  }
  int fd = real_openat(AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return -1;
  for (int i = 0; i < MAX_FDS; i++) {
    if (!devices[i].path[0]) {
      devices[i].fd = fd;
      snprintf(devices[i].path, sizeof devices[i].path, "%s", path);
      devices[i].mode = 0;
      devices[i].bits = 8;
      devices[i].speed = 500000;
      log_line("open %s", path);
      return fd;
    }
  }
  real_close(fd);
  errno = EMFILE;
  return -1;
}

// open() and openat() alike: a spidev node of ours, or the real call.
static int answer_open(int directory, const char *path, int flags, mode_t mode) {
  resolve();
  if (is_fake(path)) return open_fake(path);
  return real_openat(directory, path, flags, mode);
}

// Both take a mode only with O_CREAT or O_TMPFILE.
#define MODE_ARGUMENT(arguments, flags) ((flags) & (O_CREAT | O_TMPFILE) ? va_arg(arguments, mode_t) : 0)

int open(const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = MODE_ARGUMENT(arguments, flags);
  va_end(arguments);
  return answer_open(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int directory, const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = MODE_ARGUMENT(arguments, flags);
  va_end(arguments);
  return answer_open(directory, path, flags, mode);
}

int openat64(int directory, const char *path, int flags, ...) __attribute__((alias("openat")));

static int spi_message(struct device *device, unsigned long request, struct spi_ioc_transfer *transfers) {
  unsigned size = _IOC_SIZE(request);
  if (size % sizeof(struct spi_ioc_transfer) != 0) {
    errno = EINVAL;
    return -1;
  }
  unsigned count = size / sizeof(struct spi_ioc_transfer);
  long bufsiz = number("MARQUEE_FAKE_BUFSIZ", 4096);
  long total = 0;
  for (unsigned i = 0; i < count; i++) total += transfers[i].len;
  // spidev refuses a message whose buffers do not fit its bounce buffer.
  if (total > bufsiz) {
    errno = EMSGSIZE;
    return -1;
  }
  long failAfter = number("MARQUEE_FAKE_FAIL_AFTER", -1);
  if (failAfter >= 0 && messages >= failAfter) {
    errno = EIO;
    return -1;
  }
  messages++;
  log_line("message %s %u", device->path, count);
  static char hex[8192];
  for (unsigned i = 0; i < count; i++) {
    const uint8_t *bytes = (const uint8_t *)(uintptr_t)transfers[i].tx_buf;
    unsigned length = transfers[i].len;
    unsigned shown = length < (sizeof hex - 1) / 2 ? length : (sizeof hex - 1) / 2;
    for (unsigned j = 0; j < shown; j++) snprintf(hex + 2 * j, 3, "%02x", bytes[j]);
    hex[2 * shown] = 0;
    uint32_t speed = transfers[i].speed_hz ? transfers[i].speed_hz : device->speed;
    unsigned bits = transfers[i].bits_per_word ? transfers[i].bits_per_word : device->bits;
    log_line("xfer %s len=%u speed=%u bits=%u cs_change=%u data=%s", device->path, length, speed, bits,
             transfers[i].cs_change, hex);
  }
  return (int)total;
}

// A one-byte setting (mode, bits per word): written and logged, or read back.
static int byte_setting(struct device *device, uint8_t *field, const char *name, int write, void *argument) {
  if (write) {
    *field = *(uint8_t *)argument;
    log_line("%s %s %u", name, device->path, *field);
  } else {
    *(uint8_t *)argument = *field;
  }
  return 0;
}

int ioctl(int fd, unsigned long request, ...) {
  resolve();
  va_list arguments;
  va_start(arguments, request);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  struct device *device = device_of(fd);
  if (!device) return real_ioctl(fd, request, argument);
  if (request == SPI_IOC_WR_MODE || request == SPI_IOC_RD_MODE)
    return byte_setting(device, &device->mode, "mode", request == SPI_IOC_WR_MODE, argument);
  if (request == SPI_IOC_WR_BITS_PER_WORD || request == SPI_IOC_RD_BITS_PER_WORD)
    return byte_setting(device, &device->bits, "bits", request == SPI_IOC_WR_BITS_PER_WORD, argument);
  if (request == SPI_IOC_WR_MAX_SPEED_HZ) {
    uint32_t wanted = *(uint32_t *)argument;
    long fastest = number("MARQUEE_FAKE_MAX_SPEED", 125000000);
    device->speed = wanted > fastest ? (uint32_t)fastest : wanted;
    log_line("speed %s %u", device->path, device->speed);
    return 0;
  }
  if (request == SPI_IOC_RD_MAX_SPEED_HZ) {
    *(uint32_t *)argument = device->speed;
    return 0;
  }
  if (_IOC_TYPE(request) == SPI_IOC_MAGIC && _IOC_NR(request) == 0 && _IOC_DIR(request) == _IOC_WRITE) {
    return spi_message(device, request, (struct spi_ioc_transfer *)argument);
  }
  errno = ENOTTY;
  return -1;
}

int close(int fd) {
  resolve();
  struct device *device = device_of(fd);
  if (device) {
    log_line("close %s", device->path);
    device->path[0] = 0;
    device->fd = -1;
  }
  return real_close(fd);
}

// A fake kernel for tests: spidev, i2c-dev and the GPIO character device at the kernel's
// door, preloaded into the real binary.
//
// Environment:
//   MARQUEE_FAKE_SPIDEV       colon-separated device paths this library answers for
//   MARQUEE_FAKE_I2C          an I2C bus this library answers for, and the 7-bit addresses
//                             (hex) of the devices on it that acknowledge:
//                             /dev/i2c-1=70,71,72
//   MARQUEE_FAKE_I2C_NAK      errno of a write nobody acknowledges (default EREMOTEIO, as
//                             i2c-bcm2835; some adapters give ENXIO)
//   MARQUEE_FAKE_I2C_FUNCS    the adapter's I2C_FUNCS mask (default: plain I2C and SMBus)
//   MARQUEE_FAKE_GPIOCHIP     colon-separated GPIO chips this library answers for, each with
//                             its number of lines: /dev/gpiochip0=54
//   MARQUEE_FAKE_GPIO_BUSY    a line offset another program holds (its request fails, EBUSY)
//   MARQUEE_FAKE_WIRE_TIME    1: an SPI message takes as long as its bits at its clock, as
//                             on real hardware (spidev blocks until the transfer is done)
//   MARQUEE_FAKE_LOG          file that gets one line per system call answered (appended)
//   MARQUEE_FAKE_MAX_SPEED    the fastest clock the "controller" takes (default 125000000);
//                             a faster request is lowered to it, as real controllers do
//   MARQUEE_FAKE_BUFSIZ       spidev's bufsiz (default 4096): a message whose transfers
//                             together exceed it fails with EMSGSIZE; with spidev faked,
//                             /sys/module/spidev/parameters/bufsiz reads it
//   MARQUEE_FAKE_OPEN_ERRNO   errno that open() fails with (ENOENT, EACCES, ENXIO as numbers)
//   MARQUEE_FAKE_FAIL_AFTER   messages (SPI messages or I2C writes) that succeed before every
//                             later one fails with EIO
//   MARQUEE_FAKE_GPIOMEM      a file that stands for the GPIO register block: opens of
//                             /dev/gpiomem and /dev/gpiomem0 open it instead, so the mapped
//                             registers are the file's bytes (the test reads them after a run);
//                             MARQUEE_FAKE_OPEN_ERRNO makes those opens fail too
//   MARQUEE_FAKE_DEVICE_TREE  a folder that stands for the device tree: opens of
//                             /sys/firmware/devicetree/base/NAME and /proc/device-tree/NAME
//                             open FOLDER/NAME instead
//   MARQUEE_FAKE_SLEEP_HANG   NAME:FILE: once FILE exists, a clock_nanosleep by a thread
//                             called NAME never returns (a scan thread stuck, for a
//                             watchdog's test; the test makes FILE when it wants the stop)
//   MARQUEE_FAKE_PROC_SUBSET  pid: /proc/device-tree is hidden (ENOENT), as systemd's
//                             ProcSubset=pid hides every /proc entry but the processes'
//
// Log lines (all numbers decimal, data in hex):
//   open <path>
//   mode <path> <mode>            bits <path> <bits>          speed <path> <hz>
//   message <path> <transfers>
//   xfer <path> len=<n> speed=<hz> bits=<b> cs_change=<0|1> t=<ns> data=<hex>
//                                     (t: CLOCK_MONOTONIC when the message started)
//   address <path> <hex address>                               (I2C_SLAVE)
//   i2c <path> addr=<hex address> data=<hex>                   (a write acknowledged)
//   nak <path> addr=<hex address>                              (a write nobody answered)
//   lines <chip> offsets=<o,o,...> values=<hex>                (GPIO_V2_GET_LINE_IOCTL)
//   set <chip> t=<ns> bits=<hex> mask=<hex>                    (GPIO_V2_LINE_SET_VALUES_IOCTL;
//                                     bit i is the request's i-th offset)
//   release <chip>                                             (the lines' descriptor closed)
//   close <path>
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/spi/spidev.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 64

enum kind { SPI, I2C, CHIP, LINES };

struct device {
  int fd;
  char path[128];  // for LINES, the chip's path
  enum kind kind;
  uint8_t mode, bits;
  uint32_t speed;
  long address;
  unsigned offsets[GPIO_V2_LINES_MAX];
  unsigned count;
};

static struct device devices[MAX_FDS];
static int messages;

static int (*real_openat)(int, const char *, int, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);
static ssize_t (*real_write)(int, const void *, size_t);

static void resolve(void) {
  if (!real_openat) real_openat = dlsym(RTLD_NEXT, "openat");
  if (!real_ioctl) real_ioctl = dlsym(RTLD_NEXT, "ioctl");
  if (!real_close) real_close = dlsym(RTLD_NEXT, "close");
  if (!real_write) real_write = dlsym(RTLD_NEXT, "write");
}

static long number(const char *name, long fallback) {
  const char *text = getenv(name);
  return text && *text ? strtol(text, NULL, 10) : fallback;
}

// Whether a log is kept (formatting the data costs more than the program being measured).
static int logging(void) {
  const char *path = getenv("MARQUEE_FAKE_LOG");
  return path && *path;
}

// Appends one line to the log, with system calls only (no stdio buffers, no allocation).
static void log_line(const char *format, ...) {
  const char *path = getenv("MARQUEE_FAKE_LOG");
  if (!path || !*path) return;
  static char line[2 * 65536 + 256];
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(line, sizeof line - 1, format, arguments);
  va_end(arguments);
  if (length < 0) return;
  if (length > (int)sizeof line - 2) length = sizeof line - 2;
  line[length++] = '\n';
  int fd = real_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t ignored = real_write(fd, line, (size_t)length);
  (void)ignored;
  real_close(fd);
}

// Whether `path` is one of the colon-separated entries of `list` (an entry may go on with
// `=` and more, as MARQUEE_FAKE_I2C's addresses do).
static int listed(const char *list, const char *path) {
  if (!list || !path) return 0;
  size_t length = strlen(path);
  for (const char *start = list; *start;) {
    const char *end = strchr(start, ':');
    size_t part = end ? (size_t)(end - start) : strlen(start);
    const char *equals = memchr(start, '=', part);
    size_t name = equals ? (size_t)(equals - start) : part;
    if (name == length && strncmp(start, path, length) == 0) return 1;
    if (!end) break;
    start = end + 1;
  }
  return 0;
}

static int is_spi(const char *path) { return listed(getenv("MARQUEE_FAKE_SPIDEV"), path); }
static int is_i2c(const char *path) { return listed(getenv("MARQUEE_FAKE_I2C"), path); }
static int is_chip(const char *path) { return listed(getenv("MARQUEE_FAKE_GPIOCHIP"), path); }

// The number of lines of a fake GPIO chip (`path=N` in MARQUEE_FAKE_GPIOCHIP, default 54).
static unsigned chip_lines(const char *path) {
  const char *list = getenv("MARQUEE_FAKE_GPIOCHIP");
  const char *at = list ? strstr(list, path) : NULL;
  if (!at) return 54;
  at += strlen(path);
  return *at == '=' ? (unsigned)strtoul(at + 1, NULL, 10) : 54;
}

static long long monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

// Whether a device at `address` acknowledges on the fake bus.
static int acknowledges(long address) {
  const char *list = getenv("MARQUEE_FAKE_I2C");
  const char *equals = list ? strchr(list, '=') : NULL;
  if (!equals) return 0;
  for (const char *at = equals + 1; *at && *at != ':';) {
    char *end;
    long value = strtol(at, &end, 16);
    if (end == at) break;
    if (value == address) return 1;
    at = *end == ',' ? end + 1 : end;
  }
  return 0;
}

static struct device *device_of(int fd) {
  for (int i = 0; i < MAX_FDS; i++)
    if (devices[i].fd == fd && devices[i].path[0]) return &devices[i];
  return NULL;
}

static int open_fake(const char *path, enum kind kind) {
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
      devices[i].kind = kind;
      devices[i].count = 0;
      devices[i].mode = 0;
      devices[i].bits = 8;
      devices[i].speed = 500000;
      devices[i].address = -1;
      if (kind != LINES) log_line("open %s", path);
      return fd;
    }
  }
  real_close(fd);
  errno = EMFILE;
  return -1;
}

// open() and openat() alike: a spidev or i2c-dev node of ours, or the real call.
static int answer_open(int directory, const char *path, int flags, mode_t mode) {
  resolve();
  if (is_spi(path)) return open_fake(path, SPI);
  if (is_chip(path)) return open_fake(path, CHIP);
  if (path && getenv("MARQUEE_FAKE_SPIDEV") && strcmp(path, "/sys/module/spidev/parameters/bufsiz") == 0) {
    // The module parameter, as sysfs shows it: the number and a newline.
    int fd = memfd_create("bufsiz", MFD_CLOEXEC);
    if (fd < 0) return -1;
    char text[32];
    int length = snprintf(text, sizeof text, "%ld\n", number("MARQUEE_FAKE_BUFSIZ", 4096));
    if (real_write(fd, text, (size_t)length) != length || lseek(fd, 0, SEEK_SET) != 0) {
      real_close(fd);
      return -1;
    }
    return fd;
  }
  if (is_i2c(path)) return open_fake(path, I2C);
  const char *registers = getenv("MARQUEE_FAKE_GPIOMEM");
  if (path && registers && (strcmp(path, "/dev/gpiomem") == 0 || strcmp(path, "/dev/gpiomem0") == 0)) {
    log_line("open %s", path);
    long failure = number("MARQUEE_FAKE_OPEN_ERRNO", 0);
    if (failure) {
      errno = (int)failure;
      return -1;
    }
    return real_openat(AT_FDCWD, registers, flags & ~(O_CREAT | O_TRUNC), 0);
  }
  const char *tree = getenv("MARQUEE_FAKE_DEVICE_TREE");
  static const char proc_tree[] = "/proc/device-tree/";
  static const char sys_tree[] = "/sys/firmware/devicetree/base/";
  const char *subset = getenv("MARQUEE_FAKE_PROC_SUBSET");
  int in_proc = path && strncmp(path, proc_tree, sizeof proc_tree - 1) == 0;
  int in_sys = path && strncmp(path, sys_tree, sizeof sys_tree - 1) == 0;
  if (in_proc && subset && strcmp(subset, "pid") == 0) {
    log_line("open %s hidden", path);
    errno = ENOENT;
    return -1;
  }
  if (tree && (in_proc || in_sys)) {
    char redirected[512];
    const char *name = path + (in_proc ? sizeof proc_tree : sizeof sys_tree) - 1;
    snprintf(redirected, sizeof redirected, "%s/%s", tree, name);
    return real_openat(AT_FDCWD, redirected, flags, mode);
  }
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
  long long started = monotonic_ns();
  if (number("MARQUEE_FAKE_WIRE_TIME", 0)) {
    // The bits take their time on the wire; spidev returns when they are out.
    long long wire = 0;
    for (unsigned i = 0; i < count; i++) {
      uint32_t hz = transfers[i].speed_hz ? transfers[i].speed_hz : device->speed;
      wire += (long long)transfers[i].len * 8 * 1000000000LL / (hz ? hz : 1);
    }
    struct timespec until = {.tv_sec = (started + wire) / 1000000000LL, .tv_nsec = (started + wire) % 1000000000LL};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {}
  }
  if (!logging()) return (int)total;
  log_line("message %s %u", device->path, count);
  static char hex[2 * 65536 + 1];
  for (unsigned i = 0; i < count; i++) {
    const uint8_t *bytes = (const uint8_t *)(uintptr_t)transfers[i].tx_buf;
    unsigned length = transfers[i].len;
    unsigned shown = length < (sizeof hex - 1) / 2 ? length : (sizeof hex - 1) / 2;
    for (unsigned j = 0; j < shown; j++) snprintf(hex + 2 * j, 3, "%02x", bytes[j]);
    hex[2 * shown] = 0;
    uint32_t speed = transfers[i].speed_hz ? transfers[i].speed_hz : device->speed;
    unsigned bits = transfers[i].bits_per_word ? transfers[i].bits_per_word : device->bits;
    log_line("xfer %s len=%u speed=%u bits=%u cs_change=%u t=%lld data=%s", device->path, length, speed, bits,
             transfers[i].cs_change, started, hex);
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

// i2c-dev's ioctls: I2C_SLAVE takes the address as the argument itself.
static int i2c_control(struct device *device, unsigned long request, void *argument) {
  if (request == I2C_SLAVE) {
    long address = (long)(uintptr_t)argument;
    if (address < 0 || address > 0x7f) {
      errno = EINVAL;
      return -1;
    }
    device->address = address;
    log_line("address %s %02lx", device->path, address);
    return 0;
  }
  if (request == I2C_FUNCS) {
    long functions = number("MARQUEE_FAKE_I2C_FUNCS", I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL);
    *(unsigned long *)argument = (unsigned long)functions;
    return 0;
  }
  errno = ENOTTY;
  return -1;
}

// Line offsets held by a request, per chip, so a second request for one fails as the
// kernel's does (EBUSY).
static struct { char chip[128]; unsigned offset; int used; } held[256];

static int is_held(const char *chip, unsigned offset) {
  if ((long)offset == number("MARQUEE_FAKE_GPIO_BUSY", -1)) return 1;
  for (int i = 0; i < 256; i++)
    if (held[i].used && held[i].offset == offset && strcmp(held[i].chip, chip) == 0) return 1;
  return 0;
}

static void hold(const char *chip, unsigned offset, int used) {
  for (int i = 0; i < 256; i++) {
    if (used && !held[i].used) {
      snprintf(held[i].chip, sizeof held[i].chip, "%s", chip);
      held[i].offset = offset;
      held[i].used = 1;
      return;
    }
    if (!used && held[i].used && held[i].offset == offset && strcmp(held[i].chip, chip) == 0) {
      held[i].used = 0;
      return;
    }
  }
}

// GPIO_V2_GET_LINE_IOCTL on a chip: output lines, a new descriptor for them.
static int gpio_request(struct device *chip, struct gpio_v2_line_request *request) {
  unsigned lines = chip_lines(chip->path);
  if (request->num_lines == 0 || request->num_lines > GPIO_V2_LINES_MAX) {
    errno = EINVAL;
    return -1;
  }
  for (unsigned i = 0; i < request->num_lines; i++) {
    if (request->offsets[i] >= lines) {
      errno = EINVAL;
      return -1;
    }
    if (is_held(chip->path, request->offsets[i])) {
      errno = EBUSY;
      return -1;
    }
  }
  int fd = open_fake(chip->path, LINES);
  if (fd < 0) return -1;
  struct device *line = device_of(fd);
  line->count = request->num_lines;
  char list[GPIO_V2_LINES_MAX * 4 + 1] = "";
  size_t used = 0;
  for (unsigned i = 0; i < request->num_lines; i++) {
    line->offsets[i] = request->offsets[i];
    hold(chip->path, request->offsets[i], 1);
    used += (size_t)snprintf(list + used, sizeof list - used, i ? ",%u" : "%u", request->offsets[i]);
  }
  unsigned long long values = 0;
  for (unsigned i = 0; i < request->config.num_attrs && i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++)
    if (request->config.attrs[i].attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES)
      values |= request->config.attrs[i].attr.values & request->config.attrs[i].mask;
  int output = (request->config.flags & GPIO_V2_LINE_FLAG_OUTPUT) != 0;
  log_line("lines %s offsets=%s values=%llx output=%d", chip->path, list, values, output);
  request->fd = fd;
  return 0;
}

// GPIO_V2_LINE_SET_VALUES_IOCTL on a request's descriptor: the lines of the mask, together.
static int gpio_set(struct device *line, struct gpio_v2_line_values *values) {
  // MARQUEE_FAKE_GPIO_HANG_AFTER=N: the N-th setting of lines never returns, as a driver
  // stuck in the kernel would not (a watchdog's test).
  static long sets = 0;
  const char *hang = getenv("MARQUEE_FAKE_GPIO_HANG_AFTER");
  if (hang && ++sets >= atol(hang)) {
    for (;;) sleep(1000);
  }
  unsigned long long all = line->count == 64 ? ~0ULL : (1ULL << line->count) - 1;
  if (values->mask == 0 || (values->mask & ~all)) {
    errno = EINVAL;
    return -1;
  }
  if (logging()) {
    log_line("set %s t=%lld bits=%llx mask=%llx", line->path, monotonic_ns(), (unsigned long long)values->bits,
             (unsigned long long)values->mask);
  }
  return 0;
}

// A write to an i2c-dev descriptor: one message to the address I2C_SLAVE chose.
static ssize_t i2c_write(struct device *device, const void *buffer, size_t count) {
  long failAfter = number("MARQUEE_FAKE_FAIL_AFTER", -1);
  if (failAfter >= 0 && messages >= failAfter) {
    errno = EIO;
    return -1;
  }
  // i2c-dev sends at most 8192 bytes a write.
  if (count > 8192) count = 8192;
  if (device->address < 0 || !acknowledges(device->address)) {
    log_line("nak %s addr=%02lx", device->path, device->address < 0 ? 0 : device->address);
    errno = (int)number("MARQUEE_FAKE_I2C_NAK", EREMOTEIO);
    return -1;
  }
  messages++;
  if (!logging()) return (ssize_t)count;
  static char hex[2 * 8192 + 1];
  const uint8_t *bytes = buffer;
  for (size_t j = 0; j < count; j++) snprintf(hex + 2 * j, 3, "%02x", bytes[j]);
  hex[2 * count] = 0;
  log_line("i2c %s addr=%02lx data=%s", device->path, device->address, hex);
  return (ssize_t)count;
}

ssize_t write(int fd, const void *buffer, size_t count) {
  resolve();
  struct device *device = device_of(fd);
  if (device && device->kind == I2C) return i2c_write(device, buffer, count);
  return real_write(fd, buffer, count);
}

int ioctl(int fd, unsigned long request, ...) {
  resolve();
  va_list arguments;
  va_start(arguments, request);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  struct device *device = device_of(fd);
  if (!device) return real_ioctl(fd, request, argument);
  if (device->kind == I2C) return i2c_control(device, request, argument);
  if (device->kind == CHIP) {
    if (request == GPIO_V2_GET_LINE_IOCTL) return gpio_request(device, argument);
    errno = ENOTTY;
    return -1;
  }
  if (device->kind == LINES) {
    if (request == GPIO_V2_LINE_SET_VALUES_IOCTL) return gpio_set(device, argument);
    errno = ENOTTY;
    return -1;
  }
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
  if (device && device->kind == LINES) {
    log_line("release %s", device->path);
    for (unsigned i = 0; i < device->count; i++) hold(device->path, device->offsets[i], 0);
    device->path[0] = 0;
    device->fd = -1;
  } else if (device) {
    log_line("close %s", device->path);
    device->path[0] = 0;
    device->fd = -1;
  }
  return real_close(fd);
}

// Sleeps pass through, except a named thread's once the test asks it to hang
// (MARQUEE_FAKE_SLEEP_HANG=NAME:FILE).
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remain) {
  static int (*real)(clockid_t, int, const struct timespec *, struct timespec *);
  if (!real) real = (int (*)(clockid_t, int, const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "clock_nanosleep");
  const char *hang = getenv("MARQUEE_FAKE_SLEEP_HANG");
  const char *colon = hang ? strchr(hang, ':') : NULL;
  if (colon) {
    char name[17] = {0};
    prctl(PR_GET_NAME, name);
    if (strlen(name) == (size_t)(colon - hang) && strncmp(name, hang, (size_t)(colon - hang)) == 0 && access(colon + 1, F_OK) == 0) {
      log_line("hang %s", name);
      for (;;) sleep(1000);
    }
  }
  return real(clock, flags, request, remain);
}

#ifndef MARQUEE_CKERNEL_H
#define MARQUEE_CKERNEL_H

// The kernel's own uAPI headers: request numbers and struct layouts come from them, so
// the compiler checks what the transports send to the kernel.
#include <string.h>
#include <sys/ioctl.h>

#include <linux/gpio.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/spi/spidev.h>

// The request macros (_IOW and friends) do not import into Swift: these do.
static inline unsigned long marquee_spi_wr_mode(void) { return SPI_IOC_WR_MODE; }
static inline unsigned long marquee_spi_rd_mode(void) { return SPI_IOC_RD_MODE; }
static inline unsigned long marquee_spi_wr_bits_per_word(void) { return SPI_IOC_WR_BITS_PER_WORD; }
static inline unsigned long marquee_spi_rd_bits_per_word(void) { return SPI_IOC_RD_BITS_PER_WORD; }
static inline unsigned long marquee_spi_wr_max_speed_hz(void) { return SPI_IOC_WR_MAX_SPEED_HZ; }
static inline unsigned long marquee_spi_rd_max_speed_hz(void) { return SPI_IOC_RD_MAX_SPEED_HZ; }
/// SPI_IOC_MESSAGE(count), or 0 when `count` transfers do not fit the request's size field.
static inline unsigned long marquee_spi_ioc_message(unsigned count) {
  return SPI_MSGSIZE(count) == 0 ? 0 : SPI_IOC_MESSAGE(count);
}

/// I2C_SLAVE: the address later read() and write() calls on an i2c-dev descriptor talk to.
static inline unsigned long marquee_i2c_slave(void) { return I2C_SLAVE; }
/// I2C_FUNCS: the adapter's functionality bits.
static inline unsigned long marquee_i2c_funcs(void) { return I2C_FUNCS; }
/// I2C_FUNC_I2C: the adapter does plain I2C transfers (what write() needs).
static inline unsigned long marquee_i2c_func_i2c(void) { return I2C_FUNC_I2C; }
/// ioctl(fd, I2C_SLAVE, address): i2c-dev takes the address as the argument itself, which
/// Swift's import of the variadic ioctl cannot pass.
static inline int marquee_i2c_set_address(int fd, unsigned address) {
  return ioctl(fd, I2C_SLAVE, (unsigned long)address);
}
/// GPIO_V2_GET_LINE_IOCTL on a chip's descriptor: `count` lines as outputs, set to
/// `values` (bit i for offsets[i]) from the start. Returns the lines' descriptor, or -1 with
/// errno set.
static inline int marquee_gpio_request_outputs(
    int chip, const unsigned *offsets, unsigned count, const char *consumer, unsigned long long values) {
  struct gpio_v2_line_request request;
  memset(&request, 0, sizeof request);
  if (count == 0 || count > GPIO_V2_LINES_MAX) return -1;
  for (unsigned i = 0; i < count; i++) request.offsets[i] = offsets[i];
  strncpy(request.consumer, consumer, GPIO_MAX_NAME_SIZE - 1);
  request.config.flags = GPIO_V2_LINE_FLAG_OUTPUT;
  request.config.num_attrs = 1;
  request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
  request.config.attrs[0].attr.values = values;
  request.config.attrs[0].mask = count == 64 ? ~0ULL : (1ULL << count) - 1;
  request.num_lines = count;
  if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &request) < 0) return -1;
  return request.fd;
}

/// GPIO_V2_LINE_SET_VALUES_IOCTL: the lines of `mask` (bit i for the request's i-th line)
/// set to `bits`, together. Returns 0, or -1 with errno set.
static inline int marquee_gpio_set_values(int lines, unsigned long long bits, unsigned long long mask) {
  struct gpio_v2_line_values values = {.bits = bits, .mask = mask};
  return ioctl(lines, GPIO_V2_LINE_SET_VALUES_IOCTL, &values);
}

#endif

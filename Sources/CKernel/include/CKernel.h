#ifndef MARQUEE_CKERNEL_H
#define MARQUEE_CKERNEL_H

// The kernel's own uAPI headers: request numbers and struct layouts come from them, so
// the compiler checks what the transports send to the kernel.
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

#endif

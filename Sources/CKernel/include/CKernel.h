#ifndef MARQUEE_CKERNEL_H
#define MARQUEE_CKERNEL_H

// The kernel's own uAPI headers: request numbers and struct layouts come from them, so
// the compiler checks what the transports send to the kernel.
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

#endif

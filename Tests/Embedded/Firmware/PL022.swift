import MAX7219Core
import _Volatile

/// An SPI transport for an Arm PrimeCell PL022 synchronous serial port: the RP2040's two SPI
/// blocks (at 0x4003C000 and 0x40040000), and the MPS2 boards' that QEMU models.
///
/// Each byte is written to the transmit FIFO and the byte the shifter clocked in is read
/// back, so the receive FIFO never fills. In loopback (the QEMU test, where nothing is wired
/// to the port) the bytes read back are the bytes that left the shifter; on a board the
/// chain's output comes back, which a MAX7219 chain does not drive. A MAX7219 latches a
/// transaction when its LOAD (chip select) line rises: `latch` drives that line (a GPIO
/// on a board: low before a transaction, high after it).
struct PL022 {
  /// Control register 0: frame format, data size, clock rate.
  let control0: VolatileMappedRegister<UInt32>
  /// Control register 1: enable, loopback.
  let control1: VolatileMappedRegister<UInt32>
  /// The data register: a write queues a byte, a read takes one received.
  let data: VolatileMappedRegister<UInt32>
  /// The status register.
  let status: VolatileMappedRegister<UInt32>
  /// The clock prescaler.
  let prescale: VolatileMappedRegister<UInt32>
  /// Drives LOAD: `false` before a transaction, `true` after it.
  let latch: (Bool) -> Void

  static let transmitNotFull: UInt32 = 1 << 1
  static let receiveNotEmpty: UInt32 = 1 << 2

  /// Sets the port up as master, Motorola SPI mode 0, 8-bit frames, at the peripheral clock
  /// divided by `divisor` (even, 2...254; an RP2040 at 125 MHz over 16: 7.8 MHz, under the
  /// MAX7219's 10 MHz).
  init(base: UInt, divisor: UInt32 = 16, loopback: Bool = false, latch: @escaping (Bool) -> Void = { _ in }) {
    control0 = VolatileMappedRegister(unsafeBitPattern: base + 0x00)
    control1 = VolatileMappedRegister(unsafeBitPattern: base + 0x04)
    data = VolatileMappedRegister(unsafeBitPattern: base + 0x08)
    status = VolatileMappedRegister(unsafeBitPattern: base + 0x0C)
    prescale = VolatileMappedRegister(unsafeBitPattern: base + 0x10)
    self.latch = latch
    control1.store(0)
    prescale.store(divisor)
    control0.store(7)  // 8-bit data, Motorola frame format, SPO = SPH = 0, no extra divide
    control1.store((loopback ? 1 : 0) | 1 << 1)  // LBM, SSE; master
  }

  /// Sends each transaction, latched, and appends the bytes the port received to
  /// `received`.
  func send(_ transactions: SPITransactions, receiving received: inout [UInt8]) {
    for index in 0..<transactions.count {
      latch(false)
      for byte in transactions.transaction(index) {
        while status.load() & Self.transmitNotFull == 0 {}
        data.store(UInt32(byte))
        while status.load() & Self.receiveNotEmpty == 0 {}
        received.append(UInt8(truncatingIfNeeded: data.load()))
      }
      latch(true)
    }
  }
}

import Platform
import CKernel
import MatrixCore

/// The Linux spidev driver: `/dev/spidevB.C`, opened once and kept open.
///
/// Set up for the MAX7219: SPI mode 0, 8 bits per word, MSB first, and the requested clock
/// (read back from the driver, which may lower it). Each batch of transactions goes out as
/// `SPI_IOC_MESSAGE` ioctls with one transfer per transaction: `cs_change` set on all but the
/// last transfer, so chip select rises (and the chain latches) between transactions. Batches
/// are split to stay within the driver's buffer (`bufsiz`), counting each transfer's length
/// rounded up to the largest DMA alignment (128 bytes on arm64).
public final class SpidevTransport: SPITransport {
  /// The device path.
  public let path: String
  /// The clock the driver accepted, in hertz.
  public private(set) var speedHz: UInt32 = 0
  /// The driver's per-message buffer size.
  public let bufferSize: Int
  var descriptor: Int32
  let requestedSpeed: Int
  /// The `struct spi_ioc_transfer` records of a message, reused.
  var records: [spi_ioc_transfer] = []

  // ioctl requests, from <linux/spi/spidev.h> through the CKernel target.
  static let writeMode = UInt(marquee_spi_wr_mode())
  static let readMode = UInt(marquee_spi_rd_mode())
  static let writeBitsPerWord = UInt(marquee_spi_wr_bits_per_word())
  static let readBitsPerWord = UInt(marquee_spi_rd_bits_per_word())
  static let writeMaxSpeed = UInt(marquee_spi_wr_max_speed_hz())
  static let readMaxSpeed = UInt(marquee_spi_rd_max_speed_hz())
  /// The size of `struct spi_ioc_transfer` (the header's; 32 bytes on every architecture).
  static let transferSize = MemoryLayout<spi_ioc_transfer>.size
  /// The largest transfer alignment the driver may apply (ARCH_DMA_MINALIGN on arm64).
  static let transferAlignment = 128

  /// `SPI_IOC_MESSAGE(count)`.
  static func messageRequest(count: Int) -> UInt {
    UInt(marquee_spi_ioc_message(UInt32(count)))
  }

  /// Opens and configures the device.
  ///
  /// - Throws: ``SPIError`` naming the device, with advice for the usual causes (SPI not
  ///   enabled, not in the `spi` group, not an SPI device).
  public init(path: String, speedHz requested: Int) throws(SPIError) {
    self.path = path
    requestedSpeed = requested
    descriptor = -1
    bufferSize = SpidevTransport.readBufferSize()
    try openDevice()
  }

  /// Opens and configures the device (again).
  func openDevice() throws(SPIError) {
    let requested = requestedSpeed
    let fd = StopSignal.open(path, OpenFlag.readWrite | OpenFlag.closeOnExec)
    guard fd >= 0 else { throw SPIError(path: path, code: Errno.current, operation: "open") }
    descriptor = fd
    do throws(SPIError) {
      var mode: UInt8 = 0
      try control(SpidevTransport.writeMode, &mode, "set SPI mode 0")
      try control(SpidevTransport.readMode, &mode, "read the SPI mode")
      var bits: UInt8 = 8
      try control(SpidevTransport.writeBitsPerWord, &bits, "set 8 bits per word")
      try control(SpidevTransport.readBitsPerWord, &bits, "read the bits per word")
      var speed = UInt32(requested)
      try control(SpidevTransport.writeMaxSpeed, &speed, "set the clock to \(requested) Hz")
      try control(SpidevTransport.readMaxSpeed, &speed, "read the clock")
      speedHz = speed
      if mode & 0x03 != 0 || (bits != 8 && bits != 0) {
        throw SPIError(path: path, code: Errno.invalidArgument, operation: "set SPI mode 0 with 8-bit words (driver kept mode \(mode), \(bits) bits)")
      }
    } catch {
      Descriptor.close(fd)
      descriptor = -1
      throw error
    }
  }

  public func reopen() throws {
    if descriptor >= 0 { Descriptor.close(descriptor) }
    descriptor = -1
    try openDevice()
  }

  deinit { if descriptor >= 0 { Descriptor.close(descriptor) } }

  func control<T: BitwiseCopyable>(_ request: UInt, _ value: inout T, _ operation: String) throws(SPIError) {
    if !Descriptor.control(descriptor, request, &value) { throw SPIError(path: path, code: Errno.current, operation: operation) }
  }

  /// The driver's `bufsiz` parameter, or its default of 4096.
  static func readBufferSize() -> Int {
    let bytes = (try? FileBytes.read("/sys/module/spidev/parameters/bufsiz", limit: 32)) ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    let value = Int(text.filter(\.isNumber)) ?? 0
    return value > 0 ? value : 4096
  }

  public func send(_ transactions: SPITransactions) throws {
    guard transactions.count > 0 else { return }
    try transactions.bytes.withUnsafeBufferPointer { bytes throws(SPIError) in
      var first = 0
      while first < transactions.count {
        // As many transfers as fit the driver's buffer (and the ioctl's size field).
        var last = first
        var budget = 0
        while last < transactions.count, last - first < 511 {
          let length = transactions.ends[last] - (last == 0 ? 0 : transactions.ends[last - 1])
          let aligned = (length + SpidevTransport.transferAlignment - 1) / SpidevTransport.transferAlignment
            * SpidevTransport.transferAlignment
          if budget + aligned > bufferSize {
            if last == first {
              throw SPIError(
                path: path, code: Errno.messageTooLong,
                operation: "send a \(length)-byte transaction (spidev's buffer is \(bufferSize) bytes; raise it with "
                  + "spidev.bufsiz=65536 on the kernel command line, cmdline.txt on a Raspberry Pi)")
            }
            break
          }
          budget += aligned
          last += 1
        }
        try message(bytes, transactions, from: first, to: last)
        first = last
      }
    }
  }

  /// Sends transaction `index` of `transactions` alone, as one SPI message.
  public func send(_ transactions: SPITransactions, only index: Int) throws(SPIError) {
    try transactions.bytes.withUnsafeBufferPointer { bytes throws(SPIError) in
      try message(bytes, transactions, from: index, to: index + 1)
    }
  }

  /// Fills `records` with one `struct spi_ioc_transfer` per transaction: its bytes, the
  /// clock, 8 bits per word, and `cs_change` on every transfer but the last, so chip select
  /// rises between transactions (latching the chain) and after the message.
  static func packTransfers(
    into records: inout [spi_ioc_transfer], bufferAddress: UInt64, transactions: SPITransactions,
    from first: Int, to last: Int, speedHz: UInt32
  ) {
    let count = last - first
    records.removeAll(keepingCapacity: true)
    for index in 0..<count {
      let transaction = first + index
      let start = transaction == 0 ? 0 : transactions.ends[transaction - 1]
      var record = spi_ioc_transfer()
      record.tx_buf = bufferAddress + UInt64(start)
      record.len = UInt32(transactions.ends[transaction] - start)
      record.speed_hz = speedHz
      record.bits_per_word = 8
      record.cs_change = index < count - 1 ? 1 : 0
      records.append(record)
    }
  }

  /// Sends transactions `first..<last` as one SPI message.
  func message(
    _ bytes: UnsafeBufferPointer<UInt8>, _ transactions: SPITransactions, from first: Int, to last: Int
  ) throws(SPIError) {
    let count = last - first
    SpidevTransport.packTransfers(
      into: &records, bufferAddress: UInt64(UInt(bitPattern: bytes.baseAddress)),
      transactions: transactions, from: first, to: last, speedHz: speedHz)
    let result = records.withUnsafeMutableBytes { raw in
      Descriptor.control(descriptor, SpidevTransport.messageRequest(count: count), raw.baseAddress!)
    }
    if result < 0 { throw SPIError(path: path, code: Errno.current, operation: "write") }
  }
}

/// Latched SPI transactions: the bytes in the order sent, and where each transaction ends
/// (chip select rises there, latching every chip of the chain).
///
/// The storage is kept between frames (``removeAll()`` keeps it), so encoding a frame
/// writes into memory that is already there.
public struct SPITransactions: Sendable, Equatable {
  /// Byte storage; only the first ``byteCount`` bytes are meaningful.
  var storage: [UInt8] = []
  /// The number of bytes written.
  public private(set) var byteCount = 0
  /// The end offset of each transaction in ``bytes``.
  public private(set) var ends: [Int] = []

  /// Creates an empty list.
  public init() {}

  /// Creates a list from bytes and transaction ends.
  public init(bytes: [UInt8], ends: [Int]) {
    storage = bytes
    byteCount = bytes.count
    self.ends = ends
  }

  /// All bytes, transaction after transaction.
  public var bytes: ArraySlice<UInt8> { storage[0..<byteCount] }

  /// The number of transactions.
  public var count: Int { ends.count }

  /// The bytes of transaction `index`.
  public func transaction(_ index: Int) -> ArraySlice<UInt8> {
    storage[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }

  /// Empties the list, keeping its storage.
  public mutating func removeAll() {
    byteCount = 0
    ends.removeAll(keepingCapacity: true)
  }

  /// Appends `count` transactions of `length` bytes each, all written in place by `body`.
  mutating func appendTransactions(count: Int, length: Int, _ body: (UnsafeMutableRawPointer) -> Void) {
    let total = count * length
    if storage.count < byteCount + total {
      storage.append(contentsOf: repeatElement(0, count: max(byteCount + total - storage.count, storage.count)))
    }
    if ends.capacity < ends.count + count { ends.reserveCapacity(max(16, 2 * (ends.count + count))) }
    let start = byteCount
    storage.withUnsafeMutableBytes { buffer in body(buffer.baseAddress! + start) }
    for _ in 0..<count {
      byteCount += length
      ends.append(byteCount)
    }
  }

  public static func == (a: SPITransactions, b: SPITransactions) -> Bool {
    a.bytes == b.bytes && a.ends == b.ends
  }
}

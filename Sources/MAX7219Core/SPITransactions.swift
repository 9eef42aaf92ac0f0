/// Latched SPI transactions: the bytes in the order sent, and where each transaction ends
/// (chip select rises there, latching every chip of the chain).
///
/// The storage is kept between frames (``removeAll()`` keeps it), so encoding a frame
/// writes into memory that is already there.
public struct SPITransactions: ByteBatch, Sendable, Equatable {
  /// Byte storage; only the first ``byteCount`` bytes are meaningful.
  var storage: [UInt8] = []
  /// The number of bytes written.
  public private(set) var byteCount = 0
  /// Transaction end offsets; only the first ``count`` are meaningful.
  var endStorage: [Int] = []
  /// The number of transactions.
  public private(set) var count = 0

  /// Creates an empty list.
  public init() {}

  /// Creates a list from bytes and transaction ends.
  public init(bytes: [UInt8], ends: [Int]) {
    storage = bytes
    byteCount = bytes.count
    endStorage = ends
    count = ends.count
  }

  /// All bytes, transaction after transaction.
  public var bytes: ArraySlice<UInt8> { storage[0..<byteCount] }

  /// The end offset of each transaction in ``bytes``.
  public var ends: ArraySlice<Int> { endStorage[0..<count] }

  /// The bytes of transaction `index`.
  public func transaction(_ index: Int) -> ArraySlice<UInt8> {
    storage[(index == 0 ? 0 : endStorage[index - 1])..<endStorage[index]]
  }

  /// Appends a copy of `other`'s transactions, written into this list's own storage (the
  /// two never share it, so neither copies on its next write).
  public mutating func append(contentsOf other: SPITransactions) {
    for index in 0..<other.count {
      let bytes = other.transaction(index)
      self.write(maxCount: 1, length: bytes.count) { writer in
        bytes.withUnsafeBufferPointer { source in
          if let base = source.baseAddress { writer.next.update(from: base, count: source.count) }
        }
        writer.commit()
      }
    }
  }

  /// Empties the list, keeping its storage.
  public mutating func removeAll() {
    byteCount = 0
    count = 0
  }

  /// Appends up to `maxCount` transactions of `length` bytes each, written in place through
  /// the writer `body` is given (which commits each transaction it keeps).
  package mutating func write(maxCount: Int, length: Int, _ body: (inout SPIWriter) -> Void) {
    let needed = byteCount + maxCount * length
    if storage.count < needed {
      storage.append(contentsOf: [UInt8](repeating: 0, count: max(needed - storage.count, storage.count)))
    }
    if endStorage.count < count + maxCount {
      endStorage.append(contentsOf: [Int](repeating: 0, count: max(count + maxCount - endStorage.count, 16)))
    }
    let (startBytes, startCount) = (byteCount, count)
    var written = (bytes: 0, count: 0)
    storage.withUnsafeMutableBufferPointer { bytes in
      endStorage.withUnsafeMutableBufferPointer { ends in
        var writer = SPIWriter(
          next: bytes.baseAddress! + startBytes, ends: ends.baseAddress! + startCount, length: length,
          byteCount: startBytes, maxCount: maxCount)
        body(&writer)
        written = (writer.byteCount - startBytes, writer.count)
      }
    }
    byteCount += written.bytes
    count += written.count
  }

  public static func == (a: SPITransactions, b: SPITransactions) -> Bool {
    a.bytes == b.bytes && a.ends == b.ends
  }
}

/// Writes transactions of a fixed length straight into ``SPITransactions``' storage.
package struct SPIWriter {
  /// Where the next transaction's bytes go.
  package private(set) var next: UnsafeMutablePointer<UInt8>
  @usableFromInline let ends: UnsafeMutablePointer<Int>
  /// The length of every transaction.
  package let length: Int
  @usableFromInline private(set) var byteCount: Int
  @usableFromInline private(set) var count = 0
  @usableFromInline let maxCount: Int

  init(next: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<Int>, length: Int, byteCount: Int, maxCount: Int) {
    self.next = next
    self.ends = ends
    self.length = length
    self.byteCount = byteCount
    self.maxCount = maxCount
  }

  /// Keeps the transaction written at ``next``; an uncommitted one is overwritten by the next.
  @inlinable @inline(__always)
  package mutating func commit() {
    // The encoder reserves what it writes; a debug build checks it.
    assert(count < maxCount, "more transactions than reserved")
    byteCount &+= length
    ends[count] = byteCount
    count &+= 1
    next += length
  }
}

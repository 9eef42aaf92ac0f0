/// I2C write messages in the order sent: each a 7-bit address and the bytes after it.
///
/// The storage is kept between frames (``removeAll()`` keeps it), so encoding a frame writes
/// into memory that is already there.
public struct I2CWrites: ByteBatch, Sendable, Equatable {
  /// Byte storage; only the first ``byteCount`` bytes are meaningful.
  var storage: [UInt8] = []
  /// The number of bytes written.
  public private(set) var byteCount = 0
  /// Each message's address and end offset; only the first ``count`` are meaningful.
  var messageStorage: [(address: UInt8, end: Int)] = []
  /// The number of messages.
  public private(set) var count = 0

  /// Creates an empty list.
  public init() {}

  /// The address of message `index`.
  public func address(_ index: Int) -> UInt8 { messageStorage[index].address }

  /// The bytes of message `index`.
  public func bytes(_ index: Int) -> ArraySlice<UInt8> {
    storage[(index == 0 ? 0 : messageStorage[index - 1].end)..<messageStorage[index].end]
  }

  /// Appends one message.
  public mutating func append(address: UInt8, _ bytes: some Collection<UInt8>) {
    begin(address: address, capacity: bytes.count)
    for byte in bytes { put(byte) }
    end()
  }

  /// Starts a message of at most `capacity` bytes, written with ``put(_:)``.
  mutating func begin(address: UInt8, capacity: Int) {
    if storage.count < byteCount + capacity {
      storage.append(contentsOf: repeatElement(0, count: max(byteCount + capacity - storage.count, 64)))
    }
    if messageStorage.count <= count {
      messageStorage.append(contentsOf: repeatElement((address: 0, end: 0), count: 8))
    }
    messageStorage[count] = (address, byteCount)
  }

  /// Adds a byte to the message begun.
  @inline(__always)
  mutating func put(_ byte: UInt8) {
    storage[byteCount] = byte
    byteCount += 1
  }

  /// Ends the message begun.
  mutating func end() {
    messageStorage[count].end = byteCount
    count += 1
  }

  /// Empties the list, keeping its storage.
  public mutating func removeAll() {
    byteCount = 0
    count = 0
  }

  public static func == (a: I2CWrites, b: I2CWrites) -> Bool {
    guard a.count == b.count else { return false }
    return (0..<a.count).allSatisfy { a.address($0) == b.address($0) && a.bytes($0) == b.bytes($0) }
  }
}

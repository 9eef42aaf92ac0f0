/// Bounds-checked reads of little- and big-endian integers from a byte array.
struct ByteReader {
  let bytes: [UInt8]

  /// Whether `count` bytes at `offset` are inside the data.
  func has(_ offset: Int, _ count: Int) -> Bool {
    offset >= 0 && count >= 0 && offset <= bytes.count - count
  }

  func u8(_ offset: Int) -> Int? {
    has(offset, 1) ? Int(bytes[offset]) : nil
  }

  func u16(_ offset: Int, bigEndian: Bool) -> Int? {
    guard has(offset, 2) else { return nil }
    let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
    return bigEndian ? a << 8 | b : b << 8 | a
  }

  func u32(_ offset: Int, bigEndian: Bool) -> Int? {
    guard has(offset, 4) else { return nil }
    var value = 0
    for i in 0..<4 {
      let byte = Int(bytes[offset + (bigEndian ? i : 3 - i)])
      value = value << 8 | byte
    }
    return value
  }

  func i16(_ offset: Int, bigEndian: Bool) -> Int? {
    u16(offset, bigEndian: bigEndian).map { Int(Int16(truncatingIfNeeded: $0)) }
  }

  func i32(_ offset: Int, bigEndian: Bool) -> Int? {
    u32(offset, bigEndian: bigEndian).map { Int(Int32(truncatingIfNeeded: $0)) }
  }
}

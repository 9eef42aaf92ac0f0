/// A gzip or DEFLATE stream that could not be decompressed.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var reason: String

  public var description: String { reason }
}

/// gzip (RFC 1952) and DEFLATE (RFC 1951) decompression, written for reading `.gz` fonts.
///
/// A canonical-Huffman decoder in the manner of zlib's `puff`: small, checked at every step
/// (a corrupt stream is an error, never a crash or an out-of-bounds read), with a cap on the
/// output so a small file cannot expand without bound.
public enum Gzip {
  /// The largest output accepted by default (a font never comes near it).
  public static let defaultOutputLimit = 256 << 20

  /// Whether `bytes` start with the gzip magic number.
  public static func isGzip(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Decompresses a gzip file (all of its members), checking each member's CRC-32 and size.
  public static func decompress(_ bytes: [UInt8], limit: Int = defaultOutputLimit) throws(GzipError) -> [UInt8] {
    var output: [UInt8] = []
    var position = 0
    repeat {
      position = try member(bytes, at: position, into: &output, limit: limit)
      // Trailing zero padding after the last member is tolerated, as gzip does.
      while position < bytes.count, bytes[position] == 0 { position += 1 }
    } while position < bytes.count
    return output
  }

  /// The first `count` bytes of a gzip file's content (fewer if it is shorter or damaged):
  /// a header read without inflating the whole file.
  public static func prefix(_ bytes: [UInt8], count: Int) -> [UInt8] {
    var output: [UInt8] = []
    // Past the limit the inflater stops with an error; what it wrote so far is the prefix.
    _ = try? member(bytes, at: 0, into: &output, limit: count)
    return output
  }

  /// Decompresses one member starting at `start`; returns where the next one starts.
  static func member(_ bytes: [UInt8], at start: Int, into output: inout [UInt8], limit: Int) throws(GzipError) -> Int {
    guard bytes.count - start >= 18 else { throw GzipError(reason: "truncated gzip header") }
    guard bytes[start] == 0x1F, bytes[start + 1] == 0x8B else { throw GzipError(reason: "not a gzip file (bad magic number)") }
    guard bytes[start + 2] == 8 else { throw GzipError(reason: "unknown gzip compression method \(bytes[start + 2])") }
    let flags = bytes[start + 3]
    guard flags & 0xE0 == 0 else { throw GzipError(reason: "reserved gzip flags set") }
    var position = start + 10
    func need(_ count: Int) throws(GzipError) {
      guard count >= 0, position + count <= bytes.count else { throw GzipError(reason: "truncated gzip header") }
    }
    if flags & 0x04 != 0 {  // FEXTRA
      try need(2)
      let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
      position += 2
      try need(length)
      position += length
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT
      while true {
        try need(1)
        position += 1
        if bytes[position - 1] == 0 { break }
      }
    }
    if flags & 0x02 != 0 {  // FHCRC
      try need(2)
      position += 2
    }
    let first = output.count
    var inflater = Inflater(input: bytes, position: position, limit: limit)
    try inflater.inflate(into: &output)
    position = inflater.bytePosition
    guard position + 8 <= bytes.count else { throw GzipError(reason: "truncated gzip trailer") }
    let expectedCRC = readUInt32(bytes, position)
    let expectedSize = readUInt32(bytes, position + 4)
    let crc = CRC32.checksum(output[first...])
    guard crc == expectedCRC else { throw GzipError(reason: "gzip CRC mismatch (the file is corrupt)") }
    guard UInt32(truncatingIfNeeded: output.count - first) == expectedSize else {
      throw GzipError(reason: "gzip size mismatch (the file is corrupt)")
    }
    return position + 8
  }

  static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}

/// CRC-32 (IEEE 802.3), as gzip uses it.
package enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    var index = bytes.startIndex
    while index < bytes.endIndex {
      crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
      index += 1
    }
    return crc ^ 0xFFFF_FFFF
  }
}

/// A raw DEFLATE decoder.
package struct Inflater {
  let input: [UInt8]
  var position: Int
  let limit: Int
  var bitBuffer: UInt32 = 0
  var bitCount = 0

  package init(input: [UInt8], position: Int, limit: Int) {
    self.input = input
    self.position = position
    self.limit = limit
  }

  /// The byte after the last one consumed (unused bits of a partial byte are dropped;
  /// whole bytes taken in ahead are not consumed).
  package var bytePosition: Int { position - (bitCount >> 3) }

  mutating func bits(_ count: Int) throws(GzipError) -> Int {
    while bitCount < count {
      guard position < input.count else { throw GzipError(reason: "truncated compressed data") }
      bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
      position += 1
      bitCount += 8
    }
    let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
    bitBuffer >>= UInt32(count)
    bitCount -= count
    return value
  }

  /// A canonical Huffman code: how many codes of each length, and the symbols in order;
  /// and a table of the codes up to ``fastBits`` long, by their next bits in the stream.
  struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]
    /// For each value of the next ``fastBits`` bits (the first in the lowest bit), the
    /// symbol whose code they begin with and the code's length (`symbol << 4 | length`),
    /// or -1 where the code is longer.
    var fast = [Int32](repeating: -1, count: 1 << Huffman.fastBits)
    static let fastBits = 9

    /// Builds the code from code lengths; incomplete codes are allowed only as DEFLATE does
    /// (a single distance code), over-subscribed ones are an error.
    init(lengths: ArraySlice<Int>) throws(GzipError) {
      symbols = [Int](repeating: 0, count: lengths.count)
      for length in lengths { counts[length] += 1 }
      var left = 1
      for length in 1..<16 {
        left <<= 1
        left -= counts[length]
        if left < 0 { throw GzipError(reason: "invalid Huffman code (over-subscribed)") }
      }
      var offsets = [Int](repeating: 0, count: 16)
      for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
      for (symbol, length) in lengths.enumerated() where length != 0 {
        symbols[offsets[length]] = symbol
        offsets[length] += 1
      }
      // The canonical codes in order (RFC 1951, 3.2.2); the stream sends a code's first
      // bit first, so a table index holds the code's bits reversed.
      var code = 0, index = 0
      for length in 1...Huffman.fastBits {
        for _ in 0..<counts[length] {
          var reversed = 0
          for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
          let entry = Int32(truncatingIfNeeded: symbols[index] << 4 | length)
          var slot = reversed
          while slot < fast.count {
            fast[slot] = entry
            slot += 1 << length
          }
          code += 1
          index += 1
        }
        code <<= 1
      }
    }
  }

  mutating func decode(_ code: Huffman) throws(GzipError) -> Int {
    // The longest code's 15 bits are taken in at once where the input has them, and read
    // from a copy: the code's length is known only at its end.
    while bitCount < 15 && position < input.count {
      bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
      position += 1
      bitCount += 8
    }
    let entry = code.fast[Int(bitBuffer) & (code.fast.count - 1)]
    if entry >= 0 && Int(entry & 15) <= bitCount {
      bitBuffer >>= UInt32(entry & 15)
      bitCount -= Int(entry & 15)
      return Int(entry >> 4)
    }
    var unread = bitBuffer
    var value = 0, first = 0, index = 0, length = 1
    while length < 16 {
      guard length <= bitCount else { throw GzipError(reason: "truncated compressed data") }
      value |= Int(unread & 1)
      unread >>= 1
      let count = code.counts[length]
      if value - count < first {
        bitBuffer >>= UInt32(length)
        bitCount -= length
        return code.symbols[index + (value - first)]
      }
      index += count
      first += count
      first <<= 1
      value <<= 1
      length += 1
    }
    throw GzipError(reason: "invalid Huffman code in compressed data")
  }

  static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
  static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
  static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
  static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

  static let fixedCodes: (Huffman, Huffman) = {
    var lengths = [Int](repeating: 8, count: 288)
    for i in 144..<256 { lengths[i] = 9 }
    for i in 256..<280 { lengths[i] = 7 }
    // The fixed tables are valid by construction.
    let literal = try! Huffman(lengths: lengths[...])
    let distance = try! Huffman(lengths: [Int](repeating: 5, count: 30)[...])
    return (literal, distance)
  }()

  package mutating func inflate(into output: inout [UInt8]) throws(GzipError) {
    let start = output.count
    var last = false
    repeat {
      last = try bits(1) == 1
      switch try bits(2) {
      case 0: try stored(into: &output)
      case 1: try codes(Inflater.fixedCodes.0, Inflater.fixedCodes.1, into: &output, start: start)
      case 2:
        let (literal, distance) = try dynamicCodes()
        try codes(literal, distance, into: &output, start: start)
      default: throw GzipError(reason: "invalid DEFLATE block type")
      }
    } while !last
  }

  mutating func stored(into output: inout [UInt8]) throws(GzipError) {
    // A stored block starts at the next byte: whole bytes taken in ahead go back.
    position -= bitCount >> 3
    bitBuffer = 0
    bitCount = 0
    guard position + 4 <= input.count else { throw GzipError(reason: "truncated stored block") }
    let length = Int(input[position]) | Int(input[position + 1]) << 8
    let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
    guard length == ~complement & 0xFFFF else { throw GzipError(reason: "corrupt stored block length") }
    position += 4
    guard position + length <= input.count else { throw GzipError(reason: "truncated stored block") }
    guard output.count + length <= limit else { throw GzipError(reason: "decompressed data larger than \(limit >> 20) MiB") }
    output.append(contentsOf: input[position..<(position + length)])
    position += length
  }

  mutating func dynamicCodes() throws(GzipError) -> (Huffman, Huffman) {
    let literalCount = try bits(5) + 257
    let distanceCount = try bits(5) + 1
    let codeLengthCount = try bits(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else { throw GzipError(reason: "bad DEFLATE code counts") }
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var codeLengths = [Int](repeating: 0, count: 19)
    for index in 0..<codeLengthCount { codeLengths[order[index]] = try bits(3) }
    let lengthCode = try Huffman(lengths: codeLengths[...])
    var lengths = [Int](repeating: 0, count: literalCount + distanceCount)
    var index = 0
    while index < lengths.count {
      let symbol = try decode(lengthCode)
      if symbol < 16 {
        lengths[index] = symbol
        index += 1
        continue
      }
      var repeatValue = 0
      var count: Int
      switch symbol {
      case 16:
        guard index > 0 else { throw GzipError(reason: "repeat with no previous length") }
        repeatValue = lengths[index - 1]
        count = 3 + (try bits(2))
      case 17: count = 3 + (try bits(3))
      default: count = 11 + (try bits(7))
      }
      guard index + count <= lengths.count else { throw GzipError(reason: "too many code lengths") }
      for _ in 0..<count {
        lengths[index] = repeatValue
        index += 1
      }
    }
    guard lengths[256] != 0 else { throw GzipError(reason: "no end-of-block code") }
    return (try Huffman(lengths: lengths[0..<literalCount]), try Huffman(lengths: lengths[literalCount...]))
  }

  mutating func codes(_ literal: Huffman, _ distance: Huffman, into output: inout [UInt8], start: Int) throws(GzipError) {
    while true {
      let symbol = try decode(literal)
      if symbol < 256 {
        guard output.count < limit else { throw GzipError(reason: "decompressed data larger than \(limit >> 20) MiB") }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let lengthIndex = symbol - 257
      guard lengthIndex < 29 else { throw GzipError(reason: "invalid length code") }
      let length = Inflater.lengthBase[lengthIndex] + (try bits(Inflater.lengthExtra[lengthIndex]))
      let distanceIndex = try decode(distance)
      guard distanceIndex < 30 else { throw GzipError(reason: "invalid distance code") }
      let back = Inflater.distanceBase[distanceIndex] + (try bits(Inflater.distanceExtra[distanceIndex]))
      guard back <= output.count - start else { throw GzipError(reason: "distance too far back") }
      guard output.count + length <= limit else { throw GzipError(reason: "decompressed data larger than \(limit >> 20) MiB") }
      var from = output.count - back
      let end = from + length
      while from < end {
        output.append(output[from])
        from += 1
      }
    }
  }
}

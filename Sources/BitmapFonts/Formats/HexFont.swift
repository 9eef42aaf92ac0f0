import MatrixCore

/// A GNU Unifont `.hex` font: one glyph per line, `CODE:BITMAP`, 16 rows of 8 or 16 pixels.
///
/// The file is indexed, not decoded, when it is loaded: the index holds each valid line's code
/// point and where its bitmap starts, sorted for binary search. Glyphs are decoded when asked
/// for, so a 57,000-glyph Unifont costs one pass over its bytes before the first frame.
public final class HexFont: Font {
  public let name: String
  /// Rows above the baseline (14, as hex2bdf sets it).
  public let ascent = 14
  /// Rows below the baseline.
  public let descent = 2
  /// Lines that were skipped, with their line numbers.
  public let warnings: [String]
  let data: [UInt8]
  /// Sorted code points and, at the same index, the offset of their bitmap's first hex digit
  /// and its number of digits.
  let codes: [UInt32]
  let offsets: [UInt32]
  let lengths: [UInt8]
  /// Horizontal offsets of combining marks (from Unifont's `plane00-combining.txt`).
  let markOffsets: [UInt32: Int]

  /// The number of glyphs.
  public var glyphCount: Int { codes.count }

  /// Indexes hex data; `path` names the file in errors and warnings.
  public init(data: [UInt8], name: String, path: String, markOffsets: [UInt32: Int] = [:]) throws(FontLoadError) {
    self.name = name
    self.data = data
    self.markOffsets = markOffsets
    var codes: [UInt32] = [], offsets: [UInt32] = [], lengths: [UInt8] = []
    var warnings: [String] = []
    var lineStart = 0, lineNumber = 0
    let count = data.count
    var sorted = true
    codes.reserveCapacity(count / 40)
    offsets.reserveCapacity(count / 40)
    lengths.reserveCapacity(count / 40)
    HexFont.digitTable.withUnsafeBufferPointer { isHex in
      data.withUnsafeBufferPointer { bytes in
        while lineStart < count {
          lineNumber += 1
          // CODE: 4 to 6 hex digits, then ':'.
          var index = lineStart, code: UInt32 = 0
          while index < count, index - lineStart < 7, let digit = HexDigit.value(bytes[index]) {
            code = code << 4 | UInt32(digit)
            index += 1
          }
          let codeDigits = index - lineStart
          let wellFormed = (4...6).contains(codeDigits) && index < count && bytes[index] == UInt8(ascii: ":") && code <= 0x10FFFF
          let bitmapStart = index + 1
          // Almost every line is 32 or 64 digits and a newline: check those eight at a time.
          if wellFormed, let digits = HexFont.plainBitmapLength(bytes, from: bitmapStart) {
            if let last = codes.last, last >= code { sorted = false }
            codes.append(code)
            offsets.append(UInt32(bitmapStart))
            lengths.append(UInt8(digits))
            lineStart = bitmapStart + digits + 1
            continue
          }
          // Any other line: scan to its end, checking every digit on the way.
          var end = wellFormed ? bitmapStart : index
          var allHex = true
          while end < count, bytes[end] != 0x0A {
            allHex = allHex && isHex[Int(bytes[end])] != 0
            end += 1
          }
          var lineEnd = end
          if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D {
            lineEnd -= 1
            allHex = true
            for position in bitmapStart..<max(bitmapStart, lineEnd) where isHex[Int(bytes[position])] == 0 { allHex = false }
          }
          defer { lineStart = end + 1 }
          if lineEnd == lineStart { continue }
          guard wellFormed else {
            if warnings.count < 20 { warnings.append("\(path):\(lineNumber): not a 'CODE:BITMAP' line, skipped") }
            continue
          }
          let digits = lineEnd - bitmapStart
          guard allHex, digits == 32 || digits == 64 || digits == 96 || digits == 128 else {
            if warnings.count < 20 {
              warnings.append("\(path):\(lineNumber): bitmap of U+\(String(code, radix: 16, uppercase: true)) is not 32, 64, 96 or 128 hex digits, skipped")
            }
            continue
          }
          if let last = codes.last, last >= code { sorted = false }
          codes.append(code)
          offsets.append(UInt32(bitmapStart))
          lengths.append(UInt8(digits))
        }
      }
    }
    guard !codes.isEmpty else { throw FontLoadError(path: path, reason: "no glyphs (not a Unifont .hex file?)") }
    if !sorted {
      let order = codes.indices.sorted { codes[$0] < codes[$1] }
      codes = order.map { codes[$0] }
      offsets = order.map { offsets[$0] }
      lengths = order.map { lengths[$0] }
    }
    self.codes = codes
    self.offsets = offsets
    self.lengths = lengths
    self.warnings = warnings
  }

  /// The length of the bitmap at `start` if it is 32 or 64 hex digits ending the line with a
  /// newline (the common case), checked eight bytes at a time; `nil` for anything else.
  @inline(__always)
  static func plainBitmapLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    for digits in [32, 64] where start + digits < bytes.count && bytes[start + digits] == 0x0A {
      let raw = UnsafeRawPointer(bytes.baseAddress! + start)
      var offset = 0
      while offset < digits {
        guard allHexDigits(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) else { return nil }
        offset += 8
      }
      return digits
    }
    return nil
  }

  /// Whether all eight bytes of `word` are ASCII hex digits (no byte's range test can carry
  /// into its neighbour once bytes with the top bit set are ruled out).
  @inline(__always)
  static func allHexDigits(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
    guard word & tops == 0 else { return false }
    @inline(__always) func atLeast(_ x: UInt64, _ low: UInt8) -> UInt64 { (x &+ ones &* UInt64(0x80 - low)) & tops }
    @inline(__always) func atMost(_ x: UInt64, _ high: UInt8) -> UInt64 { ~(x &+ ones &* UInt64(0x7F - high)) & tops }
    let lower = word | ones &* 0x20
    let decimal = atLeast(word, UInt8(ascii: "0")) & atMost(word, UInt8(ascii: "9"))
    let letter = atLeast(lower, UInt8(ascii: "a")) & atMost(lower, UInt8(ascii: "f"))
    return decimal | letter == tops
  }

  /// 1 for the bytes that are hex digits.
  static let digitTable: [UInt8] = (0..<256).map { HexDigit.value(UInt8($0)) == nil ? 0 : 1 }

  /// Whether the font has a glyph for `scalar` (without decoding it).
  public func contains(_ scalar: Unicode.Scalar) -> Bool {
    find(scalar.value) != nil
  }

  func find(_ code: UInt32) -> Int? {
    var low = 0, high = codes.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if codes[middle] == code { return middle }
      if codes[middle] < code { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    guard let index = find(scalar.value) else { return nil }
    let digits = Int(lengths[index])
    let width = digits / 4  // 16 rows, 4 bits per digit
    let digitsPerRow = width / 4
    var bitmap = Framebuffer(width: width, height: 16)
    var position = Int(offsets[index])
    // Sixteen digits make a word of the row, the first digit leftmost.
    for y in 0..<16 {
      var word: UInt64 = 0
      var column = 0
      while column < digitsPerRow {
        word |= UInt64(HexDigit.value(data[position]) ?? 0) << UInt64(60 - 4 * (column & 15))
        position += 1
        if column & 15 == 15 || column == digitsPerRow - 1 {
          bitmap.setRow(y, wordAt: column >> 4, to: word)
          word = 0
        }
        column += 1
      }
    }
    if let offset = markOffsets[scalar.value] {
      // A combining mark drawn in its own cell: overlay it on the base, taking no room.
      return Glyph(bitmap: bitmap, advance: 0, xOffset: offset, top: ascent)
    }
    return Glyph(bitmap: bitmap, advance: width, top: ascent)
  }

  /// Reads Unifont's `plane00-combining.txt` (`CODE:OFFSET` lines); unreadable lines are ignored.
  public static func markOffsets(from text: String) -> [UInt32: Int] {
    markOffsets(from: Array(text.utf8))
  }

  /// Reads `CODE:OFFSET` lines (hex code point, signed decimal offset) from bytes.
  public static func markOffsets(from bytes: [UInt8]) -> [UInt32: Int] {
    var offsets: [UInt32: Int] = [:]
    for line in bytes.split(separator: 0x0A) {
      let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
      guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")), colon > trimmed.startIndex, colon - trimmed.startIndex <= 6
      else { continue }
      var code: UInt32 = 0
      var valid = true
      for byte in trimmed[..<colon] where byte != 0x20 && byte != 0x09 {
        guard let digit = HexDigit.value(byte) else { valid = false; break }
        code = code << 4 | UInt32(digit)
      }
      var rest = trimmed[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
      while let last = rest.last, last == 0x0D || last == 0x20 || last == 0x09 { rest = rest.dropLast() }
      let negative = rest.first == UInt8(ascii: "-")
      if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
      guard valid, !rest.isEmpty, rest.count <= 6, rest.allSatisfy({ (0x30...0x39).contains($0) }) else { continue }
      let magnitude = rest.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      offsets[code] = negative ? -magnitude : magnitude
    }
    return offsets
  }
}

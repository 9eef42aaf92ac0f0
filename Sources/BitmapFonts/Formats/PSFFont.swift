import MatrixCore

/// A Linux console font: PSF1 or PSF2, with its Unicode table.
///
/// PSF has no baseline; it is taken from the bottom of the capital `H` (falling back to three
/// quarters of the height).
public final class PSFFont: Font {
  public let name: String
  public let ascent: Int
  public let descent: Int
  /// The glyphs by Unicode scalar.
  public let glyphs: [UInt32: Glyph]
  /// The PSF version (1 or 2).
  public let version: Int
  /// The glyph cell.
  public let width: Int, height: Int
  /// The number of glyph bitmaps in the file.
  public let glyphCount: Int
  /// Problems worth knowing (no Unicode table).
  public let warnings: [String]

  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    glyphs[scalar.value]
  }

  /// Whether the bytes start with a PSF1 or PSF2 magic number.
  public static func isPSF(_ bytes: [UInt8]) -> Bool {
    (bytes.count >= 2 && bytes[0] == 0x36 && bytes[1] == 0x04)
      || (bytes.count >= 4 && bytes[0] == 0x72 && bytes[1] == 0xB5 && bytes[2] == 0x4A && bytes[3] == 0x86)
  }

  /// Reads PSF data; `path` names the file in errors.
  public init(data bytes: [UInt8], name: String, path: String) throws(FontLoadError) {
    self.name = name
    let reader = ByteReader(bytes: bytes)
    func fail(_ reason: String) -> FontLoadError { FontLoadError(path: path, reason: reason) }
    var count = 0, width = 8, height = 0, bytesPerGlyph = 0, glyphStart = 0
    var hasTable = false
    var tableIsUTF8 = false
    if bytes.count >= 2 && bytes[0] == 0x36 && bytes[1] == 0x04 {
      guard let mode = reader.u8(2), let size = reader.u8(3) else { throw fail("truncated PSF1 header") }
      version = 1
      count = mode & 0x01 != 0 ? 512 : 256
      height = size
      bytesPerGlyph = size
      glyphStart = 4
      hasTable = mode & 0x06 != 0
    } else if PSFFont.isPSF(bytes) {
      guard let headerSize = reader.u32(8, bigEndian: false), let flags = reader.u32(12, bigEndian: false),
        let length = reader.u32(16, bigEndian: false), let charSize = reader.u32(20, bigEndian: false),
        let h = reader.u32(24, bigEndian: false), let w = reader.u32(28, bigEndian: false)
      else { throw fail("truncated PSF2 header") }
      version = 2
      guard headerSize >= 32, headerSize <= bytes.count else { throw fail("PSF2 header size \(headerSize) is invalid") }
      guard (1...FontLimits.maximumGlyphSize).contains(w), (1...FontLimits.maximumGlyphSize).contains(h) else {
        throw fail("PSF2 glyph size \(w)x\(h) is out of range (1 to \(FontLimits.maximumGlyphSize))")
      }
      guard charSize == h * ((w + 7) / 8) else { throw fail("PSF2 glyph size \(charSize) bytes does not match \(w)x\(h)") }
      guard length >= 1, length <= 1 << 20 else { throw fail("PSF2 glyph count \(length) is out of range") }
      count = length
      width = w
      height = h
      bytesPerGlyph = charSize
      glyphStart = headerSize
      hasTable = flags & 0x01 != 0
      tableIsUTF8 = true
    } else {
      throw fail("not a PSF font (bad magic number)")
    }
    guard height >= 1 else { throw fail("glyph height 0") }
    guard reader.has(glyphStart, count * bytesPerGlyph) else {
      throw fail("truncated: \(count) glyphs of \(bytesPerGlyph) bytes do not fit in the file")
    }
    self.width = width
    self.height = height
    glyphCount = count
    let rowBytes = (width + 7) / 8
    var bitmaps: [Framebuffer] = []
    bitmaps.reserveCapacity(count)
    for index in 0..<count {
      var bitmap = Framebuffer(width: width, height: height)
      let base = glyphStart + index * bytesPerGlyph
      // A byte at a time into the row's words (the leftmost pixel in the top bit, as in
      // the file); bits past the width are dropped by setRow.
      for y in 0..<height {
        var word: UInt64 = 0
        var column = 0
        while column < rowBytes {
          word |= UInt64(bytes[base + y * rowBytes + column]) << UInt64(56 - 8 * (column & 7))
          if column & 7 == 7 || column == rowBytes - 1 {
            bitmap.setRow(y, wordAt: column >> 3, to: word)
            word = 0
          }
          column += 1
        }
      }
      bitmaps.append(bitmap)
    }
    // Map code points to glyphs.
    var mapping: [UInt32: Int] = [:]
    var warnings: [String] = []
    if hasTable {
      var position = glyphStart + count * bytesPerGlyph
      var glyph = 0
      var inSequence = false
      while glyph < count, position < bytes.count {
        if tableIsUTF8 {
          let byte = bytes[position]
          if byte == 0xFF {
            glyph += 1
            inSequence = false
            position += 1
          } else if byte == 0xFE {
            inSequence = true
            position += 1
          } else {
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            let end = min(bytes.count, position + length)
            let scalars = String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars
            if !inSequence, let scalar = scalars.first, mapping[scalar.value] == nil {
              mapping[scalar.value] = glyph
            }
            position = end
          }
        } else {
          guard let value = reader.u16(position, bigEndian: false) else { break }
          position += 2
          if value == 0xFFFF {
            glyph += 1
            inSequence = false
          } else if value == 0xFFFE {
            inSequence = true
          } else if !inSequence, mapping[UInt32(value)] == nil {
            mapping[UInt32(value)] = glyph
          }
        }
      }
    } else {
      warnings.append("\(path): no Unicode table; glyph n is taken to be U+00nn (Latin-1)")
      for index in 0..<min(count, 256) { mapping[UInt32(index)] = index }
    }
    // The baseline: under the capital H if the font has one.
    var baseline = (height * 3 + 3) / 4
    if let h = mapping[0x48] {
      let bitmap = bitmaps[h]
      if let rows = bitmap.litRows { baseline = rows.upperBound + 1 }
    }
    ascent = baseline
    descent = height - baseline
    var glyphs: [UInt32: Glyph] = [:]
    for (code, index) in mapping {
      glyphs[code] = Glyph(bitmap: bitmaps[index], advance: width, top: baseline)
    }
    self.glyphs = glyphs
    self.warnings = warnings
  }
}

import MatrixCore

/// An X11 Portable Compiled Format font (`.pcf`, Debian's misc-fixed and WenQuanYi fonts).
///
/// The tables are located and checked when the font is loaded; glyphs are decoded when asked
/// for, so a 30,000-glyph CJK font is ready as soon as its tables are found. Every read is
/// bounds-checked: a damaged file is an error or a missing glyph, never a crash.
public final class PCFFont: Font {
  public let name: String
  public let ascent: Int
  public let descent: Int
  /// The number of encoded glyphs.
  public let glyphCount: Int
  /// Whether the font's codes are Unicode (ISO10646 registry, or none given).
  public let isUnicode: Bool
  /// Problems worth knowing.
  public let warnings: [String]

  let reader: ByteReader
  let metrics: Table
  let compressedMetrics: Bool
  let bitmaps: Table
  let encodings: Table
  let firstColumn: Int, lastColumn: Int, firstRow: Int, lastRow: Int
  let glyphTotal: Int

  /// A located table: where its data starts and the byte order and padding its format gives.
  struct Table {
    var offset: Int
    var size: Int
    var format: Int
    var bigEndian: Bool { format & 0x04 != 0 }
    var msbBitFirst: Bool { format & 0x08 != 0 }
    var glyphPad: Int { 1 << (format & 0x03) }
    var scanUnit: Int { 1 << ((format >> 4) & 0x03) }
  }

  static let properties = 1, accelerators = 2, metricsType = 4, bitmapsType = 8
  static let encodingsType = 32, bdfAccelerators = 256

  /// Whether the bytes start with the PCF magic number.
  public static func isPCF(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 4 && bytes[0] == 0x01 && bytes[1] == 0x66 && bytes[2] == 0x63 && bytes[3] == 0x70
  }

  /// Locates the tables of PCF data; `path` names the file in errors.
  public init(data: [UInt8], name: String, path: String) throws(FontLoadError) {
    self.name = name
    reader = ByteReader(bytes: data)
    func fail(_ reason: String) -> FontLoadError { FontLoadError(path: path, reason: reason) }
    guard PCFFont.isPCF(data) else { throw fail("not a PCF font (bad magic number)") }
    guard let tableCount = reader.u32(4, bigEndian: false), tableCount <= 64 else { throw fail("bad PCF table count") }
    var tables: [Int: Table] = [:]
    for index in 0..<tableCount {
      let entry = 8 + index * 16
      // The last table's recorded size may include padding past the end of the file.
      guard let type = reader.u32(entry, bigEndian: false), let size = reader.u32(entry + 8, bigEndian: false),
        let offset = reader.u32(entry + 12, bigEndian: false), size >= 4,
        let format = reader.u32(offset, bigEndian: false)
      else { throw fail("PCF table \(index) lies outside the file") }
      tables[type] = Table(offset: offset, size: min(size, data.count - offset), format: format)
    }
    guard let metrics = tables[PCFFont.metricsType], let bitmaps = tables[PCFFont.bitmapsType],
      let encodings = tables[PCFFont.encodingsType]
    else { throw fail("a PCF table is missing (metrics, bitmaps and encodings are needed)") }
    self.metrics = metrics
    self.bitmaps = bitmaps
    self.encodings = encodings
    compressedMetrics = metrics.format & 0x100 != 0
    let metricsCount = compressedMetrics
      ? reader.u16(metrics.offset + 4, bigEndian: metrics.bigEndian)
      : reader.u32(metrics.offset + 4, bigEndian: metrics.bigEndian)
    guard let metricsCount, let bitmapCount = reader.u32(bitmaps.offset + 4, bigEndian: bitmaps.bigEndian),
      bitmapCount == metricsCount, reader.has(metrics.offset + 6, metricsCount * (compressedMetrics ? 5 : 12))
    else { throw fail("PCF metrics and bitmaps do not agree") }
    glyphTotal = metricsCount
    guard reader.has(bitmaps.offset + 8, bitmapCount * 4 + 16) else { throw fail("truncated PCF bitmap table") }
    let e = encodings.offset + 4, big = encodings.bigEndian
    guard let minColumn = reader.u16(e, bigEndian: big), let maxColumn = reader.u16(e + 2, bigEndian: big),
      let minRow = reader.u16(e + 4, bigEndian: big), let maxRow = reader.u16(e + 6, bigEndian: big),
      minColumn <= maxColumn, minRow <= maxRow, maxColumn <= 255, maxRow <= 255
    else { throw fail("bad PCF encoding table") }
    firstColumn = minColumn
    lastColumn = maxColumn
    firstRow = minRow
    lastRow = maxRow
    let entries = (maxColumn - minColumn + 1) * (maxRow - minRow + 1)
    guard reader.has(e + 10, entries * 2) else { throw fail("truncated PCF encoding table") }
    var encoded = 0
    for index in 0..<entries where reader.u16(e + 10 + index * 2, bigEndian: big) != 0xFFFF { encoded += 1 }
    glyphCount = encoded
    // Ascent and descent from the accelerators (they sit after 8 flag bytes).
    let accelerators = tables[PCFFont.bdfAccelerators] ?? tables[PCFFont.accelerators]
    if let table = accelerators, let fontAscent = reader.i32(table.offset + 12, bigEndian: table.bigEndian),
      let fontDescent = reader.i32(table.offset + 16, bigEndian: table.bigEndian),
      (0...FontLimits.maximumGlyphSize).contains(fontAscent), (0...FontLimits.maximumGlyphSize).contains(fontDescent)
    {
      ascent = fontAscent
      descent = fontDescent
    } else {
      throw fail("PCF accelerator table missing or invalid (no font ascent and descent)")
    }
    var registry = ""
    if let table = tables[PCFFont.properties] {
      registry = PCFFont.stringProperty("CHARSET_REGISTRY", in: table, reader: reader) ?? ""
    }
    isUnicode = registry.isEmpty || registry.uppercased().hasPrefix("ISO10646")
    warnings = isUnicode ? [] : ["\(path): encoding \(registry) is not Unicode: glyphs are looked up by their code as is"]
  }

  /// A string property's value from the properties table, if present.
  static func stringProperty(_ wanted: String, in table: Table, reader: ByteReader) -> String? {
    let big = table.bigEndian
    guard let count = reader.u32(table.offset + 4, bigEndian: big), count < 10_000 else { return nil }
    let entries = table.offset + 8
    let padded = (count * 9 + 3) / 4 * 4
    let stringsStart = entries + padded + 4
    func string(at offset: Int) -> String? {
      var end = stringsStart + offset
      guard reader.has(end, 1) else { return nil }
      while end < reader.bytes.count, reader.bytes[end] != 0 { end += 1 }
      return String(decoding: reader.bytes[(stringsStart + offset)..<end], as: UTF8.self)
    }
    for index in 0..<count {
      let entry = entries + index * 9
      guard let nameOffset = reader.u32(entry, bigEndian: big), let isString = reader.u8(entry + 4),
        let value = reader.u32(entry + 5, bigEndian: big)
      else { return nil }
      if isString != 0, string(at: nameOffset) == wanted { return string(at: value) }
    }
    return nil
  }

  /// The glyph index for a code, or `nil`.
  func index(of code: UInt32) -> Int? {
    let row = Int(code >> 8), column = Int(code & 0xFF)
    guard code <= 0xFFFF, (firstRow...lastRow).contains(row), (firstColumn...lastColumn).contains(column) else {
      return nil
    }
    let entry = (row - firstRow) * (lastColumn - firstColumn + 1) + (column - firstColumn)
    guard let glyph = reader.u16(encodings.offset + 14 + entry * 2, bigEndian: encodings.bigEndian),
      glyph != 0xFFFF, glyph < glyphTotal
    else { return nil }
    return glyph
  }

  /// A byte with its bits in the opposite order (a row stored least significant bit first).
  static func reversed(_ byte: UInt8) -> UInt8 {
    var bits = byte
    bits = bits >> 4 | bits << 4
    bits = (bits & 0xCC) >> 2 | (bits & 0x33) << 2
    return (bits & 0xAA) >> 1 | (bits & 0x55) << 1
  }

  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    guard let index = index(of: scalar.value) else { return nil }
    // Metrics: left and right bearing, advance, ascent, descent.
    func metric(_ field: Int) -> Int? {
      compressedMetrics
        ? reader.u8(metrics.offset + 6 + index * 5 + field).map { $0 - 0x80 }
        : reader.i16(metrics.offset + 8 + index * 12 + field * 2, bigEndian: metrics.bigEndian)
    }
    guard let left = metric(0), let right = metric(1), let advance = metric(2), let top = metric(3), let bottom = metric(4)
    else { return nil }
    let width = right - left, height = top + bottom
    guard (0...FontLimits.maximumGlyphSize).contains(width), (0...FontLimits.maximumGlyphSize).contains(height) else {
      return nil
    }
    let count = glyphTotal
    let big = bitmaps.bigEndian
    guard let offset = reader.u32(bitmaps.offset + 8 + index * 4, bigEndian: big) else { return nil }
    let dataStart = bitmaps.offset + 8 + count * 4 + 16
    let pad = bitmaps.glyphPad
    let rowBytes = ((width + 7) / 8 + pad - 1) / pad * pad
    let glyphBytes = rowBytes * height
    guard reader.has(dataStart + offset, glyphBytes) else { return nil }
    // When the byte order differs from the bit order, the bytes of each scan unit are
    // reversed, units counted from the glyph's start (as X11's writers swap each glyph);
    // when the bit order is LSB first, each byte's bits are reversed.
    let unit = bitmaps.bigEndian != bitmaps.msbBitFirst ? bitmaps.scanUnit : 1
    var bitmap = Framebuffer(width: width, height: height)
    let usedBytes = (width + 7) / 8
    for y in 0..<height {
      // Eight bytes to a framebuffer word, the first leftmost.
      var word: UInt64 = 0
      for column in 0..<usedBytes {
        let logical = y * rowBytes + column
        let stored = unit == 1 ? logical : logical / unit * unit + (unit - 1 - logical % unit)
        // A unit wider than the padding (bdftopcf -p1 -u4) leaves a glyph's last partial
        // unit outside the glyph: its writer lost those bytes, so they stay dark.
        if stored < glyphBytes {
          let byte = reader.bytes[dataStart + offset + stored]
          word |= UInt64(bitmaps.msbBitFirst ? byte : PCFFont.reversed(byte)) << UInt64(56 - 8 * (column & 7))
        }
        if column & 7 == 7 || column == usedBytes - 1 {
          bitmap.setRow(y, wordAt: column >> 3, to: word)
          word = 0
        }
      }
    }
    return Glyph(bitmap: bitmap, advance: max(0, advance), xOffset: left, top: top)
  }
}

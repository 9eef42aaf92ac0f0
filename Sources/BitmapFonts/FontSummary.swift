import Platform

/// What a font file is, read from its header alone: its format, line height and the number
/// of glyphs it holds, quickly enough to list every font a system has (`marquee fonts`).
///
/// Gzipped files are inflated only as far as the header reaches. The line height is the
/// one the full reader gives the font; the glyph count is the file's own figure: PSF's
/// glyph slots, BDF's `CHARS`, PCF's metrics count, a hex file's lines.
public struct FontSummary: Sendable, Equatable {
  public var format: FontFile.Format
  public var lineHeight: Int
  public var glyphCount: Int

  public init(format: FontFile.Format, lineHeight: Int, glyphCount: Int) {
    self.format = format
    self.lineHeight = lineHeight
    self.glyphCount = glyphCount
  }

  /// The summary of the font file at `path`; a file whose header does not tell (a BDF
  /// without a line box) is loaded whole.
  ///
  /// - Throws: ``FontLoadError`` for a file that cannot be read or is not a font.
  public static func read(path: String) throws(FontLoadError) -> FontSummary {
    let raw = try FontFile.readBytes(path)
    let gzipped = Gzip.isGzip(raw)
    func head(_ count: Int) -> [UInt8] { gzipped ? Gzip.prefix(raw, count: count) : Array(raw.prefix(count)) }
    let start = head(4096)
    if let summary = psf(start) ?? pcf(start, more: head) ?? bdf(start, more: head) { return summary }
    if FontFile.looksLikeHex(start) {
      let text = gzipped ? Gzip.prefix(raw, count: FontLimits.maximumFileSize) : raw
      // Unifont's glyphs are all 16 rows (HexFont: ascent 14, descent 2).
      return FontSummary(format: .hex, lineHeight: 16, glyphCount: lines(text))
    }
    let loaded = try FontFile.load(path: path)
    return FontSummary(format: loaded.format, lineHeight: loaded.font.lineHeight, glyphCount: loaded.glyphCount)
  }

  /// PSF 1 and 2: the header holds the glyph size and count.
  static func psf(_ bytes: [UInt8]) -> FontSummary? {
    let reader = ByteReader(bytes: bytes)
    if bytes.count >= 4 && bytes[0] == 0x36 && bytes[1] == 0x04 {
      return FontSummary(format: .psf, lineHeight: Int(bytes[3]), glyphCount: bytes[2] & 0x01 != 0 ? 512 : 256)
    }
    guard PSFFont.isPSF(bytes), let count = reader.u32(16, bigEndian: false), let height = reader.u32(24, bigEndian: false) else {
      return nil
    }
    return FontSummary(format: .psf, lineHeight: height, glyphCount: count)
  }

  /// PCF: the table of contents, then the accelerators (ascent, descent) and the metrics'
  /// count, which come before the bitmaps.
  static func pcf(_ start: [UInt8], more: (Int) -> [UInt8]) -> FontSummary? {
    guard PCFFont.isPCF(start) else { return nil }
    var reader = ByteReader(bytes: start)
    guard let tableCount = reader.u32(4, bigEndian: false), tableCount <= 64 else { return nil }
    var tables: [Int: Int] = [:]
    for index in 0..<tableCount {
      guard let type = reader.u32(8 + index * 16, bigEndian: false), let offset = reader.u32(8 + index * 16 + 12, bigEndian: false)
      else { return nil }
      tables[type] = offset
    }
    // The reader prefers the BDF accelerators; they repeat the others' ascent and descent.
    guard let accelerators = tables[PCFFont.accelerators] ?? tables[PCFFont.bdfAccelerators], let metrics = tables[PCFFont.metricsType]
    else { return nil }
    let needed = max(accelerators + 20, metrics + 10)
    if needed > start.count { reader = ByteReader(bytes: more(needed)) }
    guard let accelFormat = reader.u32(accelerators, bigEndian: false), let metricsFormat = reader.u32(metrics, bigEndian: false)
    else { return nil }
    let big = accelFormat & 0x04 != 0, metricsBig = metricsFormat & 0x04 != 0
    guard let ascent = reader.i32(accelerators + 12, bigEndian: big), let descent = reader.i32(accelerators + 16, bigEndian: big),
      let count = metricsFormat & 0x100 != 0 ? reader.u16(metrics + 4, bigEndian: metricsBig) : reader.u32(metrics + 4, bigEndian: metricsBig)
    else { return nil }
    return FontSummary(format: .pcf, lineHeight: ascent + descent, glyphCount: count)
  }

  /// BDF: the properties and bounding box before `CHARS`, read as the full reader reads them.
  static func bdf(_ start: [UInt8], more: (Int) -> [UInt8]) -> FontSummary? {
    guard FontFile.looksLikeBDF(start) else { return nil }
    var bytes = start
    var size = start.count
    while true {
      var ascent: Int?, descent: Int?, box: [Int]?
      let text = String(decoding: bytes, as: UTF8.self)
      for line in text.split(whereSeparator: \.isNewline) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let key = words.first else { continue }
        let numbers = words.dropFirst().compactMap { Int($0) }
        switch key {
        case "FONT_ASCENT": ascent = numbers.first
        case "FONT_DESCENT": descent = numbers.first
        case "FONTBOUNDINGBOX" where numbers.count == 4: box = numbers
        case "CHARS":
          guard let count = numbers.first else { return nil }
          let top = ascent ?? box.map { $0[1] + $0[3] }, bottom = descent ?? box.map { -$0[3] }
          guard let top, let bottom else { return nil }
          func clamped(_ value: Int) -> Int { max(0, min(FontLimits.maximumGlyphSize, value)) }
          return FontSummary(format: .bdf, lineHeight: clamped(top) + clamped(bottom), glyphCount: count)
        default: break
        }
      }
      // CHARS not reached yet: read further, up to 1 MiB of header.
      guard bytes.count == size, size < 1 << 20 else { return nil }
      size *= 4
      bytes = more(size)
    }
  }

  /// The number of non-empty lines (newlines found with `memchr`: fast in any build).
  static func lines(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { buffer in
      var count = 0
      var lineStart = 0
      while lineStart < buffer.count {
        let end = FileBytes.firstIndex(of: 0x0A, in: buffer, from: lineStart) ?? buffer.count
        if end > lineStart { count += 1 }
        lineStart = end + 1
      }
      return count
    }
  }
}

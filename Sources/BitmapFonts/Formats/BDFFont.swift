import MatrixCore

/// A font read from a BDF (Glyph Bitmap Distribution Format 2.1) file.
///
/// Accepts what real files contain: CRLF line ends, lower-case hex, trailing spaces, a
/// `CHARS` count that does not match, glyphs without `DWIDTH` (the bounding box width is
/// used, as FreeType does), negative offsets, glyphs wider than their advance, `ENCODING -1`
/// (unencoded: skipped), bitmaps with too few or too many rows. A glyph that cannot be read
/// is skipped with a warning naming its line; a file that is not BDF at all is an error.
public final class BDFFont: Font {
  public let name: String
  public let ascent: Int
  public let descent: Int
  /// The glyphs by code (a Unicode scalar when ``isUnicode``).
  public let glyphs: [UInt32: Glyph]
  /// Whether the font's codes are Unicode (CHARSET_REGISTRY ISO10646, or none given).
  public let isUnicode: Bool
  /// The `DEFAULT_CHAR` property, if any.
  public let defaultCharacter: UInt32?
  /// Glyphs skipped and other problems, with line numbers.
  public let warnings: [String]

  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    glyphs[scalar.value]
  }

  /// Parses BDF text; `path` names the file in errors and warnings.
  public init(text: [UInt8], name: String, path: String) throws(FontLoadError) {
    self.name = name
    var parser = BDFParser(bytes: text, path: path)
    let result = try parser.parse()
    glyphs = result.glyphs
    ascent = result.ascent
    descent = result.descent
    isUnicode = result.isUnicode
    defaultCharacter = result.defaultCharacter
    warnings = parser.warnings
  }
}

/// The line-by-line BDF reader behind ``BDFFont``.
struct BDFParser {
  let bytes: [UInt8]
  let path: String
  var position = 0
  var lineNumber = 0
  var warnings: [String] = []

  init(bytes: [UInt8], path: String) {
    self.bytes = bytes
    self.path = path
  }

  struct Result {
    var glyphs: [UInt32: Glyph] = [:]
    var ascent = 0
    var descent = 0
    var isUnicode = true
    var defaultCharacter: UInt32?
  }

  /// The next line's whitespace-separated tokens, or `nil` at the end.
  mutating func nextLine() -> [Substring]? {
    guard position < bytes.count else { return nil }
    var end = position
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    let line = String(decoding: bytes[position..<end], as: UTF8.self)
    position = end + 1
    lineNumber += 1
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
  }

  mutating func warn(_ message: String, line: Int? = nil) {
    if warnings.count < 50 { warnings.append("\(path):\(line ?? lineNumber): \(message)") }
  }

  func fail(_ reason: String, line: Int? = nil) -> FontLoadError {
    FontLoadError(path: path, line: line ?? lineNumber, reason: reason)
  }

  static func integers(_ tokens: [Substring], count: Int) -> [Int]? {
    guard tokens.count >= count + 1 else { return nil }
    let values = tokens[1...count].compactMap { Int($0) }
    return values.count == count ? values : nil
  }

  mutating func parse() throws(FontLoadError) -> Result {
    var result = Result()
    var started = false
    var boundingBox: [Int]?
    var fontAscent: Int?, fontDescent: Int?
    var globalWidth: Int?
    var inProperties = false
    while let tokens = nextLine() {
      guard let keyword = tokens.first else { continue }
      if keyword == "COMMENT" { continue }
      if !started {
        guard keyword == "STARTFONT" else { throw fail("not a BDF file (expected STARTFONT, found '\(keyword.prefix(20))')") }
        started = true
        continue
      }
      if inProperties {
        switch keyword {
        case "ENDPROPERTIES": inProperties = false
        case "FONT_ASCENT": fontAscent = tokens.count > 1 ? Int(tokens[1]) : nil
        case "FONT_DESCENT": fontDescent = tokens.count > 1 ? Int(tokens[1]) : nil
        case "DEFAULT_CHAR": result.defaultCharacter = tokens.count > 1 ? UInt32(tokens[1]) : nil
        case "CHARSET_REGISTRY":
          let registry = tokens.dropFirst().joined(separator: " ").replacingQuotes().uppercased()
          result.isUnicode = registry.hasPrefix("ISO10646") || registry.isEmpty
          if !result.isUnicode { warn("encoding \(registry) is not Unicode: glyphs are looked up by their code as is") }
        default: break
        }
        continue
      }
      switch keyword {
      case "FONTBOUNDINGBOX":
        guard let box = BDFParser.integers(tokens, count: 4) else { throw fail("FONTBOUNDINGBOX needs four integers") }
        boundingBox = box
      case "STARTPROPERTIES": inProperties = true
      case "DWIDTH":
        globalWidth = tokens.count > 1 ? Int(tokens[1]) : nil
      case "STARTCHAR":
        if let (code, glyph) = try parseGlyph(globalWidth: globalWidth) {
          if result.glyphs[code] != nil { warn("U+\(String(code, radix: 16, uppercase: true)) appears twice; the first is kept") } else { result.glyphs[code] = glyph }
        }
      case "ENDFONT":
        return try finish(&result, boundingBox: boundingBox, ascent: fontAscent, descent: fontDescent)
      default: break  // SIZE, FONT, CHARS, METRICSSET, SWIDTH…: not needed to draw
      }
    }
    guard started else { throw fail("empty file (not a BDF font)", line: 1) }
    warn("no ENDFONT: the file may be truncated")
    return try finish(&result, boundingBox: boundingBox, ascent: fontAscent, descent: fontDescent)
  }

  mutating func finish(_ result: inout Result, boundingBox: [Int]?, ascent: Int?, descent: Int?) throws(FontLoadError) -> Result {
    guard !result.glyphs.isEmpty else { throw fail("no glyphs could be read") }
    // The line box: FONT_ASCENT/DESCENT, else the font bounding box (as FreeType), else the glyphs.
    let fromGlyphsAscent = result.glyphs.values.map(\.top).max() ?? 0
    let fromGlyphsDescent = result.glyphs.values.map(\.descent).max() ?? 0
    let boxAscent = boundingBox.map { $0[1] + $0[3] }
    let boxDescent = boundingBox.map { -$0[3] }
    result.ascent = max(0, min(FontLimits.maximumGlyphSize, ascent ?? boxAscent ?? fromGlyphsAscent))
    result.descent = max(0, min(FontLimits.maximumGlyphSize, descent ?? boxDescent ?? fromGlyphsDescent))
    return result
  }

  /// Reads one glyph after STARTCHAR; `nil` when it is unencoded or unreadable (skipped).
  mutating func parseGlyph(globalWidth: Int?) throws(FontLoadError) -> (UInt32, Glyph)? {
    let start = lineNumber
    var code: Int?
    var advance: Int?
    var box: [Int]?
    var problem: String?
    while let tokens = nextLine() {
      guard let keyword = tokens.first else { continue }
      switch keyword {
      case "ENCODING":
        guard tokens.count > 1, let value = Int(tokens[1]) else {
          problem = problem ?? "ENCODING needs an integer"
          continue
        }
        code = value
      case "DWIDTH":
        advance = tokens.count > 1 ? Int(tokens[1]) : nil
        if advance == nil { problem = problem ?? "DWIDTH needs an integer" }
      case "BBX":
        box = BDFParser.integers(tokens, count: 4)
        if box == nil { problem = problem ?? "BBX needs four integers" }
      case "BITMAP":
        let rows = readRows()
        guard rows.ended else { throw fail("the file ends inside the glyph that starts at line \(start)") }
        guard problem == nil else {
          warn("glyph skipped: \(problem!)", line: start)
          return nil
        }
        guard let box else {
          warn("glyph skipped: no BBX", line: start)
          return nil
        }
        guard let code else {
          warn("glyph skipped: no ENCODING", line: start)
          return nil
        }
        guard code >= 0, code <= 0x10FFFF else { return nil }  // ENCODING -1: unencoded
        let (width, height) = (box[0], box[1])
        guard (0...FontLimits.maximumGlyphSize).contains(width), (0...FontLimits.maximumGlyphSize).contains(height),
          abs(box[2]) <= FontLimits.maximumGlyphSize, abs(box[3]) <= FontLimits.maximumGlyphSize
        else {
          warn("glyph skipped: BBX \(width) \(height) \(box[2]) \(box[3]) is out of range", line: start)
          return nil
        }
        if rows.lines.count != height {
          warn("glyph U+\(String(code, radix: 16, uppercase: true)) has \(rows.lines.count) bitmap rows, BBX says \(height)", line: start)
        }
        var bitmap = Framebuffer(width: width, height: height)
        for (y, row) in rows.lines.prefix(height).enumerated() {
          // Sixteen digits make a word of the row, the first digit leftmost; digits past
          // the width (rows are padded to whole bytes) are dropped by setRow.
          var word: UInt64 = 0, digit = 0
          for byte in row {
            guard let nibble = HexDigit.value(byte) else {
              warn("glyph skipped: '\(Character(Unicode.Scalar(byte)))' is not a hex digit", line: rows.firstLine + y)
              return nil
            }
            word |= UInt64(nibble) << UInt64(60 - 4 * (digit & 15))
            if digit & 15 == 15 {
              bitmap.setRow(y, wordAt: digit >> 4, to: word)
              word = 0
            }
            digit += 1
          }
          if digit & 15 != 0 { bitmap.setRow(y, wordAt: digit >> 4, to: word) }
        }
        let glyph = Glyph(
          bitmap: bitmap, advance: max(0, min(FontLimits.maximumGlyphSize, advance ?? globalWidth ?? width)),
          xOffset: box[2], top: height + box[3])
        return (UInt32(code), glyph)
      case "ENDCHAR":
        warn("glyph skipped: no BITMAP", line: start)
        return nil
      case "STARTCHAR", "ENDFONT":
        throw fail("STARTCHAR at line \(start) has no ENDCHAR")
      default: break  // SWIDTH, ATTRIBUTES, COMMENT…
      }
    }
    throw fail("the file ends inside the glyph that starts at line \(start)")
  }

  /// The hex rows after BITMAP, up to ENDCHAR.
  mutating func readRows() -> (lines: [[UInt8]], firstLine: Int, ended: Bool) {
    var lines: [[UInt8]] = []
    let first = lineNumber + 1
    while position < bytes.count {
      var end = position
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      var row = Array(bytes[position..<end])
      position = end + 1
      lineNumber += 1
      while let last = row.last, last == 0x0D || last == 0x20 || last == 0x09 { row.removeLast() }
      while let first = row.first, first == 0x20 || first == 0x09 { row.removeFirst() }
      if row == Array("ENDCHAR".utf8) { return (lines, first, true) }
      lines.append(row)
    }
    return (lines, first, false)
  }
}

extension String {
  /// The string without its surrounding double quotes.
  func replacingQuotes() -> String {
    var text = self
    if text.hasPrefix("\"") { text.removeFirst() }
    if text.hasSuffix("\"") { text.removeLast() }
    return text
  }
}

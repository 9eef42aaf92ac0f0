import Foundation
import MatrixCore
import TestSupport

/// Real font files from Debian packages, and the packages' tools, for tests that check the
/// readers against them. Tests that need one are skipped, naming the package, when it is
/// not installed; `.ci/run` installs them all.
enum DebianFonts {
  static let unifontHex = "/usr/share/unifont/unifont.hex"
  static let wqy12 = "/usr/share/fonts/X11/misc/wenquanyi_12pt.pcf"
  static let fixed6x13 = "/usr/share/fonts/X11/misc/6x13.pcf.gz"
  static let terminus32 = "/usr/share/consolefonts/Lat15-Terminus32x16.psf.gz"
  static let terminus16 = "/usr/share/consolefonts/Lat15-Terminus16.psf.gz"
  static let hex2bdf = "/usr/bin/hex2bdf"
  static let pcf2bdf = "/usr/bin/pcf2bdf"

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// Runs a tool, feeding `input`, and returns its standard output.
  static func run(_ tool: String, _ arguments: [String], input: Data? = nil) throws -> Data {
    let result = try ChildProcess.run(tool, arguments, input: input)
    guard !result.timedOut else { throw ChildError("\(tool) \(arguments) did not end in time") }
    return result.stdoutData
  }

  /// One glyph read straight from BDF text by a minimal, separate reader: its BBX, DWIDTH
  /// and bitmap rows.
  struct BDFGlyph: Equatable {
    var width = 0, height = 0, xOffset = 0, yOffset = 0, advance = 0
    /// The BITMAP rows, `width` pixels wide.
    var bitmap = Framebuffer(width: 0, height: 0)

    /// The rows as '#'/'.' strings.
    var rows: [String] {
      (0..<bitmap.height).map { y in String((0..<bitmap.width).map { bitmap[$0, y] ? "#" : "." }) }
    }
  }

  static func bdfGlyph(_ text: String, encoding: Int) -> BDFGlyph? {
    guard let range = text.range(of: "\nENCODING \(encoding)\n") else { return nil }
    // Only up to its ENDCHAR: the lines of the rest of a large font are not split for it.
    let end = text.range(of: "\nENDCHAR", range: range.upperBound..<text.endIndex)?.upperBound ?? text.endIndex
    return bdfGlyphs(text[range.upperBound..<end], first: true)[-1]
  }

  /// Every glyph of BDF text by encoding, in one pass (`first`: only the glyph the text
  /// starts inside of, keyed -1). The text is read as bytes, a hexadecimal row straight
  /// into words of pixels: a debug build spends seconds on a string per line and row.
  static func bdfGlyphs(_ text: Substring, first: Bool = false) -> [Int: BDFGlyph] {
    let bytes = Array(text.utf8)
    var glyphs: [Int: BDFGlyph] = [:]
    var glyph = BDFGlyph()
    var encoding: Int? = first ? -1 : nil
    var inBitmap = false
    var rows: [[UInt64]] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      let line = start..<end
      start = end + 1
      if BDFLine.starts(bytes, line, "ENDCHAR") {
        if let encoding {
          glyph.bitmap = Framebuffer(width: glyph.width, height: rows.count)
          for (y, words) in rows.enumerated() {
            for (index, word) in words.enumerated() { glyph.bitmap.setRow(y, wordAt: index, to: word) }
          }
          glyphs[encoding] = glyph
        }
        if first { break }
        (glyph, encoding, inBitmap, rows) = (BDFGlyph(), nil, false, [])
      } else if inBitmap {
        rows.append(BDFLine.hexWords(bytes, line))
      } else if BDFLine.starts(bytes, line, "ENCODING") {
        encoding = BDFLine.numbers(bytes, line).first
      } else if BDFLine.starts(bytes, line, "BBX") {
        let numbers = BDFLine.numbers(bytes, line)
        (glyph.width, glyph.height, glyph.xOffset, glyph.yOffset) = (numbers[0], numbers[1], numbers[2], numbers[3])
      } else if BDFLine.starts(bytes, line, "DWIDTH") {
        glyph.advance = BDFLine.numbers(bytes, line)[0]
      } else if BDFLine.starts(bytes, line, "BITMAP") {
        inBitmap = true
      }
    }
    return glyphs
  }

  /// The pieces of one line of BDF bytes.
  enum BDFLine {
    /// Whether the line's first word is `keyword`.
    static func starts(_ bytes: [UInt8], _ line: Range<Int>, _ keyword: StaticString) -> Bool {
      let count = keyword.utf8CodeUnitCount
      guard line.count >= count, line.count == count || bytes[line.lowerBound + count] == 0x20 else { return false }
      let pointer = keyword.utf8Start
      var offset = 0
      while offset < count {
        guard bytes[line.lowerBound + offset] == pointer[offset] else { return false }
        offset += 1
      }
      return true
    }

    /// The signed decimal numbers on the line.
    static func numbers(_ bytes: [UInt8], _ line: Range<Int>) -> [Int] {
      var numbers: [Int] = [], value = 0, sign = 1, inNumber = false, index = line.lowerBound
      while index <= line.upperBound {
        let byte = index < line.upperBound ? bytes[index] : 0x20
        index += 1
        if byte >= 0x30 && byte <= 0x39 {
          value = value * 10 + Int(byte - 0x30)
          inNumber = true
        } else {
          if inNumber { numbers.append(sign * value) }
          (value, inNumber) = (0, false)
          sign = byte == UInt8(ascii: "-") ? -1 : 1
        }
      }
      return numbers
    }

    /// A row of hexadecimal digits as 64-pixel words, the first digit leftmost.
    static func hexWords(_ bytes: [UInt8], _ line: Range<Int>) -> [UInt64] {
      var words: [UInt64] = [], word: UInt64 = 0, digits = 0, index = line.lowerBound
      while index < line.upperBound {
        let byte = bytes[index] | 0x20
        index += 1
        let value: UInt64
        if byte >= 0x30 && byte <= 0x39 {
          value = UInt64(byte - 0x30)
        } else if byte >= 0x61 && byte <= 0x66 {
          value = UInt64(byte - 0x61 + 10)
        } else {
          continue
        }
        word = word << 4 | value
        digits += 1
        if digits == 16 {
          words.append(word)
          (word, digits) = (0, 0)
        }
      }
      if digits > 0 { words.append(word << (4 * UInt64(16 - digits))) }
      return words
    }
  }
}

extension Framebuffer {
  /// The rows as '#'/'.' strings.
  var rowStrings: [String] { text.split(separator: "\n").map(String.init) }
}

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
  /// and bitmap rows as '#'/'.' strings.
  struct BDFGlyph: Equatable {
    var width = 0, height = 0, xOffset = 0, yOffset = 0, advance = 0
    var rows: [String] = []
  }

  static func bdfGlyph(_ text: String, encoding: Int) -> BDFGlyph? {
    guard let range = text.range(of: "\nENCODING \(encoding)\n") else { return nil }
    // Only up to its ENDCHAR: the lines of the rest of a large font are not split for it.
    let end = text.range(of: "\nENDCHAR", range: range.upperBound..<text.endIndex)?.upperBound ?? text.endIndex
    return bdfGlyphs(text[range.upperBound..<end], first: true)[-1]
  }

  /// Every glyph of BDF text by encoding, in one pass (`first`: only the glyph the text
  /// starts inside of, keyed -1).
  static func bdfGlyphs(_ text: Substring, first: Bool = false) -> [Int: BDFGlyph] {
    var glyphs: [Int: BDFGlyph] = [:]
    var glyph = BDFGlyph()
    var encoding: Int? = first ? -1 : nil
    var inBitmap = false
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ").map(String.init)
      if parts.first == "ENDCHAR" {
        if let encoding { glyphs[encoding] = glyph }
        if first { break }
        (glyph, encoding, inBitmap) = (BDFGlyph(), nil, false)
      } else if inBitmap {
        let bits = parts[0].compactMap { $0.hexDigitValue }.flatMap { v in (0..<4).map { v & (8 >> $0) != 0 } }
        glyph.rows.append(String(bits.prefix(glyph.width).map { $0 ? "#" : "." }))
      } else if parts.first == "ENCODING" {
        encoding = Int(parts[1])
      } else if parts.first == "BBX" {
        (glyph.width, glyph.height, glyph.xOffset, glyph.yOffset) = (Int(parts[1])!, Int(parts[2])!, Int(parts[3])!, Int(parts[4])!)
      } else if parts.first == "DWIDTH" {
        glyph.advance = Int(parts[1])!
      } else if parts.first == "BITMAP" {
        inBitmap = true
      }
    }
    return glyphs
  }
}

extension Framebuffer {
  /// The rows as '#'/'.' strings.
  var rowStrings: [String] { text.split(separator: "\n").map(String.init) }
}

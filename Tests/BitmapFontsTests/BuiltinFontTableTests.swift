import BitmapFonts
import Foundation
import TestSupport
import Testing

/// The built-in 5x7 font's constant data is what its generator makes of the drawing.
@Suite struct BuiltinFontTableTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(.enabled(if: python != nil, "needs python3"))
  func theFontsDataIsWhatTheGeneratorWritesFromTheDrawing() throws {
    let script = Self.root.appendingPathComponent("Sources/BitmapFonts/Art/font_tables.py").path
    let result = try ChildProcess.run(Self.python!, [script], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/BitmapFonts/BuiltinFont5x7+Data.swift"), encoding: .utf8)
    let same = result.stdout == committed
    #expect(same, "BuiltinFont5x7+Data.swift differs from what Art/font_tables.py writes: run it again")
  }

  /// A letter the drawing has and one composed from it, pixel by pixel.
  @Test func glyphsAreDrawnFromTheData() throws {
    let font = BuiltinFont5x7()
    let a = try #require(font.glyph(for: "A"))
    #expect(a.bitmap.text == ".###.\n#...#\n#...#\n#...#\n#####\n#...#\n#...#\n.....\n")
    let acute = try #require(font.glyph(for: "É"))
    #expect(acute.bitmap.text == "...#.\n#####\n#....\n####.\n#....\n#....\n#####\n.....\n")
    #expect(font.glyph(for: "\u{4E2D}") == nil)
    #expect(font.scalars.count == 187)
  }
}

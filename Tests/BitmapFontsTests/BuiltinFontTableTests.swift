import BitmapFonts
import Foundation
import MatrixCore
import TestSupport
import Testing

/// The built-in fonts' and icons' constant data is what the generators make of their drawings.
@Suite struct BuiltinFontTableTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(.enabled(if: python != nil, "needs python3"), arguments: ["5x7", "3x5"])
  func theFontsDataIsWhatTheGeneratorWritesFromTheDrawing(font: String) throws {
    let script = Self.root.appendingPathComponent("Sources/FontCore/Art/font_tables.py").path
    let result = try ChildProcess.run(Self.python!, [script, font], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/FontCore/BuiltinFont\(font)+Data.swift"), encoding: .utf8)
    let same = result.stdout == committed
    #expect(same, "BuiltinFont\(font)+Data.swift differs from what Art/font_tables.py writes: run it again")
  }

  @Test(.enabled(if: python != nil, "needs python3"))
  func theIconsDataIsWhatTheGeneratorWritesFromTheDrawing() throws {
    let script = Self.root.appendingPathComponent("Sources/FontCore/Art/icon_tables.py").path
    let result = try ChildProcess.run(Self.python!, [script], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/FontCore/Icons/BuiltinIcons+Data.swift"), encoding: .utf8)
    let same = result.stdout == committed
    #expect(same, "BuiltinIcons+Data.swift differs from what Art/icon_tables.py writes: run it again")
  }

  /// A built-in icon is drawn when named; a set with the built-in icons lists them all, and
  /// its own icon of a name wins.
  @Test func builtInIconsAreDrawnWhenNamed() throws {
    let up = try #require(BuiltinIcons.icon(named: "arrow-up"))
    #expect(up.pictures[0].text == "...##...\n..####..\n.######.\n########\n...##...\n...##...\n...##...\n...##...\n")
    let right = try #require(BuiltinIcons.icon(named: "arrow-right"))
    #expect(right.pictures[0].text.split(separator: "\n")[3] == "########")
    #expect(BuiltinIcons.icon(named: "nope") == nil)
    #expect(IconSet.builtIn.names == BuiltinIcons.names.sorted())
    #expect(IconSet().names.isEmpty && IconSet()["heart"] == nil)
    let own = Icon(name: "heart", pictures: [Framebuffer(width: 1, height: 1)])
    #expect(IconSet.builtIn.adding(IconSet([own]))["heart"] == own)
    #expect(IconSet.builtIn["heart"]?.pictures.count == 2)
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

  /// The 3x5 font draws small letters as capitals and keeps digits 3 wide; the 8x8 font is
  /// the 5x7 one drawn bold.
  @Test func theOtherBuiltInFontsAreDrawnFromTheirData() throws {
    let tiny = BuiltinFont3x5()
    #expect(try #require(tiny.glyph(for: "a")).bitmap.text == ".#.\n#.#\n###\n#.#\n#.#\n...\n")
    #expect(try #require(tiny.glyph(for: "1")).bitmap.width == 3)
    #expect(try #require(tiny.glyph(for: "!")).bitmap.text == "#\n#\n#\n.\n#\n.\n")
    #expect(tiny.scalars.count == 64 + 26 + 1)
    let bold = BuiltinFont8x8()
    #expect(try #require(bold.glyph(for: "I")).bitmap.text.split(separator: "\n").first == "####")
    #expect(bold.scalars == BuiltinFont5x7().scalars)
  }

  /// Whether a built-in font has a glyph is answered without drawing it, and the answer is
  /// the lookup's.
  @Test func hasGlyphAgreesWithTheLookup() {
    let fonts: [any Font] = [BuiltinFont5x7(), BuiltinFont3x5(), BuiltinFont8x8()]
    for font in fonts {
      let disagree = (0...0x2200).compactMap(Unicode.Scalar.init).filter { font.hasGlyph(for: $0) != (font.glyph(for: $0) != nil) }
      #expect(disagree.isEmpty, "\(font.name): \(disagree.prefix(5))")
    }
  }
}

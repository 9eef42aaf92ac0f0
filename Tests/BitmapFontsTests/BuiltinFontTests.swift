import MarqueeTesting
import MatrixCore
import Testing

@testable import BitmapFonts
@testable import FontCore

@Suite struct BuiltinFontTests {
  let font = BuiltinFont5x7()

  static let latin1Letters: [Unicode.Scalar] = (0xC0...0xFF)
    .filter { $0 != 0xD7 && $0 != 0xF7 }
    .compactMap(Unicode.Scalar.init)

  @Test func coversPrintableASCIIAndLatin1Letters() {
    let ascii = (0x20...0x7E).compactMap(Unicode.Scalar.init)
    for scalar in ascii + BuiltinFontTests.latin1Letters {
      #expect(font.glyph(for: scalar) != nil, "missing U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test func everyGlyphButSpaceLightsSomethingWithinTheLine() {
    for scalar in font.scalars where scalar != " " && scalar != "\u{A0}" {
      let glyph = font.glyph(for: scalar)!
      #expect(!glyph.bitmap.isBlank, "U+\(String(scalar.value, radix: 16)) is blank")
      #expect(glyph.bitmap.height == 8 && glyph.top == 7)
      #expect((1...5).contains(glyph.advance))
    }
  }

  @Test func lettersAreAllDistinct() {
    // Every accented letter must be told apart from its base and from its siblings.
    let letters = (0x41...0x5A).compactMap(Unicode.Scalar.init)
      + (0x61...0x7A).compactMap(Unicode.Scalar.init) + BuiltinFontTests.latin1Letters
    var seen: [Framebuffer: Unicode.Scalar] = [:]
    for scalar in letters {
      let bitmap = font.glyph(for: scalar)!.bitmap
      #expect(seen[bitmap] == nil, "\(scalar) looks like \(seen[bitmap].map { String($0) } ?? "")")
      seen[bitmap] = scalar
    }
  }

  @Test func digitsAreFullWidthSoClocksDoNotMove() {
    for digit in "0123456789".unicodeScalars {
      #expect(font.glyph(for: digit)!.advance == 5)
    }
    #expect(font.glyph(for: "i")!.advance < 5)
    #expect(font.glyph(for: " ")!.advance == 3)
  }

  /// Every glyph of the font, 16 to a row, as a sheet that a person can review.
  @Test func sheetOfEveryGlyph() {
    let scalars = font.scalars
    let columns = 16
    let rows = (scalars.count + columns - 1) / columns
    var sheet = Framebuffer(width: columns * 7, height: rows * 9)
    for (index, scalar) in scalars.enumerated() {
      let glyph = font.glyph(for: scalar)!
      sheet.draw(glyph.bitmap, atX: (index % columns) * 7, y: (index / columns) * 9)
    }
    expectSnapshot(sheet, named: "sheet")
  }
}

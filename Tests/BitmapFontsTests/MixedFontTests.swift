import MarqueeTesting
import MatrixCore
import Testing

@testable import BitmapFonts
@testable import FontCore

@Suite(.enabled(if: DebianFonts.exists(DebianFonts.unifontHex), "needs the Debian package unifont"))
struct MixedFontTests {
  static let shared: (any Font)? = try? FontFile.load(path: DebianFonts.unifontHex).font
  var unifont: any Font { MixedFontTests.shared! }

  @Test func fullWidthCJKTakesItsFontsAdvance() {
    let renderer = TextRenderer(fonts: FontChain([BuiltinFont5x7(), unifont]), letterSpacing: 0)
    #expect(renderer.measure("中文") == 32)
    #expect(renderer.measure("A中") == 5 + 16)
  }

  @Test func baselinesLineUpWhenFontsOfDifferentHeightsMix() throws {
    let renderer = TextRenderer(fonts: FontChain([BuiltinFont5x7(), unifont]), letterSpacing: 1)
    let layout = renderer.layout("H中")
    // Unifont: 14 above the baseline, 2 below; the 5x7 has 7 above, 1 below.
    #expect(layout.height == 16)
    let strip = renderer.draw(layout)
    // H's bottom row (the baseline row above it) is strip row 13, like the hanzi's baseline.
    let hRows = (0..<16).filter { y in (0..<5).contains { strip[$0, y] } }
    #expect(hRows.last == 13 && hRows.first == 7)
    // A Latin-only line stays 8 rows tall: only fonts that drew something count.
    #expect(renderer.layout("Hello").height == 8)
  }

  @Test func theFallbackIsTheReplacementCharacterWhenAFontHasIt() throws {
    let renderer = TextRenderer(fonts: FontChain([unifont]))
    let missing = renderer.render("\u{E000}")  // private use: not in Unifont's BMP file
    #expect(missing == renderer.render("\u{FFFD}"))
  }

  @Test func combiningMarksOverlayTheirBaseInUnifont() throws {
    let renderer = TextRenderer(fonts: FontChain([unifont]), letterSpacing: 0)
    // q has no precomposed form: the mark (offset -8 in plane00-combining.txt) is drawn over it.
    let combined = renderer.render("q\u{0301}")
    #expect(combined.width == 8)
    let q = renderer.render("q")
    #expect(combined.litCount > q.litCount)
    // Everything of q is still there.
    var overlap = combined
    overlap.draw(q, atX: 0, y: 0, mode: .clear)
    #expect(overlap.litCount == combined.litCount - q.litCount)
  }

  @Test func invalidUTF8ShowsAsTheReplacementCharacter() {
    let bytes: [UInt8] = [0x41, 0xFF, 0x42]
    let text = String(decoding: bytes, as: UTF8.self)
    let renderer = TextRenderer(fonts: FontChain([BuiltinFont5x7(), unifont]))
    #expect(renderer.render(text) == renderer.render("A\u{FFFD}B"))
  }
}

@Suite struct TinyFontTests {
  @Test func tinyFontSheet() {
    let font = BuiltinFont3x5()
    let scalars = font.scalars.filter { !(0x61...0x7A).contains($0.value) }
    var sheet = Framebuffer(width: 16 * 5, height: ((scalars.count + 15) / 16) * 7)
    for (index, scalar) in scalars.enumerated() {
      sheet.draw(font.glyph(for: scalar)!.bitmap, atX: (index % 16) * 5, y: (index / 16) * 7)
    }
    expectSnapshot(sheet, named: "sheet")
  }

  @Test func boldFontSheet() {
    let font = BuiltinFont8x8()
    let scalars = font.scalars
    var sheet = Framebuffer(width: 16 * 8, height: ((scalars.count + 15) / 16) * 9)
    for (index, scalar) in scalars.enumerated() {
      sheet.draw(font.glyph(for: scalar)!.bitmap, atX: (index % 16) * 8, y: (index / 16) * 9)
    }
    expectSnapshot(sheet, named: "sheet")
    #expect(font.glyph(for: "0")?.advance == 6)
    #expect(TextRenderer(fonts: FontChain(font)).render("Bold").height == 8)
  }

  @Test func smallLettersAreDrawnAsCapitalsAndDigitsAreFullWidth() {
    let font = BuiltinFont3x5()
    #expect(font.glyph(for: "a") == font.glyph(for: "A"))
    #expect(font.glyph(for: "1")?.advance == 3)
    #expect(TextRenderer(fonts: FontChain(font)).render("OK 12").height == 6)
  }
}

import MarqueeTesting
import MatrixCore
import Testing

@testable import BitmapFonts
@testable import FontCore

@Suite struct TextRendererTests {
  let renderer = TextRenderer()

  @Test func stripIsOneLineTallAndAsWideAsTheText() {
    let strip = renderer.render("Hi")
    // H is 5 wide, i is 3, with one column between.
    #expect(strip.height == 8)
    #expect(strip.width == 9)
    #expect(renderer.measure("Hi") == 9)
    #expect(renderer.measure("") == 0)
    #expect(renderer.render("").width == 0)
  }

  @Test func letterSpacingIsApplied() {
    #expect(TextRenderer(letterSpacing: 3).measure("HH") == 13)
    #expect(TextRenderer(letterSpacing: 0).measure("HH") == 10)
  }

  @Test func measureEqualsRenderedWidth() {
    for text in ["Hello, LED world!", "àéîõü ÆØ", "a\u{0301}b", "中文"] {
      #expect(renderer.measure(text) == renderer.render(text).width)
    }
  }

  @Test func unknownCharactersGetABoxNeverNothing() {
    let strip = renderer.render("中")
    #expect(strip.width == 5)
    // A hollow 5x7 box sitting on the baseline.
    #expect(strip.text == """
      #####
      #...#
      #...#
      #...#
      #...#
      #...#
      #####
      .....

      """)
  }

  @Test func aCombiningAccentDrawsLikeThePrecomposedLetter() {
    #expect(renderer.render("e\u{0301}") == renderer.render("é"))
    #expect(renderer.render("A\u{030A}") == renderer.render("Å"))
  }

  @Test func oneGlyphPerGraphemeCluster() {
    // A flag and a family emoji are one cluster each: one box each, not several.
    #expect(renderer.layout("🇫🇷").glyphs.count == 1)
    #expect(renderer.layout("👩‍👩‍👧").glyphs.count == 1)
  }

  @Test func controlAndZeroWidthCharactersTakeNoRoom() {
    #expect(renderer.render("A\u{200B}B") == renderer.render("AB"))
    #expect(renderer.render("A\u{0007}B") == renderer.render("AB"))
    #expect(renderer.render("A\u{FEFF}B") == renderer.render("AB"))
  }

  @Test func layoutRemembersWhichCharacterEachGlyphDraws() {
    let layout = renderer.layout("ab")
    #expect(layout.glyphs.map(\.characterIndex) == [0, 1])
    #expect(layout.glyphs[1].x == 6)
  }

  @Test func sentenceSnapshot() {
    expectSnapshot(renderer.render("Hello, LED world! 0123"), named: "hello")
    expectSnapshot(renderer.render("Ça coûte 5€ — déjà vu?"), named: "latin1")
  }
}

/// Real X11 fonts whose glyphs reach above FONT_ASCENT or below FONT_DESCENT: every pixel of
/// every glyph is drawn, none cut at the declared line box.
@Suite struct InkBeyondTheLineBoxTests {
  static let fonts = [
    ("/usr/share/fonts/X11/75dpi/helvR08.pcf.gz", "xfonts-75dpi"),
    ("/usr/share/fonts/X11/75dpi/timR10.pcf.gz", "xfonts-75dpi"),
    ("/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf", "xfonts-wqy"),
  ]

  @Test(.enabled(if: fonts.allSatisfy { DebianFonts.exists($0.0) }, "needs the Debian packages xfonts-75dpi and xfonts-wqy"),
        arguments: fonts.map(\.0))
  func everyGlyphIsDrawnWhole(path: String) throws {
    let font = try FontFile.load(path: path).font
    let renderer = TextRenderer(fonts: FontChain(font))
    var beyond = 0, checked = 0
    for (number, scalar) in (0x21...0xFFFF).compactMap(Unicode.Scalar.init).enumerated()
    where !scalar.properties.generalCategory.isMark && !TextRenderer.isInvisible(scalar) {
      guard let glyph = font.glyph(for: scalar), let rows = glyph.bitmap.litRows else { continue }
      let isBeyond = glyph.top - rows.lowerBound > font.ascent || rows.upperBound + 1 - glyph.top > font.descent
      if isBeyond { beyond += 1 }
      // Every glyph beyond the box, and one in twenty of the others.
      guard isBeyond || number % 20 == 0 else { continue }
      checked += 1
      let strip = renderer.render(String(Character(scalar)))
      #expect(strip.litCount == glyph.bitmap.litCount, "U+\(String(scalar.value, radix: 16, uppercase: true)) lost pixels")
      #expect(strip.height >= font.lineHeight)
    }
    #expect(checked > 10)
    #expect(beyond > 0, "the font has glyphs beyond its line box, as the test assumes")
  }
}

@Suite struct HelvR08AccentsTests {
  static let path = "/usr/share/fonts/X11/75dpi/helvR08.pcf.gz"

  @Test(.enabled(if: DebianFonts.exists(path), "needs the Debian package xfonts-75dpi"))
  func capitalsWithAccentsKeepTheirTopRow() throws {
    let path = HelvR08AccentsTests.path
    let font = try FontFile.load(path: path).font
    let strip = TextRenderer(fonts: FontChain(font)).render("ÉÑ")
    let accents = try #require(font.glyph(for: "É")).bitmap.litCount + (try #require(font.glyph(for: "Ñ"))).bitmap.litCount
    #expect(strip.litCount == accents)
    #expect(strip.height == font.lineHeight + 1, "one row above the declared ascent")
  }
}

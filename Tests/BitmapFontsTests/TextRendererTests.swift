import MarqueeTesting
import MatrixCore
import Testing

@testable import BitmapFonts

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

import BitmapFonts
import Foundation
import MatrixCore
import Testing

/// Arabic, Hebrew, Vietnamese and Thai as Unifont draws them: letters in reading order,
/// joined, brackets mirrored, marks on their letters. Each expected strip is built from the
/// font's own glyphs for the characters a reader sees, left to right.
@Suite(.enabled(if: DebianFonts.exists(DebianFonts.unifontHex), "needs the Debian package unifont"))
struct RightToLeftRenderingTests {
  static let unifont: (any Font)? = try? FontFile.load(path: DebianFonts.unifontHex).font
  let renderer = TextRenderer(fonts: FontChain(RightToLeftRenderingTests.unifont!))

  /// The characters drawn one after another, left to right, a column apart.
  func strip(_ characters: [Unicode.Scalar], renderer: TextRenderer? = nil) -> Framebuffer {
    let strips = characters.map { (renderer ?? self.renderer).render(String(Character($0))) }
    var result = Framebuffer(width: strips.map(\.width).reduce(0, +) + strips.count - 1, height: strips[0].height)
    var x = 0
    for piece in strips {
      result.draw(piece, atX: x, y: 0, mode: .or)
      x += piece.width + 1
    }
    return result
  }

  @Test func hebrewReadsRightToLeft() {
    // שלום: shin, lamed, vav, final mem; drawn from the left: final mem first.
    #expect(renderer.render("שלום") == strip(["ם", "ו", "ל", "ש"]))
    #expect(renderer.layout("שלום").direction == .rtl)
  }

  @Test func arabicLettersJoinAndLamAlefIsOneLigature() {
    // سلام: seen initial (U+FEB3), lam-alef final (U+FEFC), meem isolated (U+FEE1).
    #expect(renderer.render("سلام") == strip(["\u{FEE1}", "\u{FEFC}", "\u{FEB3}"]))
    // محمد: meem initial, hah medial, meem medial, dal final.
    #expect(renderer.render("محمد") == strip(["\u{FEAA}", "\u{FEE4}", "\u{FEA4}", "\u{FEE3}"]))
  }

  @Test func aLatinNameAndANumberKeepTheirOrderInsideRightToLeftText() {
    // The paragraph reads right to left (its first letter is Hebrew); "Apple 123" (a
    // number after a Latin word joins it, rule W7) stays as written, on the left.
    let expected: [Unicode.Scalar] = ["A", "p", "p", "l", "e", " ", "1", "2", "3", " ", "ם", "ו", "ל", "ש"]
    #expect(renderer.render("שלום Apple 123") == strip(expected))
    // A price between Hebrew words: the number reads left to right, the words around it
    // right to left ("price 25 shekel").
    #expect(renderer.render("מחיר 25 שקל") == strip(["ל", "ק", "ש", " ", "2", "5", " ", "ר", "י", "ח", "מ"]))
    // Left-to-right text with a Hebrew word and a number after it: the number belongs to
    // the Hebrew run, on its left.
    #expect(renderer.render("Shop שלום 5") == strip(["S", "h", "o", "p", " ", "5", " ", "ם", "ו", "ל", "ש"]))
  }

  @Test func bracketsAreMirroredInRightToLeftRuns() {
    // (שלום): the closing bracket, last in memory, is drawn first and mirrored.
    #expect(renderer.render("(שלום)") == strip(["(", "ם", "ו", "ל", "ש", ")"]))
  }

  @Test func theDirectionCanBeSet() {
    var ltr = renderer
    ltr.direction = .ltr
    // Forced left to right, the Hebrew word still reads right to left, and the Latin word
    // after it stands on its right.
    #expect(ltr.render("שלום abc") == strip(["ם", "ו", "ל", "ש", " ", "a", "b", "c"]))
    #expect(renderer.render("שלום abc") == strip(["a", "b", "c", " ", "ם", "ו", "ל", "ש"]))
    var rtl = renderer
    rtl.direction = .rtl
    // Forced right to left, the closing mark goes where the line ends: on the left.
    #expect(rtl.render("abc!") == strip(["!", "a", "b", "c"]))
    #expect(rtl.layout("abc!").direction == .rtl)
  }

  @Test func decomposedAndPrecomposedTextLookTheSame() {
    #expect(renderer.render("Vie\u{323}\u{302}t Nam") == renderer.render("Việt Nam"))
    #expect(renderer.render("e\u{301}") == renderer.render("é"))
  }

  @Test(arguments: ["שָׁלוֹם", "ที่นี่", "नमस्ते", "q\u{303}\u{323}"])
  func marksSitOnTheirLetters(text: String) {
    let layout = renderer.layout(text)
    let byCharacter = Dictionary(grouping: layout.glyphs, by: \.characterIndex)
    var marks = 0
    for glyphs in byCharacter.values where glyphs.count > 1 {
      let base = glyphs[0]
      for mark in glyphs.dropFirst() {
        marks += 1
        let inkColumns = (0..<mark.glyph.bitmap.width).filter { x in (0..<mark.glyph.bitmap.height).contains { mark.glyph.bitmap[x, $0] } }
        guard let first = inkColumns.first, let last = inkColumns.last else { continue }
        // The mark's ink stands over its letter's cell, not beside it.
        #expect(mark.x + last >= base.x && mark.x + first < base.x + base.glyph.advance, "\(text): a mark stands beside its letter")
      }
    }
    #expect(marks > 0, "\(text) has marks to place")
  }

  /// Unifont without the Arabic presentation forms.
  final class WithoutPresentationForms: Font {
    let name = "no-forms"
    var ascent: Int { RightToLeftRenderingTests.unifont!.ascent }
    var descent: Int { RightToLeftRenderingTests.unifont!.descent }
    func glyph(for scalar: Unicode.Scalar) -> Glyph? {
      (0xFB50...0xFEFF).contains(scalar.value) ? nil : RightToLeftRenderingTests.unifont!.glyph(for: scalar)
    }
  }

  @Test func aFontWithoutJoinedFormsDrawsPlainLettersAndSaysSo() {
    let plain = TextRenderer(fonts: FontChain(WithoutPresentationForms()))
    let layout = plain.layout("سلام")
    #expect(layout.unshaped == ["س", "ل", "ا", "م"])
    #expect(plain.render("سلام") == strip(["م", "ا", "ل", "س"], renderer: plain))
    // A fallback font in the chain draws the joined forms.
    let chained = TextRenderer(fonts: FontChain([WithoutPresentationForms(), RightToLeftRenderingTests.unifont!]))
    #expect(chained.render("سلام") == renderer.render("سلام"))
    #expect(chained.layout("سلام").unshaped.isEmpty)
  }
}

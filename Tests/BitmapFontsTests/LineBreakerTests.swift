import MatrixCore
import Testing

@testable import BitmapFonts
@testable import FontCore

/// Lines for pages: Latin at spaces and hyphens, CJK between characters but never a line
/// that starts with closing or ends with opening punctuation (避头尾), overlong words split.
@Suite struct LineBreakerTests {
  /// Every character 4 columns wide, no spacing: a line of width 4n holds n characters.
  final class Cells: Font {
    let name = "cells", ascent = 4, descent = 0
    func glyph(for scalar: Unicode.Scalar) -> Glyph? {
      Glyph(bitmap: Framebuffer(width: 4, height: 4), advance: 4, top: 4)
    }
  }

  let renderer = TextRenderer(fonts: FontChain(Cells()), letterSpacing: 0)

  func lines(_ text: String, characters: Int) -> [String] {
    LineBreaker.lines(text, width: 4 * characters, renderer: renderer)
  }

  @Test func latinBreaksAtSpacesAndAfterHyphens() {
    #expect(lines("Hello there world", characters: 11) == ["Hello there", "world"])
    #expect(lines("Hello there world", characters: 5) == ["Hello", "there", "world"])
    #expect(lines("well-known fact", characters: 6) == ["well-", "known", "fact"])
    // A word longer than the line is split where it must.
    #expect(lines("Donaudampfschiff", characters: 6) == ["Donaud", "ampfsc", "hiff"])
    #expect(lines("", characters: 4) == [""])
    #expect(lines("Fits", characters: 4) == ["Fits"])
  }

  @Test func chineseBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
    #expect(lines("欢迎光临本店", characters: 4) == ["欢迎光临", "本店"])
    // "，" and "。" stay with the character before them, even past the line's width.
    #expect(lines("你好，世界。", characters: 2) == ["你", "好，", "世", "界。"])
    #expect(lines("今日特价，八折。", characters: 3) == ["今日特", "价，八", "折。"])
    // An opening bracket stays with what it opens.
    #expect(lines("他说「你好」", characters: 3) == ["他说", "「你", "好」"])
    for broken in [lines("营业时间：九点至二十一点。欢迎！", characters: 3), lines("（特价）商品，今天。", characters: 2)] {
      for line in broken.dropFirst() { #expect(!LineBreaker.noLineStart.contains(line.first!), "\(broken)") }
      for line in broken.dropLast() { #expect(!LineBreaker.noLineEnd.contains(line.last!), "\(broken)") }
    }
  }

  @Test func mixedTextBreaksAtBoth() {
    #expect(lines("Gleis 3 开往北京", characters: 8) == ["Gleis 3", "开往北京"])
  }
}
